import { errorCatalogue } from '../../common/errors/error-catalogue';

/** `card` is the gift card's code as the shopper sees it (grouped, or as typed for an unknown one). */
export const giftCardErrors = errorCatalogue({
  gift_card_unknown: {
    status: 400,
    message: (p: { card: string }) => `Gift card "${p.card}" does not exist. Check the code and try again.`,
  },
  gift_card_disabled: {
    status: 400,
    message: (p: { card: string }) => `Gift card ${p.card} is disabled. Contact us if this is unexpected.`,
  },
  gift_card_expired: {
    status: 400,
    message: (p: { card: string; day: string }) => `Gift card ${p.card} expired on ${p.day}.`,
  },
  gift_card_empty: { status: 400, message: (p: { card: string }) => `Gift card ${p.card} has no balance left.` },
  gift_card_currency: {
    status: 400,
    message: (p: { card: string; currency: string }) =>
      `Gift card ${p.card} is in ${p.currency} and pays only for orders in ${p.currency}. ` +
      `Switch the shop to ${p.currency} to use it.`,
  },
  gift_card_limit: {
    status: 400,
    message: (p: { max: number }) => `At most ${p.max} gift cards can pay for one order.`,
  },
  gift_card_balance_changed: {
    status: 409,
    message: (p: { card: string }) =>
      `Gift card ${p.card} no longer holds what your order needs: it was used meanwhile. ` +
      'Review your cart and place the order again.',
  },
});
