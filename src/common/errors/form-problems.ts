import { AppError, FieldErrors } from './app-error';

/** Largest value of the integer columns on MySQL: the bound of every whole number a staff form sets. */
export const INT_COLUMN_MAX = 2_147_483_647;

/** A whole number from `min` that fits an integer column. */
export function isColumnInt(value: unknown, min = 0): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= INT_COLUMN_MAX;
}

/**
 * Collects what is wrong with a staff form, field by field, so staff see every problem at once; `check` then
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
