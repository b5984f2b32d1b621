import { DataSource } from 'typeorm';
import { Attribute } from '../../src/commerce/attributes/attribute.entity';
import { Category } from '../../src/commerce/categories/category.entity';
import { ProductVariant } from '../../src/commerce/products/product-variant.entity';
import { Product } from '../../src/commerce/products/product.entity';

/** A demo product by SKU (the seed is the same in every test database). */
export async function productBySku(dataSource: DataSource, sku: string): Promise<Product> {
  return dataSource.getRepository(Product).findOneByOrFail({ sku });
}

export async function variantBySku(dataSource: DataSource, sku: string): Promise<ProductVariant> {
  return dataSource.getRepository(ProductVariant).findOneByOrFail({ sku });
}

/** Takes the demo's category tree out, for a test that makes its own: the demo's would share its names and places. */
export async function withoutDemoCategories(dataSource: DataSource): Promise<void> {
  const categories = dataSource.createQueryBuilder();
  await categories.update(Category).set({ parentId: null }).execute();
  await categories.delete().from(Category).execute();
}

/** Takes the demo's attributes (brand, material, variant options) out, for a test that defines its own. */
export async function withoutDemoAttributes(dataSource: DataSource): Promise<void> {
  await dataSource.createQueryBuilder().delete().from(Attribute).execute();
}
