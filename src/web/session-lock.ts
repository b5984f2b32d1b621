import { createHash, randomBytes } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { DependencyOutages } from '../common/dependency-outages';
import { unavailableDependency } from '../common/errors/unavailable-dependency';
import type { RedisClient } from '../redis/redis.module';

/** Methods that may change the session; reads run side by side. */
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** How long a request waits its turn before it runs anyway (a turn is one request: a bank call included). */
const WAIT_MS = 15_000;
/** A held lock lapses after this, so a crashed instance cannot hold a session for good. */
const HOLD_MS = 30_000;
const POLL_MS = 15;

/** Deletes the lock only if this holder still owns it (it may have lapsed and been taken by another). */
const RELEASE_SCRIPT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

type Release = () => Promise<void>;

interface Locks {
  /** Waits for the key, up to WAIT_MS; resolves to the release, or null when the wait ran out. */
  acquire(key: string): Promise<Release | null>;
}

/** Locks within this process: enough for one instance. */
class ProcessLocks implements Locks {
  private readonly tails = new Map<string, Promise<void>>();

  async acquire(key: string): Promise<Release | null> {
    const before = this.tails.get(key);
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = before ? before.then(() => mine) : mine;
    this.tails.set(key, tail);
    const done = async () => {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    };
    if (!before) return done;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), WAIT_MS)));
    const turn = await Promise.race([before.then(() => 'turn' as const), timedOut]);
    clearTimeout(timer);
    if (turn === 'timeout') {
      // Run without the lock, but let the requests behind wait for this one too.
      await done();
      return null;
    }
    return done;
  }
}

/** Locks in Redis, shared by every instance. */
class RedisLocks implements Locks {
  constructor(
    private readonly redis: NonNullable<RedisClient>,
    private readonly prefix: string,
  ) {}

  async acquire(key: string): Promise<Release | null> {
    const lockKey = `${this.prefix}${key}`;
    const token = randomBytes(12).toString('hex');
    const deadline = Date.now() + WAIT_MS;
    while (Date.now() < deadline) {
      const taken = await this.redis.set(lockKey, token, {
        condition: 'NX',
        expiration: { type: 'PX', value: HOLD_MS },
      });
      if (taken) {
        return async () => {
          await this.redis.eval(RELEASE_SCRIPT, { keys: [lockKey], arguments: [token] });
        };
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    return null;
  }
}

/**
 * One request at a time per session for the methods that may change it. express-session reads the session when a
 * request starts and writes the whole of it when the request ends, so two requests of one shopper running side by
 * side (a double click, two tabs, a phone retrying) would each write back what they read and undo the other's
 * change: the cart one of them created, the currency the other chose. Taking turns keeps both. Reads (GET) do not
 * wait. A request without a session cookie has no session to share. When Redis is away the request answers 503 (its
 * session is in the same Redis), and the outage is logged once by `outages`.
 */
export function sessionLock(
  redis: RedisClient,
  redisPrefix: string,
  cookieName: string,
  outages: DependencyOutages,
): RequestHandler {
  const locks: Locks = redis ? new RedisLocks(redis, `${redisPrefix}sesslock:`) : new ProcessLocks();
  const logger = new Logger('SessionLock');
  return (req: Request, res: Response, next: NextFunction) => {
    const cookie = UNSAFE.has(req.method) ? sessionCookie(req, cookieName) : undefined;
    if (!cookie) return next();
    // The cookie holds the session id: only its hash names the lock.
    const key = createHash('sha256').update(cookie).digest('base64url').slice(0, 32);
    locks.acquire(key).then(
      (release) => {
        if (!release) logger.warn(`a request ran without its session's lock after waiting ${WAIT_MS} ms`);
        else {
          let released = false;
          const releaseOnce = () => {
            if (released) return;
            released = true;
            // A lock left behind by an outage lapses after HOLD_MS.
            release().catch(
              (error: Error) => outages.absorb(error) || logger.warn(`session lock not released: ${error.message}`),
            );
          };
          // express-session has saved the session by the time the answer is finished.
          res.once('finish', releaseOnce);
          res.once('close', releaseOnce);
        }
        next();
      },
      (error: Error) => {
        if (unavailableDependency(error)) return next(error);
        logger.warn(`session lock unavailable, the request runs without it: ${error.message}`);
        next();
      },
    );
  };
}

function sessionCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim() || undefined;
  }
  return undefined;
}
