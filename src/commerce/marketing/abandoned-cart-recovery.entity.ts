import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { Cart } from '../carts/cart.entity';
import { BaseRow } from '../../database/base.entity';

/**
 * One use of a recovery link: the abandoned cart's lines were restored into `cartId`, a new cart. Whichever
 * of the two is ordered afterwards counts as recovered revenue.
 */
@Entity('abandoned_cart_recoveries')
export class AbandonedCartRecovery extends BaseRow {
  @Index()
  @Column({ type: 'integer' })
  abandonedCartId: number;

  @ManyToOne(() => Cart, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'abandonedCartId' })
  abandonedCart?: Cart;

  /** Null once that cart is gone, e.g. merged into the customer's own cart at login. */
  @Column({ type: 'integer', unique: true, nullable: true })
  cartId: number | null;

  @ManyToOne(() => Cart, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'cartId' })
  cart?: Cart;
}
