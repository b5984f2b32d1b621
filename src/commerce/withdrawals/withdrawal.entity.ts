import { Column, Entity, Index } from 'typeorm';
import { BaseRow, EpochMsColumn } from '../../database/base.entity';

/**
 * A shopper's notice that they withdraw from the contract for lines of an order (docs/shop.md, _Withdrawal_); its
 * `dateCreated` is the time of receipt the confirmation states. Recorded late too: staff decide what to do then.
 */
@Entity('withdrawals')
@Index(['orderId'])
export class Withdrawal extends BaseRow {
  @Column({ type: 'integer' })
  orderId: number;

  /** The page language it was made in: the language of the return staff make of it (the mail is the order's). */
  @Column({ type: 'varchar', length: 8 })
  language: string;

  /**
   * The last moment of the withdrawal period when it was received (epoch ms): the end of the day, in the shop's time
   * zone, the period's days after the day of delivery. Null when received before delivery: the period had not begun.
   */
  @EpochMsColumn({ nullable: true })
  deadline: number | null;

  /** Received after `deadline` (never when it is null). */
  @Column({ type: 'boolean', default: false })
  late: boolean;

  /** The return staff made of it, once made: one per withdrawal. */
  @Column({ type: 'integer', nullable: true, unique: true })
  returnId: number | null;
}

/** The quantity of an order line a withdrawal names. */
@Entity('withdrawal_lines')
@Index(['withdrawalId', 'orderLineId'], { unique: true })
@Index(['orderLineId'])
export class WithdrawalLine extends BaseRow {
  @Column({ type: 'integer' })
  withdrawalId: number;

  @Column({ type: 'integer' })
  orderLineId: number;

  @Column({ type: 'integer' })
  qty: number;
}
