import { Column, Entity, Index } from 'typeorm';
import { BaseRow, EpochMsColumn } from '../../database/base.entity';

/**
 * How the money goes back: through the payment's gateway, by staff from the shop's bank account (`manual`), or
 * only to the gift cards that paid (nothing of the payment is left to give back).
 */
export type RefundMethod = 'gateway' | 'manual' | 'gift-card';

/**
 * `pending` while the gateway is asked (its amount is held against the balance, so no second refund can take it),
 * and for as long as nobody knows whether the gateway made it (no answer, a cut connection, an error on its side):
 * the reconciliation job asks again until it says. Then `succeeded` or `failed`; a failed refund gives back nothing
 * and counts for nothing.
 */
export type RefundStatus = 'pending' | 'succeeded' | 'failed';

/**
 * Money given back for an order (docs/shop.md, _Refunds_): from one of its payments, and from the gift cards that
 * paid part of it. `idempotencyKey` is unique, so a repeated request finds the refund it made.
 */
@Entity('refunds')
@Index(['orderId'])
@Index(['checkAt'])
export class Refund extends BaseRow {
  @Column({ type: 'integer' })
  orderId: number;

  /** The payment attempt the money goes back to. */
  @Column({ type: 'integer' })
  paymentTransactionId: number;

  @Column({ type: 'varchar', length: 100, unique: true })
  idempotencyKey: string;

  /** Minor units of `currency`: the whole refund, what goes back through the payment, and to gift cards. */
  @Column({ type: 'integer' })
  amount: number;

  @Column({ type: 'integer' })
  paymentAmount: number;

  @Column({ type: 'integer', default: 0 })
  giftCardAmount: number;

  @Column({ type: 'varchar', length: 3 })
  currency: string;

  @Column({ type: 'varchar', length: 16 })
  method: RefundMethod;

  @Column({ type: 'varchar', length: 16 })
  status: RefundStatus;

  @Column({ type: 'varchar', length: 500 })
  reason: string;

  /** The gateway's id of the refund, or the reference of the staff member's bank transfer. */
  @Column({ type: 'varchar', length: 191, nullable: true })
  reference: string | null;

  /** Why a failed refund failed, as the gateway said it. */
  @Column({ type: 'varchar', length: 500, nullable: true })
  failure: string | null;

  /** Whether its lines go back to stock (once it succeeds). */
  @Column({ type: 'boolean', default: false })
  restock: boolean;

  /**
   * When the reconciliation job asks the gateway about this pending gateway refund (its first ask may have been cut
   * short); null once it succeeded or failed, and for refunds no gateway makes.
   */
  @EpochMsColumn({ nullable: true })
  checkAt: number | null;

  /** Asks in a row that got no clear answer: how far the next one is put off. */
  @Column({ type: 'integer', default: 0 })
  checks: number;

  /** Who asked: `cp:<email>`, `cli`. */
  @Column({ type: 'varchar', length: 191 })
  actor: string;
}

/** The quantity of an order line a refund gives back, and its part of the refund's amount. */
@Entity('refund_lines')
@Index(['refundId', 'orderLineId'], { unique: true })
@Index(['orderLineId'])
export class RefundLine extends BaseRow {
  @Column({ type: 'integer' })
  refundId: number;

  @Column({ type: 'integer' })
  orderLineId: number;

  @Column({ type: 'integer' })
  qty: number;

  @Column({ type: 'integer' })
  amount: number;
}
