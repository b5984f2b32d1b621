import { createHash } from 'node:crypto';
import { AppConfig } from '../../config/app-config';
import { RedisClient } from '../../redis/redis.module';
import { clientAddress, foldedName } from './client-address';
import { FailureCounters, MemoryFailureCounters, RedisFailureCounters } from './failure-counters';
import { commonErrors } from '../errors/common-errors';

/** One attempt under way; an attempt that is not taken back counts as failed. */
export interface ThrottledAttempt {
  /** The attempt turned out not to be a failure: its count is taken back. */
  takeBack(): Promise<void>;
}

/** What a throttle counts and how it refuses. */
export interface FailureRule {
  /** Where its counters live in Redis, after the app's prefix. */
  keySpace: string;
  /** Failures allowed per window, for one name and for one client address alike. */
  limit: number;
  windowMs: number;
  /** What the 429 says there were too many of ("failed logins"). */
  tooMany: string;
}

/**
 * Guessing held back per name (a login name, an e-mail address) and per client address: after `limit` failures
 * within the window either one refuses further attempts (429, whatever the attempt would have brought) until
 * its window ends. Counted in Redis when configured, so every app instance counts against the same limit.
 *
 * The attempt is counted before it is checked and taken back when it did not fail, so a burst of parallel
 * guesses cannot all slip past the limit before the first of them has failed. Taking back only the attempt's
 * own count means a success never clears the failures others made from that address.
 */
export class FailureThrottle {
  private readonly counters: FailureCounters;

  constructor(
    redis: RedisClient,
    config: AppConfig,
    private readonly rule: FailureRule,
  ) {
    this.counters = redis
      ? new RedisFailureCounters(redis, `${config.redisPrefix}${rule.keySpace}`)
      : new MemoryFailureCounters();
  }

  /** Opens an attempt, or throws a 429 `too_many_requests` (with `retryAfter` seconds) when over the limit. */
  async begin(name: string, ip: string | undefined): Promise<ThrottledAttempt> {
    // Names are hashed so no e-mail address sits in Redis keys.
    const digest = createHash('sha256').update(foldedName(name)).digest('hex').slice(0, 32);
    const keys = [`name:${digest}`, `ip:${clientAddress(ip)}`];
    const counts = await this.counters.hit(keys, this.rule.windowMs);
    const blocked = counts.filter((count) => count.hits > this.rule.limit);
    if (blocked.length > 0) {
      await this.counters.undo(keys);
      const seconds = Math.max(1, Math.ceil(Math.max(...blocked.map((count) => count.msLeft)) / 1000));
      const minutes = Math.ceil(seconds / 60);
      throw commonErrors.too_many_requests(
        { what: this.rule.tooMany, wait: minutes === 1 ? 'a minute' : `${minutes} minutes` },
        { details: { retryAfter: seconds } },
      );
    }
    return { takeBack: () => this.counters.undo(keys) };
  }
}
