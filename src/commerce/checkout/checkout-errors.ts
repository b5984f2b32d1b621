import { errorCatalogue } from '../../common/errors/error-catalogue';

/** Also the message of the save's `validation_failed` answer when the point is missing. */
export const pickupPointMessage = (p: { method: string }) => `Choose a pickup point for ${p.method}.`;

export const checkoutErrors = errorCatalogue({
  address_required: { status: 409, message: 'Enter your address first, so we can offer shipping methods.' },
  checkout_incomplete: { status: 409, message: 'Fill in your details and choose shipping and payment first.' },
  country_not_served: {
    status: 409,
    message: (p: { country: string }) => `We do not deliver to ${p.country}. Choose another address.`,
  },
  /**
   * Saving a method for a country it does not go to names the country; at the order, a choice that was fine when
   * saved asks for another one instead (both wordings are what the HTTP tests hold).
   */
  shipping_method_unavailable: {
    status: 409,
    message: (p: { country: string | null }) =>
      p.country
        ? `This shipping method does not deliver this order to ${p.country}.`
        : 'The shipping method you chose cannot deliver this order. Choose another one.',
  },
  pickup_point_required: { status: 409, message: pickupPointMessage },
  payment_method_unavailable: {
    status: 409,
    message: (p: { method: string; shippingMethod: string | null }) =>
      `${p.method} is not available${p.shippingMethod ? ` with ${p.shippingMethod}` : ''}. Choose another payment method.`,
  },
  /** Refilling the cart from an order: only a canceled order's items go back into the cart. */
  order_not_canceled: {
    status: 409,
    message: 'This order is still open, so its items stay with it. Pay it or view it instead.',
  },
  order_items_unavailable: {
    status: 409,
    message: 'None of the items of this order can be bought now.',
  },
  terms_changed: {
    status: 409,
    message:
      'The terms and conditions changed while you were checking out. Read the new version and place the order again.',
  },
  cart_changed: {
    status: 409,
    message: 'Your cart changed while you were checking out. Review it and place the order again.',
  },
  /** Carries the new `total` in the details. */
  price_changed: {
    status: 409,
    message: 'Prices changed since you saw your total. Review your order and place it again.',
  },
});
