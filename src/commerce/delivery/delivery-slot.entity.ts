import { Column, Entity } from 'typeorm';
import { BaseRow } from '../../database/base.entity';

/** A delivery window shoppers may book, e.g. 08:00–12:00 for at most 5 orders a day. */
@Entity('delivery_slots')
export class DeliverySlot extends BaseRow {
  @Column({ type: 'varchar', length: 64 })
  label: string;

  /** Minutes after midnight in the shop's time zone. */
  @Column({ type: 'integer' })
  startMinute: number;

  @Column({ type: 'integer' })
  endMinute: number;

  /** Orders the slot takes per day. */
  @Column({ type: 'integer' })
  capacity: number;

  /** ISO weekdays it runs on (1 = Monday … 7 = Sunday); empty = every day. */
  @Column({ type: 'simple-json' })
  weekdays: number[];

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  @Column({ type: 'integer', default: 0 })
  sortOrder: number;
}
