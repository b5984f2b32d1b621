import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import type { RedisClientOptions, RedisClientType } from 'redis';
import { DependencyOutages } from '../common/dependency-outages';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';

export const REDIS = Symbol('REDIS');

/** The shared Redis client, or null when `REDIS_URL` is unset (everything then runs on the database). */
export type RedisClient = RedisClientType | null;
export const InjectRedis = () => Inject(REDIS);

/** How long a shutdown waits for a client's pending commands before cutting the connection. */
const CLOSE_WAIT_MS = 2000;
/** The longest wait between reconnection attempts: a Redis that is back is in use again within about a second. */
const MAX_RECONNECT_WAIT_MS = 1000;

/**
 * Options for every node-redis client of the app (`duplicate()` keeps them). While the connection is down a command
 * fails at once (the request answers 503) instead of waiting in the offline queue for Redis to return, and the
 * client reconnects with a backoff of 50 ms doubling up to a second, with jitter so instances do not reconnect in step.
 */
function redisClientOptions(url: string): RedisClientOptions {
  return {
    url,
    disableOfflineQueue: true,
    socket: {
      reconnectStrategy: (retries) => Math.min(50 * 2 ** retries, MAX_RECONNECT_WAIT_MS) + Math.random() * 100,
    },
  };
}

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
      inject: [APP_CONFIG, DependencyOutages],
      useFactory: async (config: AppConfig, outages: DependencyOutages): Promise<RedisClient> => {
        if (!config.redisUrl) return null;
        // Loaded only when used: an install without Redis never needs the client.
        const { createClient } = await import('redis');
        const client = createClient(redisClientOptions(config.redisUrl)) as RedisClientType;
        // Without a listener an 'error' event (Redis going away) would throw and end the process.
        client.on('error', (error: Error) => outages.report('redis', error));
        outages.watch('redis', () => client.ping());
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
