import { randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** 32 lowercase hex chars (128 random bits): order numbers, cart uids, share tokens. */
export function randomHex32(): string {
  return randomBytes(16).toString('hex');
}

/** Letters and digits people do not confuse (no 0/O, 1/I/L). */
const UNAMBIGUOUS = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** A random code from the unambiguous alphabet, e.g. gift-card codes and order references. */
export function randomCode(length: number): string {
  let code = '';
  for (let i = 0; i < length; i++) code += UNAMBIGUOUS[randomInt(UNAMBIGUOUS.length)];
  return code;
}

/** Compares secrets without leaking their common prefix through timing. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
