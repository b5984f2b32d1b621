import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { BaseRow, EpochMsColumn } from '../../database/base.entity';
import { ProductVariant } from './product-variant.entity';
import { Product } from './product.entity';

/**
 * One price a product (variantId null) or a variant took from `changedAt` on, in `currency`: the price a shopper
 * paid, sale or not (PriceHistory). Rows up to now are never changed; rows after now are the planned starts and
 * ends of sales, rewritten whenever the product is saved.
 */
@Entity('product_price_history')
@Index(['productId', 'variantId', 'currency', 'changedAt'])
export class PriceChange extends BaseRow {
  @Column({ type: 'integer' })
  productId: number;

  @ManyToOne(() => Product, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'productId' })
  product?: Product;

  @Column({ type: 'integer', nullable: true })
  variantId: number | null;

  @ManyToOne(() => ProductVariant, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'variantId' })
  variant?: ProductVariant;

  /** ISO 4217 code of the base currency the price was set in. */
  @Column({ type: 'varchar', length: 3 })
  currency: string;

  /** Minor units of `currency`. */
  @Column({ type: 'integer' })
  price: number;

  /** Epoch ms from which `price` applied. */
  @EpochMsColumn()
  changedAt: number;
}
