import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { BaseRow } from '../../database/base.entity';
import { Product } from '../products/product.entity';
import { Category } from './category.entity';

/**
 * A product's place in a category. A product in any category has exactly one primary one (its breadcrumbs and
 * canonical trail); the service that writes these rows keeps that true under the product's row lock.
 */
@Entity('product_categories')
// Named: TypeORM's generated name is the same for both column orders.
@Index('UQ_product_categories_product_category', ['productId', 'categoryId'], { unique: true })
@Index('IDX_product_categories_category_product', ['categoryId', 'productId'])
export class ProductCategory extends BaseRow {
  @Column({ type: 'integer' })
  productId: number;

  @ManyToOne(() => Product, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'productId' })
  product?: Product;

  @Column({ type: 'integer' })
  categoryId: number;

  @ManyToOne(() => Category, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'categoryId' })
  category?: Category;

  @Column({ type: 'boolean', default: false })
  isPrimary: boolean;
}
