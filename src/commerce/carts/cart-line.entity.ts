import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { BaseRow } from '../../database/base.entity';
import { Cart } from './cart.entity';

@Entity('cart_lines')
@Index(['cartId', 'lineKey'], { unique: true })
export class CartLine extends BaseRow {
  @Column({ type: 'integer' })
  cartId: number;

  @ManyToOne(() => Cart, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'cartId' })
  cart?: Cart;

  @Column({ type: 'integer' })
  productId: number;

  @Column({ type: 'integer', nullable: true })
  variantId: number | null;

  /** Hash of product, configuration and custom data: adding the same thing again merges into this line. */
  @Column({ type: 'varchar', length: 64 })
  lineKey: string;

  @Column({ type: 'integer' })
  qty: number;

  @Column({ type: 'simple-json', nullable: true })
  configuration: Record<string, string> | null;

  @Column({ type: 'simple-json', nullable: true })
  custom: Record<string, unknown> | null;
}
