import { Injectable } from '@nestjs/common';
import { InjectThrottlerStorage, ThrottlerStorage } from '@nestjs/throttler';

/** Wrong secrets one address may send within the window before it is shut out. */
export const WEBHOOK_MISS_LIMIT = 10;
const MISS_WINDOW_MS = 10 * 60_000;
const BLOCK_MS = 15 * 60_000;

/**
 * Holds back secret guessing at the flow webhook: an address that sent WEBHOOK_MISS_LIMIT wrong secrets
 * within 10 minutes gets 429 for 15 minutes, even with a right one (else its 200 would still tell a hit
 * apart). Only misses count, so a caller with a right secret is never slowed down. Counts live in the
 * throttler's storage, Redis when configured, so every instance enforces one limit.
 */
@Injectable()
export class WebhookGuessThrottle {
  constructor(@InjectThrottlerStorage() private readonly storage: ThrottlerStorage) {}

  /** How many seconds the address is still shut out for; 0 when it is not. */
  async blockedSeconds(ip: string): Promise<number> {
    // The storage only counts; a limit this probe can never reach makes it a read of the block.
    const probe = await this.storage.increment(`block:${ip}`, 1000, Number.MAX_SAFE_INTEGER, BLOCK_MS, 'flow-webhook');
    return probe.isBlocked ? Math.max(1, probe.timeToBlockExpire) : 0;
  }

  /** Counts a wrong secret; the one that reaches the limit opens the block. */
  async countMiss(ip: string): Promise<void> {
    const misses = await this.storage.increment(`miss:${ip}`, MISS_WINDOW_MS, WEBHOOK_MISS_LIMIT, 0, 'flow-webhook');
    if (misses.totalHits < WEBHOOK_MISS_LIMIT) return;
    // A limit of 0: this hit passes it and blocks the address for BLOCK_MS.
    await this.storage.increment(`block:${ip}`, 1000, 0, BLOCK_MS, 'flow-webhook');
  }
}
