import { toMajor } from '../../common/money';
import { Coupon, CouponType } from './coupon.entity';

/** A coupon as the CLI prints it and the CP lists it: money in major units of the base currency, ISO dates. */
export interface CouponView {
  id: number;
  code: string;
  type: CouponType;
  value: number;
  usageLimit: number | null;
  perCustomerLimit: number | null;
  minSubtotal: number | null;
  startsAt: string | null;
  endsAt: string | null;
  enabled: boolean;
  timesUsed: number;
}

export function describeCoupon(coupon: Coupon, baseDecimals: number): CouponView {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    id: coupon.id,
    code: coupon.code,
    type: coupon.type,
    value: coupon.type === 'fixed' ? toMajor(coupon.value, baseDecimals) : coupon.value,
    usageLimit: coupon.usageLimit,
    perCustomerLimit: coupon.perCustomerLimit,
    minSubtotal: coupon.minSubtotal === null ? null : toMajor(coupon.minSubtotal, baseDecimals),
    startsAt: iso(coupon.startsAt),
    endsAt: iso(coupon.endsAt),
    enabled: coupon.enabled,
    timesUsed: coupon.timesUsed,
  };
}

/** `2026-10-31` for a midnight (the usual case, a date typed without a time), else `2026-10-31 18:00 UTC`. */
export function formatMoment(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}
