import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectThrottlerStorage, ThrottlerRequest, ThrottlerStorage } from '@nestjs/throttler';
import type { Request } from 'express';
import { clientAddress } from './client-address';
import { ShopThrottlerGuard, tooManyRequests } from './throttling.module';

/**
 * Whom a request counts against, twice over: its client address (an IPv6 /64 as one, as the throttler counts)
 * and its session. Dropping the cookie does not escape the address's count, nor changing networks the session's.
 */
function sessionAndAddress(req: Request): string[] {
  const trackers = [`address:${clientAddress(req.ip)}`];
  if (req.sessionID) trackers.push(`session:${req.sessionID}`);
  return trackers;
}

/**
 * For routes that act on a guest's behalf towards others (mail a link): with `@Throttle(...)`, the limit holds
 * per session and per client address, the first one over answers 429 with `Retry-After`.
 */
@Injectable()
export class SessionAndAddressThrottlerGuard extends ShopThrottlerGuard {
  protected override async handleRequest(request: ThrottlerRequest): Promise<boolean> {
    const { req } = this.getRequestResponse(request.context);
    for (const tracker of sessionAndAddress(req as Request)) {
      await super.handleRequest({ ...request, getTracker: () => tracker });
    }
    return true;
  }
}

/** `limit` units per `windowMs`, counted under `name`. */
export interface Allowance {
  name: string;
  limit: number;
  windowMs: number;
}

/**
 * An allowance of units per window (e-mails to send, say), per session and per client address, counted in the
 * throttler's storage: Redis when configured, so every instance spends from one allowance.
 */
@Injectable()
export class SessionAndAddressAllowance {
  constructor(@InjectThrottlerStorage() private readonly storage: ThrottlerStorage) {}

  /**
   * Takes `units` of the allowance, or throws 429 `too_many_requests` with `retryAfter`. A request that would go
   * past `limit` is refused whole, and so is every other until its window ends.
   */
  async take(req: Request, { name, limit, windowMs }: Allowance, units: number): Promise<void> {
    let blockedFor = 0;
    for (const tracker of sessionAndAddress(req)) {
      // Hashed, as the throttler keys its counts: no session id or address sits in Redis keys.
      const key = createHash('sha256').update(`${name}:${tracker}`).digest('hex');
      // The storage counts one hit per call: one per unit, stopping at the first that finds the block.
      for (let unit = 0; unit < units; unit++) {
        const count = await this.storage.increment(key, windowMs, limit, windowMs, name);
        if (count.isBlocked) {
          blockedFor = Math.max(blockedFor, count.timeToBlockExpire);
          break;
        }
      }
    }
    if (blockedFor > 0) throw tooManyRequests(blockedFor);
  }
}
