import { randomCode } from '../../common/ids';

const LENGTH = 16;
/** The alphabet of `randomCode` (no 0/O, 1/I/L), 16 of them. */
const STORED = /^[ABCDEFGHJKMNPQRSTUVWXYZ2-9]{16}$/;

/** A new random code (docs/architecture.md): 31^16 ≈ 7·10^23 possibilities, too many to guess. */
export function newGiftCardCode(): string {
  return randomCode(LENGTH);
}

/**
 * A code as people type it (any case, with spaces or dashes) in its stored form, or null when it cannot be
 * a code at all: such input is refused without a database lookup.
 */
export function normalizeGiftCardCode(input: unknown): string | null {
  if (typeof input !== 'string' || input.length > 40) return null;
  const code = input.replace(/[\s-]/g, '').toUpperCase();
  return STORED.test(code) ? code : null;
}

/** `ABCD-EFGH-JKMN-PQRS`: how the code is printed for people (voucher, e-mail, CP). */
export function formatGiftCardCode(code: string): string {
  return code.replace(/(.{4})(?=.)/g, '$1-');
}

/** `ABCD-••••-••••-PQRS`: enough to tell cards apart in lists and messages, not enough to spend one. */
export function maskGiftCardCode(code: string): string {
  return `${code.slice(0, 4)}-••••-••••-${code.slice(-4)}`;
}
