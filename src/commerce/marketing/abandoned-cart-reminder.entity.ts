import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { Cart } from '../carts/cart.entity';
import { BaseRow } from '../../database/base.entity';

/**
 * A reminder e-mail queued for an abandoned cart (`dateCreated` is when). The unique index makes each
 * reminder of the sequence once per cart, whichever worker or scan gets there first.
 */
@Entity('abandoned_cart_reminders')
@Index(['cartId', 'reminderIndex'], { unique: true })
export class AbandonedCartReminder extends BaseRow {
  @Column({ type: 'integer' })
  cartId: number;

  @ManyToOne(() => Cart, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'cartId' })
  cart?: Cart;

  /** Position in `salesAbandonedCartsReminderDelays`: 0 is the first reminder. */
  @Column({ type: 'integer' })
  reminderIndex: number;
}
