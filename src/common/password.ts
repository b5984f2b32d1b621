import { randomBytes, scrypt as scryptCallback, ScryptOptions, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(scryptCallback) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: ScryptOptions,
) => Promise<Buffer>;

/**
 * One of OWASP's equivalent scrypt settings (N=2^14, r=8, p=5): the same work as N=2^17, p=1 for 16 MiB
 * of memory per hash instead of 128 MiB, so a burst of logins does not balloon the process. Stored with
 * each hash, so it can be raised later without invalidating old ones.
 */
const STRONG_COST = { N: 2 ** 14, r: 8, p: 5 };
/** For the test suite only (FAST_PASSWORD_HASHES, refused outside NODE_ENV=test): some 100 times less work. */
const FAST_COST = { N: 2 ** 10, r: 8, p: 1 };
const KEY_LENGTH = 32;

let COST = STRONG_COST;

/** Chooses the cost of new hashes, once at start-up from the configuration; verifying uses each hash's own. */
export function usePasswordCost(fast: boolean): void {
  COST = fast ? FAST_COST : STRONG_COST;
}

function options(cost: { N: number; r: number; p: number }): ScryptOptions {
  return { ...cost, maxmem: 256 * cost.N * cost.r };
}

/** Hashes a password as `scrypt$N$r$p$salt$key` (base64 parts). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEY_LENGTH, options(COST));
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, options(cost));
  return timingSafeEqual(actual, expected);
}

/** A hash to verify against when the account does not exist, so both answers take the same time. */
export function dummyPasswordHash(): string {
  return `scrypt$${COST.N}$${COST.r}$${COST.p}$AAAAAAAAAAAAAAAAAAAAAA==$${Buffer.alloc(KEY_LENGTH).toString('base64')}`;
}
