import { Global, Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import type { RedisClientType } from 'redis';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';

export const REDIS = Symbol('REDIS');

/** The shared Redis client, or null when `REDIS_URL` is unset (everything then runs on the database). */
export type RedisClient = RedisClientType | null;
export const InjectRedis = () => Inject(REDIS);

/** How long a shutdown waits for a client's pending commands before cutting the connection. */
const CLOSE_WAIT_MS = 2000;

/**
 * Closes a client at shutdown: pending commands may finish, but only for a moment. A plain QUIT was seen
 * to wait forever under load, which kept the process from exiting.
 */
export async function closeRedis(client: RedisClientType): Promise<void> {
  if (!client.isOpen) return;
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_WAIT_MS)));
  await Promise.race([client.close().catch(() => undefined), waited]);
  clearTimeout(timer);
  if (client.isOpen) client.destroy();
}

@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [APP_CONFIG],
      useFactory: async (config: AppConfig): Promise<RedisClient> => {
        if (!config.redisUrl) return null;
        // Loaded only when used: an install without Redis never needs the client.
        const { createClient } = await import('redis');
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
    if (this.redis) await closeRedis(this.redis);
  }
}
