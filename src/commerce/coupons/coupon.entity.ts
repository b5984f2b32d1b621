import { Column, Entity } from 'typeorm';
import { BaseRow, EpochMsColumn } from '../../database/base.entity';

export type CouponType = 'percent' | 'fixed';

/** A discount code. Usage counts are enforced in the place-order transaction (coupon_usages). */
@Entity('coupons')
export class Coupon extends BaseRow {
  /** Stored upper-case; codes are matched case-insensitively. */
  @Column({ type: 'varchar', length: 64, unique: true })
  code: string;

  @Column({ type: 'varchar', length: 16 })
  type: CouponType;

  /** `percent`: whole percent 1–100; `fixed`: minor units of the store's base currency. */
  @Column({ type: 'integer' })
  value: number;

  /** The cart subtotal (base currency, minor units) must reach this; null = no minimum. */
  @Column({ type: 'integer', nullable: true })
  minSubtotal: number | null;

  @EpochMsColumn({ nullable: true })
  startsAt: number | null;

  @EpochMsColumn({ nullable: true })
  endsAt: number | null;

  /** Orders that may use the code in total; null = unlimited. */
  @Column({ type: 'integer', nullable: true })
  usageLimit: number | null;

  /** Orders one customer (by e-mail) may use it for; null = unlimited. */
  @Column({ type: 'integer', nullable: true })
  perCustomerLimit: number | null;

  /** Orders that used the code; raised only by a guarded update at place-order. */
  @Column({ type: 'integer', default: 0 })
  timesUsed: number;

  @Column({ type: 'boolean', default: true })
  enabled: boolean;
}
