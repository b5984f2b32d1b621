import { Injectable } from '@nestjs/common';
import { countryName } from '../../common/countries';
import { AppError, FieldErrors } from '../../common/errors/app-error';
import { Cart } from '../carts/cart.entity';
import { PaymentMethodRegistry, RegisteredPaymentMethod } from '../payments/payment-method.registry';
import { ShippingQuote } from '../shipping/shipping-quote';
import { destination } from '../carts/cart.entity';
import { Quote, QuoteService } from './quote.service';
import { checkoutErrors, pickupPointMessage } from './checkout-errors';

/** Pickup-point data from a carrier widget is kept on the order: small, by design. */
const MAX_PICKUP_POINT_JSON = 4000;

/** A shipping method as the shopper chose it, checked: the offer and the pickup point to keep with it. */
export interface ShippingChoice {
  offer: ShippingQuote;
  pickupPoint: Record<string, unknown> | null;
}

/**
 * The rules a checkout must pass (delivery country, shipping, pickup point, payment), each written once: saving
 * a choice checks that choice, place-order checks them all again over the Quote, since settings, methods and
 * the cart may have changed in between. A broken rule is an AppError with a stable code: a 400 naming the
 * field while the shopper is filling it in, a 409 saying what to choose again at place-order.
 */
@Injectable()
export class CheckoutRules {
  constructor(
    private readonly quotes: QuoteService,
    private readonly payments: PaymentMethodRegistry,
  ) {}

  /** Delivery country, as an address is saved: the shop must sell there; else a 400 on `field`. */
  checkAddressCountry(country: string, field: string): void {
    if (this.quotes.sellsTo(country)) return;
    throw AppError.invalid(
      { [field]: ['is a country we do not deliver to'] },
      `We do not deliver to ${countryName(country)}.`,
    );
  }

  /**
   * Shipping eligibility and the pickup point, as a method is saved: it must be one of the offers for the cart's
   * destination (so the address comes first), and a pickup-point method needs a point of a sane size.
   */
  async shippingChoice(
    cart: Cart,
    methodId: string,
    pickupPoint: Record<string, unknown> | undefined,
  ): Promise<ShippingChoice> {
    const country = destination(cart);
    if (!country) {
      throw checkoutErrors.address_required();
    }
    const offer = (await this.quotes.shippingQuotes(country, cart)).find((candidate) => candidate.value === methodId);
    if (!offer) {
      throw checkoutErrors.shipping_method_unavailable(
        { country: countryName(country) },
        { fields: { shippingMethod: ['is not available for this order'] } },
      );
    }
    if (!offer.pickupPoints) return { offer, pickupPoint: null };
    if (lacksPickupPoint(offer, pickupPoint)) {
      throw AppError.invalid({ pickupPoint: ['is required'] }, pickupPointMessage({ method: offer.method.name }));
    }
    if (JSON.stringify(pickupPoint).length > MAX_PICKUP_POINT_JSON) {
      throw AppError.invalid({ pickupPoint: [`must be at most ${MAX_PICKUP_POINT_JSON} characters as JSON`] });
    }
    return { offer, pickupPoint: pickupPoint! };
  }

  /** Payment eligibility, as a method is saved: one of the shop's (else a 400) that may pay for this cart now. */
  async paymentChoice(cart: Cart, code: string): Promise<RegisteredPaymentMethod> {
    const method = this.payments.method(code);
    if (!method) throw AppError.invalid({ paymentMethod: ['is not a payment method of this shop'] });
    const { country, shipping, priced } = await this.quotes.quote(cart);
    const available = this.payments.available({ country, shipping, subtotalBase: priced.subtotalBase });
    if (!available.some((candidate) => candidate.code === method.code)) {
      throw paymentUnavailable(method.name, shipping);
    }
    return method;
  }

  /**
   * Every rule again before place-order writes: the details and choices are all there, the shop still sells to
   * the destination, the shipping method still delivers there (with its pickup point), and the payment method
   * may still pay (QuoteService keeps a chosen method in the quote only while it may).
   */
  checkOrderable(quote: Quote): void {
    const { cart, shipping, payment, country, paidByGiftCards } = quote;
    const missing: FieldErrors = {};
    if (!cart.email) missing.email = ['is required'];
    if (!cart.billingAddress) missing.billingAddress = ['is required'];
    if (!cart.shippingMethod) missing.shippingMethod = ['choose a shipping method'];
    if (!cart.paymentMethod && !paidByGiftCards) missing.paymentMethod = ['choose a payment method'];
    if (Object.keys(missing).length > 0) {
      throw checkoutErrors.checkout_incomplete({ fields: missing });
    }
    if (!country || !this.quotes.sellsTo(country)) {
      throw checkoutErrors.country_not_served({ country: countryName(country ?? '') });
    }
    if (!shipping) {
      // Worded apart from the save's answer above: the choice was fine when saved, and the shopper is asked for
      // another one rather than told where the method does not go.
      throw checkoutErrors.shipping_method_unavailable(
        { country: null },
        { fields: (message) => ({ shippingMethod: [message] }) },
      );
    }
    if (lacksPickupPoint(shipping, cart.pickupPoint)) {
      throw checkoutErrors.pickup_point_required(
        { method: shipping.method.name },
        { fields: (message) => ({ pickupPoint: [message] }) },
      );
    }
    if (!payment && !paidByGiftCards) {
      // The method may have been switched off since it was saved: its gateway still names it.
      throw paymentUnavailable(
        this.payments.describe(cart.paymentMethod!)?.name ?? 'The payment method you chose',
        shipping,
      );
    }
  }
}

/** A pickup-point method needs a point; an empty object from a widget counts as none. */
function lacksPickupPoint(shipping: ShippingQuote, point: Record<string, unknown> | null | undefined): boolean {
  return Boolean(shipping.pickupPoints) && (!point || Object.keys(point).length === 0);
}

function paymentUnavailable(methodName: string, shipping: ShippingQuote | null): AppError {
  return checkoutErrors.payment_method_unavailable(
    { method: methodName, shippingMethod: shipping?.method.name ?? null },
    { fields: { paymentMethod: ['is not available for this order'] } },
  );
}
