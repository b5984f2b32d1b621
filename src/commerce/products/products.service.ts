import { Injectable } from '@nestjs/common';
import { DataSource, FindOptionsSelect, In } from 'typeorm';
import { LIKE_ESCAPE, likeContaining } from '../../database/like';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { Currency } from '../stores/currency.entity';
import { CurrencyService } from '../stores/currency.service';
import { CatalogProduct, toCatalogProduct } from './catalog-product';
import { PriceHistory, Reduction } from './price-history.service';
import { ProductImages } from './product-images.service';
import { ProductRelation, ProductRelationKind } from './product-relation.entity';
import { Product } from './product.entity';
import { effectivePrice } from './sale-price';

export interface RelatedQuery {
  /** Products already in the cart (never suggested back). */
  excludeIds?: number[];
  /** Case-insensitive name filter. */
  name?: string;
  limit: number;
}

/** Read side of products shared by the catalog and the cart: sellable products and their suggestions. */
@Injectable()
export class ProductsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly currencies: CurrencyService,
    private readonly history: PriceHistory,
    private readonly images: ProductImages,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /**
   * Visible products related to `productIds` by `kind`, best-placed first, without duplicates,
   * never one of `excludeIds` and never a hidden or disabled product.
   */
  async related(productIds: number[], kind: ProductRelationKind, query: RelatedQuery): Promise<Product[]> {
    if (productIds.length === 0) return [];
    const builder = this.dataSource
      .getRepository(Product)
      .createQueryBuilder('p')
      .innerJoin(ProductRelation, 'r', 'r.relatedProductId = p.id')
      .where('r.productId IN (:...productIds)', { productIds })
      .andWhere('r.kind = :kind', { kind })
      .andWhere('p.visible = :yes AND p.enabled = :yes', { yes: true })
      .groupBy('p.id')
      .orderBy('MIN(r.position)', 'ASC')
      .addOrderBy('p.id', 'ASC')
      .limit(query.limit);
    const exclude = [...new Set([...(query.excludeIds ?? []), ...productIds])];
    builder.andWhere('p.id NOT IN (:...exclude)', { exclude });
    if (query.name) {
      builder.andWhere(`LOWER(p.name) LIKE :name ${LIKE_ESCAPE}`, { name: likeContaining(query.name.toLowerCase()) });
    }
    const ids = (await builder.select('p.id', 'id').getRawMany<{ id: number }>()).map((row) => Number(row.id));
    return this.inOrder(ids);
  }

  /**
   * Products in the order of `ids` (a ranked search, a relation list, a listing page), with only the `select`ed
   * columns when given; ids without a product are left out.
   */
  async inOrder(ids: number[], select?: FindOptionsSelect<Product>): Promise<Product[]> {
    if (ids.length === 0) return [];
    const products = await this.dataSource.getRepository(Product).find({ select, where: { id: In(ids) } });
    const byId = new Map(products.map((product) => [product.id, product]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /** The catalog JSON shape, prices (the sale price while a sale runs) and reductions converted to `currency`. */
  async present(products: Product[], currency: Currency, now = Date.now()): Promise<CatalogProduct[]> {
    const [reductions, pictures] = await Promise.all([
      this.history.reductions(
        products.map((product) => ({ productId: product.id, variantId: null, priced: product })),
        now,
      ),
      this.images.cardPictures(products.map((product) => product.id)),
    ]);
    return Promise.all(
      products.map(async (product, index) =>
        toCatalogProduct(
          product,
          await this.currencies.fromBase(effectivePrice(product, now), currency),
          await this.inCurrency(reductions[index], currency),
          currency,
          this.config.baseUrl,
          pictures.get(product.id),
        ),
      ),
    );
  }

  /** A reduction with its reference price converted to `currency` (the percentage stays the base currency's). */
  async inCurrency(reduction: Reduction | null, currency: Currency): Promise<Reduction | null> {
    return (
      reduction && { ...reduction, referencePrice: await this.currencies.fromBase(reduction.referencePrice, currency) }
    );
  }
}
