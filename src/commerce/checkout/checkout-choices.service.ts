import { Injectable } from '@nestjs/common';
import { countryName } from '../../common/countries';
import { AppError } from '../../common/errors/app-error';
import { SettingsService } from '../../config/settings.service';
import { Address, Cart } from '../carts/cart.entity';
import { CartService } from '../carts/cart.service';
import { AddressBookService, addressNotFound, asAddress } from '../customers/address-book.service';
import { CustomerAddress } from '../customers/customer-address.entity';
import { Customer } from '../customers/customer.entity';
import { DeliverySlotsService } from '../delivery/delivery-slots.service';
import { parseShippingMethodId } from '../shipping/shipping-quote';
import { VatValidationService } from '../tax/vat-validation.service';
import { TransactionRunner } from '../../database/transaction-runner';
import { ConsentWording, MarketingConsents } from '../marketing/marketing-consents.service';
import { CheckoutRules } from './checkout-rules';

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

/** The shopper's details as checkout saves them on the cart. */
export interface CheckoutDetailsInput {
  email: string;
  billingAddress: Address;
  /** Null: shipped to the billing address. */
  shippingAddress: Address | null;
  notes: string | null;
  /** As the shopper typed it; stored normalised. */
  vatId: string | null;
  companyName: string | null;
  /**
   * What the shopper ticked about marketing e-mail, if anything: the consent, or the objection a customer may make
   * where the e-mail is collected (ePrivacy Art. 13(2)); recorded with the details.
   */
  marketing?: { granted: boolean; wording: ConsentWording } | null;
}

/** A shipping method as the shopper chose it, with its pickup point and delivery slot when it has them. */
export interface ShippingMethodInput {
  /** `type:handle:id`. */
  shippingMethod: string;
  pickupPoint?: Record<string, unknown>;
  deliverySlotId?: number;
  /** `YYYY-MM-DD`, with `deliverySlotId`. */
  deliveryDate?: string;
}

/**
 * What checkout keeps on the cart, each choice checked against what is on offer before it is saved (CheckoutRules
 * holds the rules place-order checks again), and the details a checkout starts from.
 */
@Injectable()
export class CheckoutChoices {
  constructor(
    private readonly carts: CartService,
    private readonly rules: CheckoutRules,
    private readonly slots: DeliverySlotsService,
    private readonly vat: VatValidationService,
    private readonly addressBook: AddressBookService,
    private readonly settings: SettingsService,
    private readonly runner: TransactionRunner,
    private readonly consents: MarketingConsents,
  ) {}

  /**
   * The details a checkout starts from: what the cart holds, else a logged-in customer's e-mail and default
   * addresses. `picked` entries of the customer's address book replace either address; an id that is not in their
   * book (a guest has none) is a 404, never another customer's address.
   */
  async startingDetails(
    cart: Cart | null,
    customer: Customer | null,
    picked: PickedAddresses = {},
  ): Promise<CheckoutDetails> {
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

  /**
   * Saves the shopper's details: the shop must deliver to the destination, and the VAT id must pass its check. A
   * marketing choice is recorded in the same transaction.
   */
  async saveDetails(cart: Cart, input: CheckoutDetailsInput): Promise<void> {
    const { shippingAddress, marketing } = input;
    this.rules.checkAddressCountry(
      (shippingAddress ?? input.billingAddress).country,
      shippingAddress ? 'shippingAddress.country' : 'billingAddress.country',
    );
    const vatId = await this.vatId(input.vatId, input.billingAddress.country);
    await this.runner.run(async (tx) => {
      await this.carts.saveQuote(cart.id, {
        email: input.email,
        billingAddress: input.billingAddress,
        shippingAddress,
        notes: input.notes,
        vatId,
        companyName: input.companyName,
      });
      if (marketing) {
        await this.consents.decide(tx.manager, {
          email: input.email,
          customerId: cart.customerId,
          source: 'checkout',
          ...marketing,
        });
      }
    });
  }

  /** Saves a shipping method on offer for the cart, with its pickup point and a bookable delivery slot. */
  async saveShippingMethod(cart: Cart, input: ShippingMethodInput): Promise<void> {
    if (!parseShippingMethodId(input.shippingMethod)) {
      throw AppError.invalid({ shippingMethod: ['must be a shipping method identifier type:handle:id'] });
    }
    const { offer, pickupPoint } = await this.rules.shippingChoice(cart, input.shippingMethod, input.pickupPoint);
    const slot = await this.deliverySlot(input);
    await this.carts.saveQuote(cart.id, { shippingMethod: offer.value, pickupPoint, ...slot });
  }

  /** Saves a payment method that may pay for the cart now. */
  async savePaymentMethod(cart: Cart, code: string): Promise<void> {
    const method = await this.rules.paymentChoice(cart, code);
    await this.carts.saveQuote(cart.id, { paymentMethod: method.code });
  }

  /**
   * The VAT id as stored: normalised with its country prefix (what reverse charge reads). While VAT checks
   * are on, a malformed id or one of another country than the billing address is refused here; whether it
   * is registered is asked (and cached) when the cart is priced.
   */
  private async vatId(raw: string | null, billingCountry: string): Promise<string | null> {
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

  /** A delivery slot comes with its date, only while the shop offers slots, and only while it can be booked. */
  private async deliverySlot(
    input: ShippingMethodInput,
  ): Promise<{ deliverySlotId: number | null; deliveryDate: string | null }> {
    if (input.deliverySlotId === undefined && input.deliveryDate === undefined)
      return { deliverySlotId: null, deliveryDate: null };
    if (!this.settings.isOn('salesDeliveryTimeEnabled')) {
      throw AppError.invalid(
        { deliverySlotId: ['delivery slots are not offered'] },
        'This shop does not offer delivery slots.',
      );
    }
    if (input.deliverySlotId === undefined || input.deliveryDate === undefined) {
      throw AppError.invalid(
        {
          [input.deliverySlotId === undefined ? 'deliverySlotId' : 'deliveryDate']: [
            'is required with a delivery slot',
          ],
        },
        'Choose a delivery date and slot together.',
      );
    }
    this.slots.assertBookableDate(input.deliveryDate);
    await this.slots.requireAvailable(input.deliverySlotId, input.deliveryDate);
    return { deliverySlotId: input.deliverySlotId, deliveryDate: input.deliveryDate };
  }
}
