import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { CartPricingService, CartSummary } from '../../commerce/carts/cart-pricing.service';
import { Address, Cart } from '../../commerce/carts/cart.entity';
import { CartService } from '../../commerce/carts/cart.service';
import { SessionCarts } from '../../commerce/carts/session-carts.service';
import { CheckoutRules } from '../../commerce/checkout/checkout-rules';
import { cartErrors } from '../../commerce/carts/carts-errors';
import { QuoteService } from '../../commerce/checkout/quote.service';
import { AddressBookService, addressNotFound, asAddress } from '../../commerce/customers/address-book.service';
import { CustomerAddress } from '../../commerce/customers/customer-address.entity';
import { Customer } from '../../commerce/customers/customer.entity';
import { SessionCustomers } from '../../commerce/customers/session-customers.service';
import { DeliverySlotsService } from '../../commerce/delivery/delivery-slots.service';
import { parseShippingMethodId } from '../../commerce/shipping/shipping-quote';
import { Currency } from '../../commerce/stores/currency.entity';
import { CurrencyService } from '../../commerce/stores/currency.service';
import { VatValidationService } from '../../commerce/tax/vat-validation.service';
import { COUNTRY_CODES, CountryOption, countryName, countryOptions } from '../../common/countries';
import { AppError } from '../../common/errors/app-error';
import { SettingsService } from '../../config/settings.service';
import { SaveCheckoutDto, SavePaymentMethodDto, SaveShippingMethodDto } from './dto/checkout.dto';

/** Address-book entries chosen in the checkout page's picker, by id. */
export interface PickedAddresses {
  billing?: number;
  shipping?: number;
}

/** Who checks out and the details a checkout starts from. */
export interface CheckoutDetails {
  /** The logged-in customer; null for a guest. */
  customer: Customer | null;
  /** The customer's address book (none for a guest). */
  savedAddresses: CustomerAddress[];
  email: string | null;
  billingAddress: Address | null;
  /** Null: shipped to the billing address. */
  shippingAddress: Address | null;
}

/** The session's quote: what checkout saves on the cart, each choice checked against what is on offer. */
@Injectable()
export class CheckoutService {
  constructor(
    private readonly carts: CartService,
    private readonly sessionCarts: SessionCarts,
    private readonly quotes: QuoteService,
    private readonly pricing: CartPricingService,
    private readonly currencies: CurrencyService,
    private readonly rules: CheckoutRules,
    private readonly slots: DeliverySlotsService,
    private readonly settings: SettingsService,
    private readonly vat: VatValidationService,
    private readonly customers: SessionCustomers,
    private readonly addressBook: AddressBookService,
  ) {}

  /** The session's open cart, or null. */
  cart(req: Request): Promise<Cart | null> {
    return this.sessionCarts.open(req.session);
  }

  async requireCart(req: Request): Promise<Cart> {
    const cart = await this.cart(req);
    if (!cart) throw cartErrors.cart_empty();
    return cart;
  }

  /**
   * The details a checkout starts from (docs/http-contract.md get-init-values): what the cart holds, else a logged-in
   * customer's e-mail and default addresses. `picked` entries of the customer's address book replace either
   * address; an id that is not in their book (a guest has none) is a 404, never another customer's address.
   */
  async details(req: Request, cart: Cart | null, picked: PickedAddresses = {}): Promise<CheckoutDetails> {
    const customer = await this.customers.current(req.session);
    const book = customer ? await this.addressBook.list(customer.id) : [];
    const entry = (id: number): Address => {
      const found = book.find((address) => address.id === id);
      if (!found) throw addressNotFound();
      return asAddress(found);
    };
    const defaultBilling = book.find((address) => address.isDefaultBilling);
    const defaultShipping = book.find((address) => address.isDefaultShipping);
    // The book's defaults stand in only until the shopper saves details of their own.
    const billing = cart?.billingAddress ?? (defaultBilling ? asAddress(defaultBilling) : null);
    const shipping = cart?.billingAddress
      ? cart.shippingAddress
      : defaultShipping && defaultShipping !== defaultBilling
        ? asAddress(defaultShipping)
        : null;
    return {
      customer,
      savedAddresses: book,
      email: cart?.email ?? customer?.email ?? null,
      billingAddress: picked.billing ? entry(picked.billing) : billing,
      shippingAddress: picked.shipping ? entry(picked.shipping) : shipping,
    };
  }

  /** Prices are shown in the cart's currency, else the one the shopper chose. */
  async currency(req: Request, cart: Cart | null): Promise<Currency> {
    return this.currencies.chosenOrBase(cart?.currency ?? req.session.currency);
  }

  /**
   * The countries a shopper may pick in an address: those the shop sells to (`salesAllowedCountries`, else all),
   * named in `locale` (the page language; JSON answers stay English).
   */
  countries(locale?: string): CountryOption[] {
    const allowed = this.settings.get('salesAllowedCountries');
    return countryOptions(locale, allowed.length ? allowed : COUNTRY_CODES);
  }

  async summary(cartId: number): Promise<CartSummary> {
    const cart = (await this.carts.findOpen(cartId))!;
    return this.pricing.summarize((await this.quotes.quote(cart)).priced);
  }

  async save(cart: Cart, body: SaveCheckoutDto): Promise<void> {
    const shippingAddress = body.sameAsBilling || !body.shippingAddress ? null : { ...body.shippingAddress };
    this.rules.checkAddressCountry(
      (shippingAddress ?? body.billingAddress).country,
      shippingAddress ? 'shippingAddress.country' : 'billingAddress.country',
    );
    await this.carts.saveQuote(cart.id, {
      email: body.email,
      billingAddress: { ...body.billingAddress },
      shippingAddress,
      notes: body.notes ?? null,
      vatId: await this.vatId(body.vatId, body.billingAddress.country),
      companyName: body.companyName ?? null,
    });
  }

  async saveShippingMethod(cart: Cart, body: SaveShippingMethodDto): Promise<void> {
    if (!parseShippingMethodId(body.shippingMethod)) {
      throw AppError.invalid({ shippingMethod: ['must be a shipping method identifier type:handle:id'] });
    }
    const { offer, pickupPoint } = await this.rules.shippingChoice(cart, body.shippingMethod, body.pickupPoint);
    const slot = await this.deliverySlot(body);
    await this.carts.saveQuote(cart.id, { shippingMethod: offer.value, pickupPoint, ...slot });
  }

  async savePaymentMethod(cart: Cart, body: SavePaymentMethodDto): Promise<void> {
    const method = await this.rules.paymentChoice(cart, body.paymentMethod);
    await this.carts.saveQuote(cart.id, { paymentMethod: method.code });
  }

  /**
   * The VAT id as stored: normalised with its country prefix (what reverse charge reads). While VAT checks
   * are on, a malformed id or one of another country than the billing address is refused here; whether it
   * is registered is asked (and cached) when the cart is priced.
   */
  private async vatId(raw: string | undefined, billingCountry: string): Promise<string | null> {
    if (!raw) return null;
    const checked = await this.vat.validate(raw, billingCountry, { existence: false });
    const checking = this.settings.isOn('salesValidateVAT') && this.settings.get('salesValidateVATType') !== 'none';
    if (checking && (checked.status === 'invalid_format' || checked.status === 'country_mismatch')) {
      throw AppError.invalid(
        {
          vatId: [
            checked.status === 'invalid_format'
              ? 'is not a valid VAT ID'
              : `is not a VAT ID of ${countryName(billingCountry)}`,
          ],
        },
        'Check your VAT ID.',
      );
    }
    return checked.vatId;
  }

  private async deliverySlot(
    body: SaveShippingMethodDto,
  ): Promise<{ deliverySlotId: number | null; deliveryDate: string | null }> {
    if (body.deliverySlotId === undefined && body.deliveryDate === undefined)
      return { deliverySlotId: null, deliveryDate: null };
    if (!this.settings.isOn('salesDeliveryTimeEnabled')) {
      throw AppError.invalid(
        { deliverySlotId: ['delivery slots are not offered'] },
        'This shop does not offer delivery slots.',
      );
    }
    if (body.deliverySlotId === undefined || body.deliveryDate === undefined) {
      throw AppError.invalid(
        {
          [body.deliverySlotId === undefined ? 'deliverySlotId' : 'deliveryDate']: ['is required with a delivery slot'],
        },
        'Choose a delivery date and slot together.',
      );
    }
    this.slots.assertBookableDate(body.deliveryDate);
    await this.slots.requireAvailable(body.deliverySlotId, body.deliveryDate);
    return { deliverySlotId: body.deliverySlotId, deliveryDate: body.deliveryDate };
  }
}
