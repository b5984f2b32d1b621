import { Column, Entity, Index } from 'typeorm';
import { BaseRow } from '../../database/base.entity';

/** One row per status change, edit or comment on an order, newest last. */
@Entity('order_history')
@Index(['orderId'])
export class OrderHistory extends BaseRow {
  @Column({ type: 'integer' })
  orderId: number;

  @Column({ type: 'varchar', length: 32, nullable: true })
  fromStatus: string | null;

  @Column({ type: 'varchar', length: 32, nullable: true })
  toStatus: string | null;

  @Column({ type: 'text', nullable: true })
  note: string | null;

  /** A note staff wrote for the customer: shown on the account order page and the guest order view. */
  @Column({ type: 'boolean', default: false })
  customerVisible: boolean;

  /** Who did it: `system`, `customer`, `cp:<email>`, `gateway:<handle>`, `cli`. */
  @Column({ type: 'varchar', length: 191 })
  actor: string;
}
