import { AppError, FieldErrors } from '../common/errors/app-error';
import { toMinor } from '../common/money';

/** Largest value of the integer columns on MySQL. */
const MAX_INT = 2_147_483_647;

/**
 * Collects what is wrong with a CP form, field by field, so staff see every problem at once; `check` then
 * refuses the whole form (nothing is saved) with a 400 naming them.
 */
export class FormProblems {
  private readonly fields: FieldErrors = {};
  private readonly problems: string[] = [];

  add(field: string, subject: string, message: string): void {
    this.fields[field] = [message];
    this.problems.push(`${subject} ${message}`);
  }

  check(what: string): void {
    if (this.problems.length > 0)
      throw AppError.invalid(this.fields, `${what} was not saved: ${this.problems.join('; ')}.`);
  }
}

/** "12.5" or "12,50" → minor units; null for anything else, including more decimals than the currency has. */
export function parsePrice(text: string, decimals: number): number | null {
  const normalized = text.trim().replace(',', '.');
  const pattern = decimals > 0 ? new RegExp(`^\\d{1,9}(\\.\\d{1,${decimals}})?$`) : /^\d{1,9}$/;
  if (!pattern.test(normalized)) return null;
  const minor = toMinor(Number(normalized), decimals);
  return minor <= MAX_INT ? minor : null;
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
  return count <= MAX_INT ? count : null;
}
