import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { InjectRedis, RedisClient } from '../../redis/redis.module';
import { AppError } from '../errors/app-error';
import { LoginFailureCounters, MemoryLoginFailureCounters, RedisLoginFailureCounters } from './login-failures';

export const LOGIN_FAILURE_LIMIT = 5;
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60 * 1000;

/**
 * Whose login: shoppers and CP staff are counted apart, so failures at the shop login never hold back
 * staff logging in from the same office, and the reverse.
 */
export type LoginRealm = 'customer' | 'cp';

/** One login attempt under way; an attempt that is neither settled as a success nor refused counts as failed. */
export interface LoginAttempt {
  succeeded(): Promise<void>;
}

/**
 * Password guessing is held back per login name and per client address: after 5 failures within 15 minutes
 * either one refuses further attempts (429, even with the right password) until its window ends. Both the
 * customer login and the CP login go through it.
 *
 * The attempt is counted before the password is checked and taken back if it succeeds or is refused, so a
 * burst of parallel guesses cannot all slip past the limit before the first of them has failed. Taking back
 * only the attempt's own count means a success never clears the failures others made from that address.
 */
@Injectable()
export class LoginThrottle {
  private readonly counters: LoginFailureCounters;

  constructor(@InjectRedis() redis: RedisClient, @InjectConfig() config: AppConfig) {
    this.counters = redis
      ? new RedisLoginFailureCounters(redis, `${config.redisPrefix}login-failures:`)
      : new MemoryLoginFailureCounters();
  }

  /** Opens an attempt, or throws a 429 `too_many_requests` (with `retryAfter` seconds) when over the limit. */
  async begin(realm: LoginRealm, loginName: string, ip: string | undefined): Promise<LoginAttempt> {
    // Login names are hashed so no e-mail address sits in Redis keys.
    const name = createHash('sha256').update(loginName.trim().toLowerCase()).digest('hex').slice(0, 32);
    const keys = [`${realm}:name:${name}`, `${realm}:ip:${ip ?? 'unknown'}`];
    const counts = await this.counters.hit(keys, LOGIN_FAILURE_WINDOW_MS);
    const blocked = counts.filter((count) => count.hits > LOGIN_FAILURE_LIMIT);
    if (blocked.length > 0) {
      await this.counters.undo(keys);
      const seconds = Math.max(1, Math.ceil(Math.max(...blocked.map((count) => count.msLeft)) / 1000));
      const minutes = Math.ceil(seconds / 60);
      throw new AppError(
        'too_many_requests',
        `Too many failed logins. Try again in ${minutes === 1 ? 'a minute' : `${minutes} minutes`}.`,
        429,
        undefined,
        { retryAfter: seconds },
      );
    }
    return { succeeded: () => this.counters.undo(keys) };
  }
}
