import { ThrottlerStorage } from '@nestjs/throttler';
import type { RedisClientType } from 'redis';

/**
 * One round trip per hit: count the hit in a fixed window, and open a block once the count passes the
 * limit. Answers [hits, ms left in the window, ms left in the block (≤ 0: not blocked)].
 */
const HIT_SCRIPT = `
local hits = redis.call('INCR', KEYS[1])
if hits == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local windowLeft = redis.call('PTTL', KEYS[1])
local blockLeft = redis.call('PTTL', KEYS[2])
if blockLeft <= 0 and hits > tonumber(ARGV[2]) then
  redis.call('SET', KEYS[2], '1', 'PX', ARGV[3])
  blockLeft = tonumber(ARGV[3])
end
return { hits, windowLeft, blockLeft }
`;

/** Throttler counts in Redis, so every app instance enforces one shared limit per client. */
export class RedisThrottlerStorage implements ThrottlerStorage {
  constructor(
    private readonly redis: RedisClientType,
    private readonly prefix: string,
  ) {}

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string) {
    const base = `${this.prefix}throttle:${throttlerName}:${key}`;
    const [hits, windowLeft, blockLeft] = (await this.redis.eval(HIT_SCRIPT, {
      keys: [base, `${base}:blocked`],
      arguments: [String(ttl), String(limit), String(blockDuration || ttl)],
    })) as number[];
    return {
      totalHits: hits,
      timeToExpire: Math.ceil(Math.max(0, windowLeft) / 1000),
      isBlocked: blockLeft > 0,
      timeToBlockExpire: Math.ceil(Math.max(0, blockLeft) / 1000),
    };
  }
}
