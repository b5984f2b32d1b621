import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AttributeValue } from '../attributes/attribute-value.entity';
import { Attribute } from '../attributes/attribute.entity';
import { ProductAttributeValue } from '../attributes/product-attribute-value.entity';
import { CategoryNode, CategoryTree } from '../categories/category-tree';
import { ProductCategory } from '../categories/product-category.entity';
import { Product } from '../products/product.entity';
import { StoreService } from '../stores/store.service';

/** The attribute whose product-level value names a product's brand in its structured data. */
const BRAND_ATTRIBUTE = 'brand';

/** What search engines read about a product besides what its page shows. */
export interface ProductSeoFacts {
  /**
   * Listed in the shop (visible, not archived): a hidden product is sold by direct link only, and kept out of search
   * engines too, like an archived one.
   */
  listed: boolean;
  brand: string | null;
  /** The primary category and its ancestors, top down; empty when it has none or that category is not shown. */
  trail: CategoryNode[];
}

@Injectable()
export class ProductSeo {
  constructor(
    private readonly dataSource: DataSource,
    private readonly stores: StoreService,
  ) {}

  async facts(productId: number): Promise<ProductSeoFacts> {
    const store = await this.stores.default();
    const manager = this.dataSource.manager;
    const [product, brand, primary, tree] = await Promise.all([
      manager.findOne(Product, { select: { id: true, visible: true, archivedAt: true }, where: { id: productId } }),
      manager
        .createQueryBuilder(ProductAttributeValue, 'pav')
        .innerJoin(Attribute, 'a', 'a.id = pav.attributeId')
        .innerJoin(AttributeValue, 'v', 'v.id = pav.attributeValueId')
        .select('v.value', 'value')
        .where('pav.productId = :productId AND pav.variantId IS NULL AND a.code = :code AND a.storeId = :storeId', {
          productId,
          code: BRAND_ATTRIBUTE,
          storeId: store.id,
        })
        .orderBy('v.position', 'ASC')
        .getRawOne<{ value: string }>(),
      manager.findOne(ProductCategory, { where: { productId, isPrimary: true } }),
      CategoryTree.load(manager, store.id),
    ]);
    const category = primary ? tree.byIdOf(primary.categoryId) : undefined;
    return {
      listed: Boolean(product?.visible && product.archivedAt === null),
      brand: brand?.value ?? null,
      trail: category?.shown ? tree.trail(category) : [],
    };
  }
}
