import { Column, Entity, JoinColumn, ManyToOne } from 'typeorm';
import { BaseRow, EpochMsColumn } from '../../database/base.entity';
import { Product } from './product.entity';

/** One buyable combination of a configurable product's options, e.g. `{ size: 'M', color: 'red' }`. */
@Entity('product_variants')
export class ProductVariant extends BaseRow {
  @Column({ type: 'integer' })
  productId: number;

  @ManyToOne(() => Product, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'productId' })
  product?: Product;

  @Column({ type: 'varchar', length: 64, unique: true })
  sku: string;

  @Column({ type: 'simple-json' })
  options: Record<string, string>;

  /** Overrides the product price when set (minor units). */
  @Column({ type: 'integer', nullable: true })
  price: number | null;

  /** The variant's own sale, only with a price of its own; a variant without one follows its product's sale. */
  @Column({ type: 'integer', nullable: true })
  salePrice: number | null;

  @EpochMsColumn({ nullable: true })
  saleStartsAt: number | null;

  @EpochMsColumn({ nullable: true })
  saleEndsAt: number | null;

  @Column({ type: 'integer', default: 0 })
  stock: number;

  /** Overrides the product's net quantity when set, e.g. the 1 kg pack of a 250 g product (as on Product). */
  @Column({ type: 'integer', nullable: true })
  netQuantity: number | null;

  @Column({ type: 'varchar', length: 4, nullable: true })
  netUnit: string | null;
}
