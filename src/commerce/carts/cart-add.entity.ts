import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { BaseRow } from '../../database/base.entity';
import { Cart } from './cart.entity';

/**
 * An add to cart made with an `Idempotency-Key`: the same key on the same cart again is a repeat (the client did
 * not get the first answer), answered without adding a second time. Written in the add's transaction, so a repeat
 * of an add whose commit reached the database but whose answer was lost is recognised too.
 */
@Entity('cart_adds')
@Index(['cartId', 'requestKey'], { unique: true })
export class CartAdd extends BaseRow {
  @Column({ type: 'integer' })
  cartId: number;

  @ManyToOne(() => Cart, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'cartId' })
  cart?: Cart;

  @Column({ type: 'varchar', length: 100 })
  requestKey: string;
}
