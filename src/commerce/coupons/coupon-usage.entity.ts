import { Column, Entity, Index } from 'typeorm';
import { BaseRow } from '../../database/base.entity';

/** One order's use of a coupon; unique per order so a retried place-order cannot count twice. */
@Entity('coupon_usages')
@Index(['couponId', 'orderId'], { unique: true })
@Index(['couponId', 'customerKey'])
export class CouponUsage extends BaseRow {
  @Column({ type: 'integer' })
  couponId: number;

  @Column({ type: 'integer' })
  orderId: number;

  /** Lower-cased e-mail of the buyer, for per-customer limits. */
  @Column({ type: 'varchar', length: 255 })
  customerKey: string;
}
