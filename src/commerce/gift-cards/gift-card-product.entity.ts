import { Column, Entity, JoinColumn, ManyToOne } from 'typeorm';
import { BaseRow } from '../../database/base.entity';
import { Product } from '../products/product.entity';
import { GiftCardDesign } from './gift-card-design.entity';

/**
 * A product sold as a gift card of a design: once its order is paid, each unit bought becomes a card worth
 * the unit price. A table of its own rather than a products column, so the catalog stays as it is.
 */
@Entity('gift_card_products')
export class GiftCardProduct extends BaseRow {
  @Column({ type: 'integer', unique: true })
  productId: number;

  @ManyToOne(() => Product, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'productId' })
  product?: Product;

  @Column({ type: 'integer' })
  designId: number;

  @ManyToOne(() => GiftCardDesign, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'designId' })
  design?: GiftCardDesign;
}
