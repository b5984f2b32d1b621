import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { Address } from '../../commerce/carts/cart.entity';
import { PickedAddresses } from '../../commerce/checkout/checkout-choices.service';
import { PlaceOrderService } from '../../commerce/checkout/place-order.service';
import { QuoteService } from '../../commerce/checkout/quote.service';
import { asAddress, sameAddress } from '../../commerce/customers/address-book.service';
import { CustomerAddress } from '../../commerce/customers/customer-address.entity';
import { BOOKING_HORIZON_DAYS } from '../../commerce/delivery/delivery-slots.service';
import { shopNow } from '../../commerce/delivery/shop-calendar';
import { StoreService } from '../../commerce/stores/store.service';
import { countryName } from '../../common/countries';
import { formatMoney } from '../../common/money-format';
import { SettingsService } from '../../config/settings.service';
import { SessionCheckout } from './session-checkout.service';

/**
 * What the checkout page starts from: the session's cart with what was saved on it (else a logged-in customer's
 * details and default addresses), amounts formatted the way public/js/checkout.js formats them when they change.
 * Methods are listed by the script, per destination.
 */
@Injectable()
export class CheckoutPageService {
  constructor(
    private readonly checkout: SessionCheckout,
    private readonly quotes: QuoteService,
    private readonly stores: StoreService,
    private readonly settings: SettingsService,
    private readonly placeOrder: PlaceOrderService,
  ) {}

  /**
   * Null when the session has nothing to check out; amounts written as `locale` (the page language) writes them.
   * `picked`: address-book entries chosen in the page's picker, shown instead of the saved addresses.
   */
  async view(req: Request, locale: string, picked: PickedAddresses = {}) {
    const cart = await this.checkout.cart(req);
    if (!cart) return null;
    const { priced } = await this.quotes.quote(cart);
    if (priced.lines.length === 0) return null;
    const [store, details, terms] = await Promise.all([
      this.stores.byId(cart.storeId),
      this.checkout.details(req, cart, picked),
      this.placeOrder.termsToAccept(locale),
    ]);
    const { customer, savedAddresses, billingAddress, shippingAddress } = details;
    const money = (minor: number) => formatMoney(minor, priced.currency, locale);
    const blank: Partial<Address> = {
      country: store.country,
      firstName: customer?.firstName,
      lastName: customer?.lastName,
    };
    /** The address book as a picker's options, the entry shown in the form chosen. */
    const picker = (shown: Address | null) =>
      savedAddresses.map((entry) => ({
        id: entry.id,
        label: pickerLabel(entry, locale),
        address: JSON.stringify(asAddress(entry)),
        selected: shown !== null && sameAddress(entry, shown),
      }));
    return {
      locale,
      currency: { code: priced.currency.code, decimals: priced.currency.decimals },
      countries: this.checkout.countries(locale),
      email: details.email ?? '',
      billingAddress: billingAddress ?? blank,
      shippingAddress: shippingAddress ?? blank,
      sameAsBilling: !shippingAddress,
      /** A logged-in customer picks from their address book and may add the checkout's addresses to it. */
      addressBook: customer && { billing: picker(billingAddress), shipping: picker(shippingAddress) },
      companyName: cart.companyName ?? '',
      vatId: cart.vatId ?? '',
      notes: cart.notes ?? '',
      /** The details were saved before: the script lists the methods for them at once. */
      detailsSaved: Boolean(cart.email && cart.billingAddress),
      shippingMethod: cart.shippingMethod ?? '',
      paymentMethod: cart.paymentMethod ?? '',
      /** The VAT id is checked against the EU service as it is typed, only with `format_existence`. */
      vatCheck:
        this.settings.isOn('salesValidateVAT') && this.settings.get('salesValidateVATType') === 'format_existence',
      delivery: this.deliveryChoice(cart.deliverySlotId, cart.deliveryDate),
      /** The main characteristics of the goods, right above the order button: name, variant, quantity. */
      items: priced.lines.map((item) => ({
        name: item.name,
        options: Object.entries(item.line.configuration ?? {}).map(([code, value]) => ({ code, value })),
        qty: item.line.qty,
        total: money(item.total),
      })),
      termsCheckbox: this.settings.isOn('salesTermsCheckbox'),
      /** The version of the terms shown, posted back so the order keeps the one the shopper saw. */
      termsVersion: terms?.version ?? null,
      totals: {
        subtotal: money(priced.subtotal),
        discount: money(priced.discount),
        hasDiscount: priced.discount > 0,
        shipping: money(priced.shipping),
        paymentFee: money(priced.paymentFee),
        hasPaymentFee: priced.paymentFee > 0,
        tax: money(priced.tax),
        total: money(priced.total),
        giftCardTotal: money(priced.giftCardTotal),
        hasGiftCards: priced.giftCardTotal > 0,
        amountDue: money(priced.amountDue),
      },
    };
  }

  /** The delivery-date picker: the dates a slot can be booked on, and the slot chosen before. */
  private deliveryChoice(slotId: number | null, date: string | null) {
    if (!this.settings.isOn('salesDeliveryTimeEnabled')) return null;
    const today = shopNow(this.settings.get('salesTimezone')).date;
    return { firstDay: today, lastDay: addDays(today, BOOKING_HORIZON_DAYS), slotId: slotId ?? '', day: date ?? '' };
  }
}

/** One line naming an address-book entry, country in the page language. */
function pickerLabel(entry: CustomerAddress, locale: string): string {
  return [
    `${entry.firstName} ${entry.lastName}`,
    entry.company,
    entry.street,
    `${entry.zipCode} ${entry.city}`,
    countryName(entry.country, locale),
  ]
    .filter(Boolean)
    .join(', ');
}

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
