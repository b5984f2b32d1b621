import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

/** A uniformly drawn 6-digit code, leading zeros kept. */
export function newOtp(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/**
 * The stored form of a code. Hashed together with its link's token: the code space is small, so a bare
 * hash of the code would be reversed at a glance, while this one needs the token, which is stored nowhere.
 */
export function hashOtp(token: string, code: string): string {
  return sha256(`${token}:${code}`);
}

/** Compares two hex digests in constant time. */
export function sameDigest(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));
}

function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
