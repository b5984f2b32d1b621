import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AttributeValue } from '../attributes/attribute-value.entity';
import { Attribute } from '../attributes/attribute.entity';
import { ProductAttributeValue } from '../attributes/product-attribute-value.entity';
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
    const [product, brand] = await Promise.all([
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
    ]);
    return {
      listed: Boolean(product?.visible && product.archivedAt === null),
      brand: brand?.value ?? null,
    };
  }
}
