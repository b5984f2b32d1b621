import { Column, Entity, Index } from 'typeorm';
import { BaseRow } from '../../database/base.entity';

/** A product (or variant) saved in a wishlist; saving it again raises the quantity. */
@Entity('wishlist_items')
@Index(['wishlistId', 'productId', 'variantId'], { unique: true })
export class WishlistItem extends BaseRow {
  @Column({ type: 'integer' })
  wishlistId: number;

  @Column({ type: 'integer' })
  productId: number;

  /** 0 for a product without variants, so the unique key works on every database (NULLs never collide). */
  @Column({ type: 'integer', default: 0 })
  variantId: number;

  @Column({ type: 'integer', default: 1 })
  qty: number;

  @Column({ type: 'simple-json', nullable: true })
  configuration: Record<string, string> | null;
}
