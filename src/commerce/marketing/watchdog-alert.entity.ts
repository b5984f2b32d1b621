import { Column, Entity, Index } from 'typeorm';
import { BaseRow, EpochMsColumn } from '../../database/base.entity';

/** A back-in-stock alert: one per customer and product; `sentAt` once the notice went out. */
@Entity('watchdog_alerts')
@Index(['customerId', 'productId'], { unique: true })
@Index(['productId', 'sentAt'])
export class WatchdogAlert extends BaseRow {
  @Column({ type: 'integer' })
  customerId: number;

  @Column({ type: 'integer' })
  productId: number;

  @EpochMsColumn({ nullable: true })
  sentAt: number | null;
}
