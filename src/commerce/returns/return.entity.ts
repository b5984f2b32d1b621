import { Column, Entity, Index } from 'typeorm';
import { BaseRow } from '../../database/base.entity';
import type { ReturnStatus } from './return-lifecycle';

/**
 * A customer's request to send back delivered lines of an order (docs/shop.md, _Returns_), and what staff did with
 * it. Its lines hold their quantities until it is refused, so an order line is never returned twice over.
 */
@Entity('order_returns')
@Index(['orderId'])
@Index(['status'])
export class OrderReturn extends BaseRow {
  @Column({ type: 'integer' })
  orderId: number;

  @Column({ type: 'varchar', length: 16 })
  status: ReturnStatus;

  /** The customer's words on why. */
  @Column({ type: 'varchar', length: 500 })
  reason: string;

  /** The page language the customer asked in: the language of the e-mails about it. */
  @Column({ type: 'varchar', length: 8 })
  language: string;

  /** What staff last told the customer (with an approval or a refusal). */
  @Column({ type: 'varchar', length: 1000, nullable: true })
  staffMessage: string | null;

  /** The refund that gave the money back, once refunded. */
  @Column({ type: 'integer', nullable: true })
  refundId: number | null;
}

/** The quantity of an order line a return sends back. */
@Entity('order_return_lines')
@Index(['returnId', 'orderLineId'], { unique: true })
@Index(['orderLineId'])
export class OrderReturnLine extends BaseRow {
  @Column({ type: 'integer' })
  returnId: number;

  @Column({ type: 'integer' })
  orderLineId: number;

  @Column({ type: 'integer' })
  qty: number;
}

/** One row per move of a return (its request included), newest last: who and when. */
@Entity('order_return_history')
@Index(['returnId'])
export class OrderReturnHistory extends BaseRow {
  @Column({ type: 'integer' })
  returnId: number;

  @Column({ type: 'varchar', length: 16, nullable: true })
  fromStatus: ReturnStatus | null;

  @Column({ type: 'varchar', length: 16 })
  toStatus: ReturnStatus;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  note: string | null;

  /** `customer:<id>`, `guest`, `cp:<email>`. */
  @Column({ type: 'varchar', length: 191 })
  actor: string;
}
