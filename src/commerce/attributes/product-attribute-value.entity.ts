import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { BaseRow } from '../../database/base.entity';
import { ProductVariant } from '../products/product-variant.entity';
import { Product } from '../products/product.entity';
import { AttributeValue } from './attribute-value.entity';

/**
 * An attribute value a product has: set on the product itself (`variantId` null) or carried by one of its
 * variants (a colour option). A product matches a filter value when any of its rows has it. `attributeId` is the
 * value's attribute, kept here so facet counts group without a join.
 */
@Entity('product_attribute_values')
@Index(['attributeValueId', 'productId'])
@Index(['productId', 'attributeId'])
export class ProductAttributeValue extends BaseRow {
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

  @Column({ type: 'integer' })
  attributeId: number;

  @Column({ type: 'integer' })
  attributeValueId: number;

  @ManyToOne(() => AttributeValue, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'attributeValueId' })
  attributeValue?: AttributeValue;
}
