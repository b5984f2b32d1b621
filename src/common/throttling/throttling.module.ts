import { ExecutionContext, Global, Injectable, Module } from '@nestjs/common';
import { ThrottlerGuard, ThrottlerLimitDetail, ThrottlerModule } from '@nestjs/throttler';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { REDIS, RedisClient } from '../../redis/redis.module';
import { AppError } from '../errors/app-error';
import { LoginThrottle } from './login-throttle.service';
import { RedisThrottlerStorage } from './redis-throttler.storage';
import { commonErrors } from '../errors/common-errors';

/**
 * Rate limits for routes that invite guessing or abuse (guest order view, codes, webhook):
 * `@UseGuards(ShopThrottlerGuard)` with `@Throttle({ default: { limit, ttl } })`, counted per client address
 * (SessionAndAddressThrottlerGuard: per session too). Counts live in Redis when configured, so the limit holds
 * across instances; in process otherwise. Password logins (shop and CP) are held back by `LoginThrottle`.
 */
@Injectable()
export class ShopThrottlerGuard extends ThrottlerGuard {
  protected override async throwThrottlingException(
    _context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    throw tooManyRequests(detail.timeToBlockExpire);
  }
}

/** The answer to a throttled request: 429 `too_many_requests`, its `retryAfter` also sent as `Retry-After`. */
export function tooManyRequests(blockedForSeconds: number): AppError {
  const seconds = Math.max(1, blockedForSeconds);
  return commonErrors.too_many_requests(
    { what: 'requests', wait: `${seconds} seconds` },
    { details: { retryAfter: seconds } },
  );
}

@Global()
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [APP_CONFIG, REDIS],
      useFactory: (config: AppConfig, redis: RedisClient) => ({
        throttlers: [{ name: 'default', ttl: 60_000, limit: 60 }],
        storage: redis ? new RedisThrottlerStorage(redis, config.redisPrefix) : undefined,
      }),
    }),
  ],
  providers: [ShopThrottlerGuard, LoginThrottle],
  exports: [ShopThrottlerGuard, LoginThrottle, ThrottlerModule],
})
export class ThrottlingModule {}
