import { AppError, FieldErrors } from '../../common/errors/app-error';
import { roundHalfUp } from '../../common/money';
import { Coupon, CouponType } from './coupon.entity';

/** A coupon as staff type it (CLI, CP): money in major units of the base currency. */
export interface NewCoupon {
  code: string;
  type: CouponType;
  /** `percent`: whole percent 1–100; `fixed`: amount in major units of the base currency. */
  value: number;
  usageLimit?: number | null;
  perCustomerLimit?: number | null;
  /** Major units of the base currency. */
  minSubtotal?: number | null;
  startsAt?: Date | null;
  endsAt?: Date | null;
  enabled?: boolean;
}

export type CouponValues = Pick<
  Coupon,
  'code' | 'type' | 'value' | 'minSubtotal' | 'startsAt' | 'endsAt' | 'usageLimit' | 'perCustomerLimit' | 'enabled'
>;

const CODE_PATTERN = /^[A-Z0-9_-]{3,64}$/;
/** The integer columns are 32-bit signed on MySQL; anything larger would fail as a 500 at insert. */
const MAX_INT = 2_147_483_647;

/** Codes are stored upper-case and matched case-insensitively. */
export function normalizeCouponCode(code: string): string {
  return String(code ?? '')
    .trim()
    .toUpperCase();
}

/** Checks a new coupon and converts it to stored values, or throws one 400 listing every problem. */
export function validateNewCoupon(input: NewCoupon, baseDecimals: number): CouponValues {
  const fields: FieldErrors = {};
  const problem = (field: string, message: string) => (fields[field] ??= []).push(message);

  const code = normalizeCouponCode(input.code);
  if (!CODE_PATTERN.test(code)) problem('code', 'must be 3–64 characters: letters A–Z, digits, - or _');

  let value = 0;
  if (input.type !== 'percent' && input.type !== 'fixed') {
    problem('type', 'must be percent or fixed');
  } else if (input.value === undefined || input.value === null) {
    problem('value', 'is required');
  } else if (input.type === 'percent') {
    if (Number.isInteger(input.value) && input.value >= 1 && input.value <= 100) value = input.value;
    else problem('value', 'must be a whole percent from 1 to 100');
  } else {
    value = amount('value', input.value, baseDecimals, problem) ?? 0;
  }

  const minSubtotal =
    input.minSubtotal == null ? null : amount('minSubtotal', input.minSubtotal, baseDecimals, problem);
  const usageLimit = limit('usageLimit', input.usageLimit, problem);
  const perCustomerLimit = limit('perCustomerLimit', input.perCustomerLimit, problem);
  const startsAt = moment('startsAt', input.startsAt, problem);
  const endsAt = moment('endsAt', input.endsAt, problem);
  if (startsAt !== null && endsAt !== null && endsAt <= startsAt) problem('endsAt', 'must be after startsAt');

  if (Object.keys(fields).length > 0) {
    const details = Object.entries(fields).map(([field, messages]) => `${field} ${messages.join(', ')}`);
    throw AppError.invalid(fields, `The coupon was not saved: ${details.join('; ')}.`);
  }
  return {
    code,
    type: input.type,
    value,
    minSubtotal,
    startsAt,
    endsAt,
    usageLimit,
    perCustomerLimit,
    enabled: input.enabled ?? true,
  };
}

type Problem = (field: string, message: string) => void;

/** Major units → minor units, refusing more decimals than the currency has rather than rounding them away. */
function amount(field: string, major: number, decimals: number, problem: Problem): number | null {
  const scaled = major * 10 ** decimals;
  const minor = roundHalfUp(scaled);
  const digits = decimals === 0 ? 'a whole amount' : `an amount with at most ${decimals} decimals`;
  if (!Number.isFinite(major) || major <= 0 || Math.abs(scaled - minor) > 1e-6) {
    problem(field, `must be ${digits}, more than 0`);
    return null;
  }
  if (minor > MAX_INT) {
    problem(field, 'is too large');
    return null;
  }
  return minor;
}

function limit(field: string, value: number | null | undefined, problem: Problem): number | null {
  if (value == null) return null;
  if (Number.isInteger(value) && value >= 1 && value <= MAX_INT) return value;
  problem(field, 'must be a whole number of at least 1');
  return null;
}

function moment(field: string, value: Date | null | undefined, problem: Problem): number | null {
  if (value == null) return null;
  const time = value.getTime();
  if (Number.isNaN(time)) {
    problem(field, 'must be a valid date');
    return null;
  }
  return time;
}

const ISO_MOMENT = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?)(Z|[+-]\d{2}:\d{2})?)?$/i;

/**
 * An ISO 8601 date (`2026-10-31`) or date-time (`2026-10-31T18:00`, `…Z`, `…+01:00`); null when it is not one.
 * Without a zone the moment is UTC, the zone the CP shows dates in. Impossible days (02-30) are refused
 * instead of rolling over as `Date.parse` would.
 */
export function parseIsoMoment(text: string): Date | null {
  const match = ISO_MOMENT.exec(String(text ?? '').trim());
  if (!match) return null;
  const [, year, month, day, time = '00:00', zone = 'Z'] = match;
  const calendar = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (calendar.getUTCMonth() !== Number(month) - 1 || calendar.getUTCDate() !== Number(day)) return null;
  const ms = Date.parse(`${year}-${month}-${day}T${time}${zone.toUpperCase()}`);
  return Number.isNaN(ms) ? null : new Date(ms);
}
