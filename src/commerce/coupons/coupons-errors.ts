import { errorCatalogue } from '../../common/errors/error-catalogue';

export const couponErrors = errorCatalogue({
  /** `code` is what the shopper typed; null when the coupon row went away between pricing and the order. */
  coupon_unknown: {
    status: 400,
    message: (p: { code: string | null }) =>
      p.code === null
        ? 'This coupon no longer exists. Remove it from your cart.'
        : `Coupon code "${p.code}" does not exist.`,
  },
  coupon_not_started: { status: 400, message: (p: { from: string }) => `This code can be used from ${p.from}.` },
  coupon_expired: { status: 400, message: (p: { on: string }) => `This code expired on ${p.on}.` },
  coupon_min_subtotal: {
    status: 400,
    message: (p: { missing: string; minimum: string }) =>
      `Add ${p.missing} more to your cart to use this code (it needs a subtotal of ${p.minimum}).`,
  },
  coupon_used_up: { status: 409, message: 'This code has been used up.' },
  coupon_customer_limit: {
    status: 409,
    message: (p: { limit: number }) =>
      `This code can be used ${p.limit === 1 ? 'once' : `${p.limit} times`} per customer, and you have used it already.`,
  },
  coupon_invalid: { status: 409, message: 'This coupon no longer exists. Remove it from your cart.' },
  coupon_exists: {
    status: 409,
    message: (p: { code: string }) => `A coupon ${p.code} already exists. Choose another code.`,
  },
});
