import { Column, Entity, Index } from 'typeorm';
import { BaseRow, EpochMsColumn } from '../../database/base.entity';
import { Address } from '../carts/cart.entity';
import { OrderStatus } from './order-status.machine';

/** One rate of an order's VAT: the rate (hundredths of a percent), the net amount and the VAT (minor units). */
export interface OrderVatRow {
  rate: number;
  net: number;
  vat: number;
}

@Entity('orders')
@Index(['status', 'dateCreated'])
@Index(['customerId', 'dateCreated'])
export class Order extends BaseRow {
  /** Public order number: 32 random hex chars, the only key a guest needs (docs/architecture.md). */
  @Column({ type: 'varchar', length: 32, unique: true })
  number: string;

  /** Short reference for people: on the success page, e-mails and the phone. */
  @Column({ type: 'varchar', length: 16, unique: true })
  reference: string;

  @Column({ type: 'integer' })
  storeId: number;

  /** Unique: a cart converts into at most one order, enforced by the database. */
  @Column({ type: 'integer', unique: true })
  cartId: number;

  @Column({ type: 'varchar', length: 100, unique: true, nullable: true })
  idempotencyKey: string | null;

  @Column({ type: 'integer', nullable: true })
  customerId: number | null;

  @Column({ type: 'varchar', length: 255 })
  email: string;

  @Column({ type: 'varchar', length: 32 })
  status: OrderStatus;

  @Column({ type: 'varchar', length: 3 })
  currency: string;

  /** Amounts in minor units of `currency`. */
  @Column({ type: 'integer' })
  subtotal: number;

  @Column({ type: 'integer', default: 0 })
  discount: number;

  @Column({ type: 'integer', default: 0 })
  shippingTotal: number;

  /** Surcharge of the payment method (e.g. cash on delivery). */
  @Column({ type: 'integer', default: 0 })
  paymentFee: number;

  @Column({ type: 'integer', default: 0 })
  tax: number;

  @Column({ type: 'integer' })
  total: number;

  /** The part of `total` paid with gift cards at place-order; the rest is what payment collects. */
  @Column({ type: 'integer', default: 0 })
  giftCardTotal: number;

  @Column({ type: 'integer', default: 0 })
  weightGrams: number;

  @Column({ type: 'simple-json' })
  billingAddress: Address;

  @Column({ type: 'simple-json', nullable: true })
  shippingAddress: Address | null;

  /** `type:handle:id` of the shipping method, and its name as the shopper saw it. */
  @Column({ type: 'varchar', length: 191 })
  shippingMethod: string;

  @Column({ type: 'varchar', length: 191, default: '' })
  shippingName: string;

  /** Dispatch code of the payment method (`cod`, `bankpay-qr`, …), and its name as the shopper saw it. */
  @Column({ type: 'varchar', length: 64 })
  paymentMethod: string;

  @Column({ type: 'varchar', length: 191, default: '' })
  paymentName: string;

  @Column({ type: 'simple-json', nullable: true })
  pickupPoint: Record<string, unknown> | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  couponCode: string | null;

  @Column({ type: 'text', nullable: true })
  notes: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  vatId: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  companyName: string | null;

  /** A valid VAT id of another EU country: no VAT charged, the buyer accounts for it. */
  @Column({ type: 'boolean', default: false })
  reverseCharge: boolean;

  /**
   * The EU VAT service's proof of the check that allowed reverse charge, kept for a tax audit: its consultation
   * number (given when the shop's own VAT id is set as the requester) and when it checked.
   */
  @Column({ type: 'varchar', length: 64, nullable: true })
  vatConsultationNumber: string | null;

  @EpochMsColumn({ nullable: true })
  vatCheckedAt: number | null;

  /**
   * Whose VAT the order was charged (the shop's country, or the buyer's under the One-Stop-Shop), the rate on
   * shipping and the payment fee, and per rate the net amount and the VAT: what invoices and the OSS report state,
   * never recomputed from today's rates. Null on orders from before they were kept.
   */
  @Column({ type: 'varchar', length: 2, nullable: true })
  vatCountry: string | null;

  @Column({ type: 'integer', nullable: true })
  shippingVatRate: number | null;

  @Column({ type: 'simple-json', nullable: true })
  vatRows: OrderVatRow[] | null;

  @Column({ type: 'integer', nullable: true })
  deliverySlotId: number | null;

  @Column({ type: 'varchar', length: 10, nullable: true })
  deliveryDate: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  deliverySlotLabel: string | null;

  /** The page language the shopper ordered in, which later mails to them use; null (older orders): the store's. */
  @Column({ type: 'varchar', length: 8, nullable: true })
  language: string | null;

  /**
   * The version of the terms and conditions page (in `termsLanguage`) the shopper was shown and ticked "I accept"
   * for, and when; null while the checkbox is off (`salesTermsCheckbox`).
   */
  @Column({ type: 'integer', nullable: true })
  termsVersion: number | null;

  /** The language of the accepted terms page: the shopper's, or the default one's when theirs had none. */
  @Column({ type: 'varchar', length: 8, nullable: true })
  termsLanguage: string | null;

  @EpochMsColumn({ nullable: true })
  termsAcceptedAt: number | null;
}

/** What is left to pay for an order once its gift cards are counted: what a payment method collects. */
export function amountDue(order: Pick<Order, 'total' | 'giftCardTotal'>): number {
  return order.total - order.giftCardTotal;
}
