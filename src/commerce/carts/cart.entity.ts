import { Column, Entity, Index } from 'typeorm';
import { BaseRow, EpochMsColumn } from '../../database/base.entity';

export interface Address {
  firstName: string;
  lastName: string;
  street: string;
  city: string;
  zipCode: string;
  country: string;
  phone?: string;
  company?: string;
}

/** The shopper's cart, which checkout fills into a quote and place-order turns into exactly one order. */
/** At most this many gift cards pay for one order. */
export const MAX_GIFT_CARDS_PER_CART = 5;

@Entity('carts')
@Index(['orderedAt', 'lastActivityAt'])
@Index(['customerId', 'orderedAt'])
export class Cart extends BaseRow {
  /** Public identifier (32 hex) used in recovery links; the integer id never leaves the server. */
  @Column({ type: 'varchar', length: 32, unique: true })
  uid: string;

  @Column({ type: 'integer' })
  storeId: number;

  @Column({ type: 'integer', nullable: true })
  customerId: number | null;

  @Column({ type: 'varchar', length: 3 })
  currency: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  email: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  couponCode: string | null;

  /** Gift-card codes applied to the cart, in the order they were applied (the first pays first); at most 5. */
  @Column({ type: 'simple-json', nullable: true })
  giftCardCodes: string[] | null;

  @Column({ type: 'simple-json', nullable: true })
  billingAddress: Address | null;

  @Column({ type: 'simple-json', nullable: true })
  shippingAddress: Address | null;

  @Column({ type: 'text', nullable: true })
  notes: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  vatId: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  companyName: string | null;

  /** `type:handle:id` of the chosen shipping method. */
  @Column({ type: 'varchar', length: 191, nullable: true })
  shippingMethod: string | null;

  /** Dispatch code of the chosen payment method. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  paymentMethod: string | null;

  @Column({ type: 'simple-json', nullable: true })
  pickupPoint: Record<string, unknown> | null;

  @Column({ type: 'integer', nullable: true })
  deliverySlotId: number | null;

  /** `YYYY-MM-DD` in the shop's time zone. */
  @Column({ type: 'varchar', length: 10, nullable: true })
  deliveryDate: string | null;

  @Column({ type: 'varchar', length: 32, unique: true, nullable: true })
  shareToken: string | null;

  @EpochMsColumn()
  lastActivityAt: number;

  /** Raised by every change: place-order converts the cart only in the version it priced. */
  @Column({ type: 'integer', default: 0 })
  version: number;

  /** Set once, in the place-order transaction; an ordered cart is never ordered again. */
  @EpochMsColumn({ nullable: true })
  orderedAt: number | null;
}

/** Where a cart or order ships: the shipping address's country, else the billing address's. */
export function destination(cart: Pick<Cart, 'shippingAddress' | 'billingAddress'>): string | null {
  return (cart.shippingAddress ?? cart.billingAddress)?.country ?? null;
}
