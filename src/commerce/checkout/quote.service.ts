import { Injectable } from '@nestjs/common';
import { SettingsService } from '../../config/settings.service';
import { CartLine } from '../carts/cart-line.entity';
import { CartPricingService, PricedCart, PricingExtras } from '../carts/cart-pricing.service';
import { Cart, destination } from '../carts/cart.entity';
import { CartService } from '../carts/cart.service';
import { PaymentMethodRegistry, RegisteredPaymentMethod } from '../payments/payment-method.registry';
import { ShippingMethodRegistry } from '../shipping/shipping-method.registry';
import { ShippingContext, ShippingQuote } from '../shipping/shipping-quote';
import { CurrencyService } from '../stores/currency.service';
import { StoreService } from '../stores/store.service';
import { ReverseChargeProof, VatValidationService } from '../tax/vat-validation.service';

/** A cart as checkout sees it: priced with the methods chosen, where those can still be used. */
export interface Quote {
  cart: Cart;
  lines: CartLine[];
  priced: PricedCart;
  /** Where the order ships: the shipping address's country, else the billing address's. */
  country: string | null;
  /** The chosen shipping method, while it can ship this cart to `country`. */
  shipping: ShippingQuote | null;
  /** The chosen payment method, while it may pay for this checkout. */
  payment: RegisteredPaymentMethod | null;
  /** Gift cards pay the whole order: no payment method is needed, and none is charged for. */
  paidByGiftCards: boolean;
  /** The EU VAT service's confirmation that made the sale reverse-charged; null when VAT is charged. */
  reverseChargeProof: ReverseChargeProof | null;
}

/** Prices a cart for checkout: its lines, the shipping rate, the payment fee and VAT. */
@Injectable()
export class QuoteService {
  constructor(
    private readonly carts: CartService,
    private readonly pricing: CartPricingService,
    private readonly currencies: CurrencyService,
    private readonly shipping: ShippingMethodRegistry,
    private readonly payments: PaymentMethodRegistry,
    private readonly settings: SettingsService,
    private readonly stores: StoreService,
    private readonly vat: VatValidationService,
  ) {}

  async quote(cart: Cart): Promise<Quote> {
    const lines = await this.carts.lines(cart.id);
    const pricedLines = await this.pricing.priceLines(cart, lines);
    const country = destination(cart);
    const context: ShippingContext | null = country
      ? { country, subtotalBase: pricedLines.subtotalBase, weightGrams: pricedLines.weightGrams }
      : null;
    const shipping = cart.shippingMethod && context ? await this.shipping.quote(cart.shippingMethod, context) : null;
    const payment = cart.paymentMethod
      ? (this.payments
          .available({ country, shipping, subtotalBase: pricedLines.subtotalBase })
          .find((method) => method.code === cart.paymentMethod) ?? null)
      : null;
    const store = await this.stores.byId(cart.storeId);
    const reverseChargeProof = await this.vat.reverseCharge(cart.vatId, store.country);
    const extras: PricingExtras = {
      shipping: shipping ? await this.currencies.fromBase(shipping.price, pricedLines.currency) : 0,
      reverseCharge: reverseChargeProof !== null,
    };
    const quoted = { cart, lines, country, shipping, reverseChargeProof };
    const withoutPayment = this.pricing.total(pricedLines, extras);
    if (withoutPayment.giftCardTotal > 0 && withoutPayment.amountDue === 0) {
      return { ...quoted, priced: withoutPayment, payment: null, paidByGiftCards: true };
    }
    const priced = this.pricing.total(pricedLines, {
      ...extras,
      paymentFee: payment ? await this.currencies.fromBase(payment.price, pricedLines.currency) : 0,
    });
    return { ...quoted, priced, payment, paidByGiftCards: false };
  }

  /** Shipping quotes for a destination, priced for this cart (or an empty one). */
  async shippingQuotes(country: string, cart: Cart | null): Promise<ShippingQuote[]> {
    if (!this.sellsTo(country)) return [];
    const priced = await this.pricing.priceLines(cart ?? emptyCart(), cart ? await this.carts.lines(cart.id) : []);
    return this.shipping.quotes({ country, subtotalBase: priced.subtotalBase, weightGrams: priced.weightGrams });
  }

  /** Payment methods that may pay for this cart (or an empty one) shipped to `country` with `shipping`. */
  async paymentMethods(
    country: string,
    shipping: ShippingQuote | null,
    cart: Cart | null,
  ): Promise<RegisteredPaymentMethod[]> {
    const priced = await this.pricing.priceLines(cart ?? emptyCart(), cart ? await this.carts.lines(cart.id) : []);
    return this.payments.available({ country, shipping, subtotalBase: priced.subtotalBase });
  }

  /** Whether the shop sells to this country (`salesAllowedCountries`; an empty list allows every country). */
  sellsTo(country: string): boolean {
    const allowed = this.settings.get('salesAllowedCountries');
    return allowed.length === 0 || allowed.includes(country);
  }
}

function emptyCart(): Cart {
  return { currency: '', couponCode: null, email: null } as Cart;
}
