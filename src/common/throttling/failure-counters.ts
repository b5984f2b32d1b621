import type { RedisClientType } from 'redis';

/** A counter's value after a hit, and how long its window still runs. */
export interface FailureCount {
  hits: number;
  msLeft: number;
}

/**
 * Fixed-window counters of failed attempts (logins, registrations of taken addresses). A window opens with its
 * first hit; `undo` takes back one hit (an attempt that turned out not to be a failure) without moving the window.
 */
export interface FailureCounters {
  hit(keys: string[], windowMs: number): Promise<FailureCount[]>;
  undo(keys: string[]): Promise<void>;
}

const HIT_SCRIPT = `
local counts = {}
for _, key in ipairs(KEYS) do
  local hits = redis.call('INCR', key)
  if hits == 1 then redis.call('PEXPIRE', key, ARGV[1]) end
  table.insert(counts, hits)
  table.insert(counts, redis.call('PTTL', key))
end
return counts
`;

// Only a live counter is lowered: one that expired meanwhile must not come back as -1 without a window.
const UNDO_SCRIPT = `
for _, key in ipairs(KEYS) do
  if redis.call('EXISTS', key) == 1 then redis.call('DECR', key) end
end
return 0
`;

/** In Redis, so every app instance counts against the same limit; one round trip per attempt. */
export class RedisFailureCounters implements FailureCounters {
  constructor(
    private readonly redis: RedisClientType,
    private readonly prefix: string,
  ) {}

  async hit(keys: string[], windowMs: number): Promise<FailureCount[]> {
    const flat = (await this.redis.eval(HIT_SCRIPT, {
      keys: keys.map((key) => this.prefix + key),
      arguments: [String(windowMs)],
    })) as number[];
    return keys.map((_, i) => ({ hits: flat[2 * i], msLeft: Math.max(0, flat[2 * i + 1]) }));
  }

  async undo(keys: string[]): Promise<void> {
    await this.redis.eval(UNDO_SCRIPT, { keys: keys.map((key) => this.prefix + key) });
  }
}

/** How many counters the in-process store holds before it sweeps out the expired ones. */
const SWEEP_ABOVE = 10_000;

/** In process, for a single instance without Redis. */
export class MemoryFailureCounters implements FailureCounters {
  private readonly counters = new Map<string, { hits: number; expiresAt: number }>();

  async hit(keys: string[], windowMs: number): Promise<FailureCount[]> {
    const now = Date.now();
    if (this.counters.size > SWEEP_ABOVE) this.sweep(now);
    return keys.map((key) => {
      const live = this.live(key, now);
      // As in Redis: a counter taken back to zero opens a new window with its next hit.
      const counter = live && live.hits > 0 ? live : { hits: 0, expiresAt: now + windowMs };
      counter.hits++;
      this.counters.set(key, counter);
      return { hits: counter.hits, msLeft: counter.expiresAt - now };
    });
  }

  async undo(keys: string[]): Promise<void> {
    const now = Date.now();
    for (const key of keys) {
      const counter = this.live(key, now);
      if (counter) counter.hits--;
    }
  }

  private live(key: string, now: number) {
    const counter = this.counters.get(key);
    return counter && counter.expiresAt > now ? counter : undefined;
  }

  private sweep(now: number): void {
    for (const [key, counter] of this.counters) if (counter.expiresAt <= now) this.counters.delete(key);
  }
}
