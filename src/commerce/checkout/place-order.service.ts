import { Injectable } from '@nestjs/common';
import { DataSource, IsNull } from 'typeorm';
import { DomainEvents } from '../../common/domain-events';
import { AppError } from '../../common/errors/app-error';
import { randomCode, randomHex32 } from '../../common/ids';
import { toMajor, toMinor } from '../../common/money';
import { isUniqueViolation } from '../../database/errors';
import { TransactionRunner, Tx } from '../../database/transaction-runner';
import { insertRows } from '../../database/upsert';
import { SettingsService } from '../../config/settings.service';
import { FALLBACK_LANGUAGE } from '../../web/i18n/translations';
import { Cart } from '../carts/cart.entity';
import { ContentPage } from '../content/content-page.entity';
import { ContentPages } from '../content/content-pages.service';
import { Coupon } from '../coupons/coupon.entity';
import { CouponService } from '../coupons/coupon.service';
import { AddressBookService } from '../customers/address-book.service';
import { DeliverySlot } from '../delivery/delivery-slot.entity';
import { DeliverySlotsService } from '../delivery/delivery-slots.service';
import { ORDER_PLACED } from '../events';
import { GIFT_CARD_PAYMENT } from '../gift-cards/gift-card-payment.gateway';
import { GiftCardRedemption } from '../gift-cards/gift-card-redemption.service';
import { OrderHistory } from '../orders/order-history.entity';
import { OrderLine } from '../orders/order-line.entity';
import { orderLineOf } from '../orders/priced-order-line';
import { amountDue, Order } from '../orders/order.entity';
import { PaymentTransaction } from '../payments/payment-transaction.entity';
import { StockService } from '../products/stock.service';
import { CheckoutRules } from './checkout-rules';
import { cartErrors } from '../carts/carts-errors';
import { Quote, QuoteService } from './quote.service';
import { checkoutErrors } from './checkout-errors';
import { couponErrors } from '../coupons/coupons-errors';

export interface PlaceOrderInput {
  /**
   * The session's cart, as SessionCarts lets the session use it; a request without one can still find its order by
   * idempotency key.
   */
  cartId: number | undefined;
  /** The `Idempotency-Key` header: the same key always answers with the same order. */
  idempotencyKey?: string;
  customerId?: number | null;
  /** The total the shopper saw, in major units: a different total now is a 409, not a surprise. */
  expectedTotal?: number;
  /** Add the order's addresses to the customer's address book (with the order; ignored for a guest). */
  saveAddresses?: boolean;
  /** The language of the shopper's pages, kept for the mails that follow the order. */
  language?: string;
  /** The shopper ticked "I accept the terms and conditions" (required while `salesTermsCheckbox` is on). */
  acceptedTerms?: boolean;
  /** The version of the terms the checkout page showed (`termsToAccept`); another one current now is a 409. */
  termsVersion?: number;
}

/** The terms an order was placed under: the version of the terms page the shopper accepted, and when. */
interface TermsAcceptance {
  termsVersion: number | null;
  termsLanguage: string | null;
  termsAcceptedAt: number | null;
}

export interface PlacedOrder {
  order: Order;
  /** False when this cart or key had been ordered already and the earlier order is returned. */
  created: boolean;
}

/** The cart moved on between pricing and ordering; placing again answers with its order if it was one. */
class CartMovedOn extends Error {}

/**
 * Turns a cart into an order (docs/architecture.md). The cart is priced outside the transaction; the transaction
 * then only writes, each write guarded so that the invariants hold under any concurrency: the cart converts
 * once and only in the version that was priced, stock and slot capacity never go below zero, coupon limits
 * hold. Placing the same cart (or key) again returns the first order.
 */
@Injectable()
export class PlaceOrderService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly quotes: QuoteService,
    private readonly rules: CheckoutRules,
    private readonly stock: StockService,
    private readonly coupons: CouponService,
    private readonly slots: DeliverySlotsService,
    private readonly giftCards: GiftCardRedemption,
    private readonly addressBook: AddressBookService,
    private readonly events: DomainEvents,
    private readonly settings: SettingsService,
    private readonly content: ContentPages,
  ) {}

  async place(input: PlaceOrderInput): Promise<PlacedOrder> {
    const earlier = await this.existing(input);
    if (earlier) return { order: earlier, created: false };
    const cart = input.cartId ? await this.dataSource.getRepository(Cart).findOneBy({ id: input.cartId }) : null;
    if (!cart) throw cartErrors.cart_empty();
    const quote = await this.quotes.quote(cart);
    const slot = await this.validate(quote, input.expectedTotal);
    const terms = await this.termsAcceptance(input);
    try {
      const order = await this.runner.run((tx) => this.write(tx, quote, slot, terms, input));
      return { order, created: true };
    } catch (error) {
      if (!(error instanceof CartMovedOn) && !isUniqueViolation(error)) throw error;
      const order = await this.existing(input);
      if (order) return { order, created: false };
      if (error instanceof CartMovedOn) {
        throw checkoutErrors.cart_changed();
      }
      throw error;
    }
  }

  private async existing({ idempotencyKey, cartId }: PlaceOrderInput): Promise<Order | null> {
    const orders = this.dataSource.getRepository(Order);
    return (
      (idempotencyKey && (await orders.findOneBy({ idempotencyKey }))) || (cartId ? orders.findOneBy({ cartId }) : null)
    );
  }

  /** Everything a shopper can still fix, checked before the transaction; answers with what to fix. */
  private async validate(quote: Quote, expectedTotal: number | undefined): Promise<DeliverySlot | null> {
    const { cart, priced } = quote;
    if (priced.lines.length === 0) throw cartErrors.cart_empty();
    this.rules.checkOrderable(quote);
    if (cart.couponCode && priced.couponError) {
      throw AppError.conflict(priced.couponErrorCode ?? 'coupon_invalid', priced.couponError);
    }
    if (priced.giftCardError) {
      throw AppError.conflict(priced.giftCardErrorCode ?? 'gift_card_invalid', `${priced.giftCardError} Remove it.`);
    }
    if (expectedTotal !== undefined && toMinor(expectedTotal, priced.currency.decimals) !== priced.total) {
      throw checkoutErrors.price_changed({ details: { total: toMajor(priced.total, priced.currency.decimals) } });
    }
    return cart.deliverySlotId && cart.deliveryDate
      ? this.slots.requireAvailable(cart.deliverySlotId, cart.deliveryDate)
      : null;
  }

  /**
   * The terms page a checkout in `language` asks the shopper to accept (the default language's when `language` has
   * none); null while `salesTermsCheckbox` is off or there is no terms page.
   */
  async termsToAccept(language: string): Promise<ContentPage | null> {
    return this.settings.isOn('salesTermsCheckbox') ? this.content.current('terms', language) : null;
  }

  /**
   * While `salesTermsCheckbox` is on the shopper must tick the box (a 400 naming `acceptTerms` otherwise), and the
   * terms they were shown must still be current: staff may publish a new version while the page is open, and the
   * order must keep the version the shopper saw (a 409 `terms_changed` otherwise, and the page shows the new one).
   * The order keeps that version, its language and the time.
   */
  private async termsAcceptance(input: PlaceOrderInput): Promise<TermsAcceptance> {
    if (!this.settings.isOn('salesTermsCheckbox'))
      return { termsVersion: null, termsLanguage: null, termsAcceptedAt: null };
    if (input.acceptedTerms !== true) {
      throw AppError.invalid(
        { acceptTerms: ['must be ticked: accept the terms and conditions to order'] },
        'Please accept the terms and conditions to place your order.',
      );
    }
    const terms = await this.termsToAccept(input.language ?? FALLBACK_LANGUAGE);
    if (terms && input.termsVersion !== terms.version) {
      throw checkoutErrors.terms_changed({ details: { termsVersion: terms.version } });
    }
    return {
      termsVersion: terms?.version ?? null,
      termsLanguage: terms?.language ?? null,
      termsAcceptedAt: Date.now(),
    };
  }

  private async write(
    tx: Tx,
    quote: Quote,
    slot: DeliverySlot | null,
    terms: TermsAcceptance,
    input: PlaceOrderInput,
  ): Promise<Order> {
    const { cart, priced, shipping } = quote;
    // Gift cards that pay the whole order settle it through their own (unlisted) payment method.
    const payment = quote.paidByGiftCards ? GIFT_CARD_PAYMENT : quote.payment!;
    const converted = await tx.manager.update(
      Cart,
      { id: cart.id, orderedAt: IsNull(), version: cart.version },
      { orderedAt: Date.now() },
    );
    if (!converted.affected) throw new CartMovedOn();
    await this.stock.take(
      tx,
      priced.lines.map(({ line, name }) => ({
        productId: line.productId,
        variantId: line.variantId,
        qty: line.qty,
        name,
      })),
    );
    if (slot) await this.slots.take(tx, slot, cart.deliveryDate!);

    const order = await tx.manager.save(
      tx.manager.create(Order, {
        number: randomHex32(),
        reference: await this.freshReference(tx),
        storeId: cart.storeId,
        cartId: cart.id,
        idempotencyKey: input.idempotencyKey ?? null,
        customerId: input.customerId ?? cart.customerId,
        language: input.language ?? null,
        email: cart.email!,
        status: 'pending_payment',
        currency: priced.currency.code,
        subtotal: priced.subtotal,
        discount: priced.discount,
        shippingTotal: priced.shipping,
        paymentFee: priced.paymentFee,
        tax: priced.tax,
        total: priced.total,
        giftCardTotal: priced.giftCardTotal,
        weightGrams: priced.weightGrams,
        billingAddress: cart.billingAddress!,
        shippingAddress: cart.shippingAddress ?? cart.billingAddress,
        shippingMethod: shipping!.value,
        shippingName: shipping!.method.name,
        paymentMethod: payment.code,
        paymentName: payment.name,
        pickupPoint: shipping!.pickupPoints ? cart.pickupPoint : null,
        couponCode: priced.discount > 0 ? priced.couponCode : null,
        notes: cart.notes,
        vatId: cart.vatId,
        companyName: cart.companyName,
        reverseCharge: priced.reverseCharge,
        vatCountry: priced.vatCountry,
        shippingVatRate: priced.shippingVatRate,
        vatRows: priced.vatRows,
        vatConsultationNumber: quote.reverseChargeProof?.consultationNumber ?? null,
        vatCheckedAt: quote.reverseChargeProof?.checkedAt ?? null,
        deliverySlotId: slot?.id ?? null,
        deliveryDate: slot ? cart.deliveryDate : null,
        deliverySlotLabel: slot?.label ?? null,
        ...terms,
      }),
    );
    await insertRows(
      tx.manager,
      OrderLine,
      priced.lines.map((line) => orderLineOf(order.id, line, priced.vatCountry)),
    );
    await insertRows(tx.manager, OrderHistory, {
      orderId: order.id,
      fromStatus: null,
      toStatus: 'pending_payment',
      actor: 'customer',
      note: 'Order placed',
    });
    await insertRows(tx.manager, PaymentTransaction, {
      orderId: order.id,
      gateway: payment.gateway,
      code: payment.code,
      reference: `${order.number}-1`,
      amount: amountDue(order),
      currency: order.currency,
      status: 'pending',
      extra: {},
    });
    if (order.couponCode) {
      const coupon = await tx.manager.findOneBy(Coupon, { code: order.couponCode });
      if (!coupon) throw couponErrors.coupon_invalid();
      await this.coupons.recordUse(tx, coupon.id, order.id, order.email);
    }
    await this.giftCards.spend(tx, order, priced.giftCards);
    if (input.saveAddresses && input.customerId) {
      await this.addressBook.addFromCheckout(tx.manager, input.customerId, order.billingAddress, cart.shippingAddress);
    }
    tx.afterCommit(() => this.events.emit(ORDER_PLACED, { orderId: order.id, orderNumber: order.number }));
    return order;
  }

  /** A short reference people can read out; drawn again in the (one in 10^11) case it is taken. */
  private async freshReference(tx: Tx): Promise<string> {
    for (;;) {
      const reference = randomCode(8);
      if (!(await tx.manager.existsBy(Order, { reference }))) return reference;
    }
  }
}
