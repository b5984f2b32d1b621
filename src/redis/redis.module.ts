import { Global, Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { createClient, RedisClientType } from 'redis';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';

export const REDIS = Symbol('REDIS');

/** The shared Redis client, or null when `REDIS_URL` is unset (everything then runs on the database). */
export type RedisClient = RedisClientType | null;
export const InjectRedis = () => Inject(REDIS);

@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [APP_CONFIG],
      useFactory: async (config: AppConfig): Promise<RedisClient> => {
        if (!config.redisUrl) return null;
        const client = createClient({ url: config.redisUrl }) as RedisClientType;
        const logger = new Logger('Redis');
        client.on('error', (error: Error) => logger.error(`redis: ${error.message}`));
        await client.connect();
        return client;
      },
    },
  ],
  exports: [REDIS],
})
export class RedisModule implements OnApplicationShutdown {
  constructor(@InjectRedis() private readonly redis: RedisClient) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.redis?.isOpen) await this.redis.quit();
  }
}
