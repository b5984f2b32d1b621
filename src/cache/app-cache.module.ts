import { CacheModule } from '@nestjs/cache-manager';
import { Global, Module } from '@nestjs/common';
import { Keyv } from 'keyv';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { REDIS, RedisClient } from '../redis/redis.module';

/** Entries an in-process cache keeps at most; the oldest goes first, so memory stays bounded. */
const MEMORY_ENTRIES = 10_000;

/** A Map that forgets its oldest entry beyond `limit`: Keyv's default Map would grow without bound. */
class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly limit: number) {
    super();
  }

  override set(key: K, value: V): this {
    if (!this.has(key) && this.size >= this.limit) this.delete(this.keys().next().value as K);
    return super.set(key, value);
  }
}

/**
 * The response cache (`@nestjs/cache-manager`): in Redis when configured, so every instance sees the
 * same entries and the same invalidations; in process otherwise.
 */
@Global()
@Module({
  imports: [
    CacheModule.registerAsync({
      isGlobal: true,
      inject: [APP_CONFIG, REDIS],
      useFactory: async (config: AppConfig, redis: RedisClient) => ({
        stores: [
          redis
            ? new Keyv({
                store: new (await import('@keyv/redis')).default(redis),
                namespace: `${config.redisPrefix}cache`,
              })
            : new Keyv({ store: new BoundedMap(MEMORY_ENTRIES) }),
        ],
      }),
    }),
  ],
})
export class AppCacheModule {}
