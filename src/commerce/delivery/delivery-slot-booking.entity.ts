import { Column, Entity, Index } from 'typeorm';
import { BaseRow } from '../../database/base.entity';

/** How many orders took a slot on a date; raised only by a guarded update below the slot's capacity. */
@Entity('delivery_slot_bookings')
@Index(['slotId', 'date'], { unique: true })
export class DeliverySlotBooking extends BaseRow {
  @Column({ type: 'integer' })
  slotId: number;

  /** `YYYY-MM-DD` in the shop's time zone. */
  @Column({ type: 'varchar', length: 10 })
  date: string;

  @Column({ type: 'integer', default: 0 })
  taken: number;
}
