import { DataSource } from 'typeorm';
import { ProductVariant } from '../../src/commerce/products/product-variant.entity';
import { Product } from '../../src/commerce/products/product.entity';

/** A demo product by SKU (the seed is the same in every test database). */
export async function productBySku(dataSource: DataSource, sku: string): Promise<Product> {
  return dataSource.getRepository(Product).findOneByOrFail({ sku });
}

export async function variantBySku(dataSource: DataSource, sku: string): Promise<ProductVariant> {
  return dataSource.getRepository(ProductVariant).findOneByOrFail({ sku });
}
