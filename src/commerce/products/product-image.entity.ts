import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { BaseRow } from '../../database/base.entity';
import { ProductVariant } from './product-variant.entity';
import { Product } from './product.entity';

/**
 * One stored picture of a product, in the product's gallery order. The files are content-addressed
 * (product-image-files.ts): `contentHash` names them, so two rows of the same picture share them, and they are
 * deleted only with the last row naming them.
 */
@Entity('product_images')
@Index(['productId', 'position'])
@Index(['contentHash'])
@Index(['sourceUrl'])
export class ProductImage extends BaseRow {
  @Column({ type: 'integer' })
  productId: number;

  @ManyToOne(() => Product, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'productId' })
  product?: Product;

  /** The variant the picture shows, when it shows one (a colour); null: the product as a whole. */
  @Column({ type: 'integer', nullable: true })
  variantId: number | null;

  @ManyToOne(() => ProductVariant, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'variantId' })
  variant?: ProductVariant;

  /** 1-based place in the gallery; the first is the product's card picture. */
  @Column({ type: 'integer' })
  position: number;

  @Column({ type: 'varchar', length: 255, default: '' })
  alt: string;

  /** Hex SHA-256 (first 32 digits) of the original bytes: the stored files' names. */
  @Column({ type: 'varchar', length: 32 })
  contentHash: string;

  /** Of the original, after its EXIF orientation is applied; the stored sizes keep its aspect ratio. */
  @Column({ type: 'integer' })
  width: number;

  @Column({ type: 'integer' })
  height: number;

  /** The import's http(s) URL the picture came from, so a re-import does not fetch it again; null for uploads. */
  @Column({ type: 'varchar', length: 191, nullable: true })
  sourceUrl: string | null;
}
