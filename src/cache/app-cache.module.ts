import { CacheModule } from '@nestjs/cache-manager';
import { Global, Module } from '@nestjs/common';
import { Keyv } from 'keyv';
import { DependencyOutages } from '../common/dependency-outages';
import { unavailableDependency } from '../common/errors/unavailable-dependency';
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
 * The cache in Redis. While Redis is away Keyv answers every read as a miss and drops writes and deletes (it reports
 * the error and does not throw), so pages are built afresh. A delete dropped that way would leave an entry that should
 * be gone (a cart changed meanwhile), so once Redis is back after a failed operation the whole namespace is dropped.
 */
async function redisCache(redis: NonNullable<RedisClient>, namespace: string, outages: DependencyOutages) {
  const cache = new Keyv({ store: new (await import('@keyv/redis')).default(redis), namespace });
  let clearing = false;
  cache.on('error', (error: unknown) => {
    if (unavailableDependency(error) !== 'redis' || clearing) return;
    clearing = true;
    outages.report('redis', error);
    outages.onBack('redis', async () => {
      clearing = false;
      await cache.clear();
    });
  });
  return cache;
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
      inject: [APP_CONFIG, REDIS, DependencyOutages],
      useFactory: async (config: AppConfig, redis: RedisClient, outages: DependencyOutages) => ({
        stores: [
          redis
            ? await redisCache(redis, `${config.redisPrefix}cache`, outages)
            : new Keyv({ store: new BoundedMap(MEMORY_ENTRIES) }),
        ],
      }),
    }),
  ],
})
export class AppCacheModule {}
