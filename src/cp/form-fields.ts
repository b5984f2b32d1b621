import { shopMoment } from '../commerce/delivery/shop-calendar';
import { INT_COLUMN_MAX } from '../common/errors/form-problems';
import { toMinor } from '../common/money';

/** "12.5" or "12,50" → minor units; null for anything else, including more decimals than the currency has. */
export function parsePrice(text: string, decimals: number): number | null {
  const normalized = text.trim().replace(',', '.');
  const pattern = decimals > 0 ? new RegExp(`^\\d{1,9}(\\.\\d{1,${decimals}})?$`) : /^\d{1,9}$/;
  if (!pattern.test(normalized)) return null;
  const minor = toMinor(Number(normalized), decimals);
  return minor <= INT_COLUMN_MAX ? minor : null;
}

/** What a price field expects, e.g. "an amount ≥ 0 with at most 2 decimals, like 12.50". */
export function priceRule(decimals: number): string {
  return `must be an amount ≥ 0 with at most ${decimals} decimals, like ${(1250 / 10 ** decimals).toFixed(decimals)}`;
}

/** A whole number ≥ 0; JSON clients may send numbers, forms send text. */
export function parseCount(value: unknown): number | null {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !/^\d{1,10}$/.test(text.trim())) return null;
  const count = Number(text.trim());
  return count <= INT_COLUMN_MAX ? count : null;
}

export const MOMENT_RULE = 'must be a date and time like 2026-12-24T18:00';

/** A moment typed in the shop's time zone: null when empty, undefined when it is not one. */
export function parseMoment(text: string | undefined, timeZone: string): number | null | undefined {
  if (!text?.trim()) return null;
  return shopMoment(timeZone, text.trim()) ?? undefined;
}
