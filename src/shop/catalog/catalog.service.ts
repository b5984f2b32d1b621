import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { toMajor } from '../../common/money';
import { absoluteUrl, CatalogProduct } from '../../commerce/products/catalog-product';
import { ProductVariant } from '../../commerce/products/product-variant.entity';
import { Product } from '../../commerce/products/product.entity';
import { ProductsService } from '../../commerce/products/products.service';
import { Currency } from '../../commerce/stores/currency.entity';
import { CurrencyService } from '../../commerce/stores/currency.service';
import { StoreService } from '../../commerce/stores/store.service';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import {
  CatalogListingQuery,
  CatalogPagingQuery,
  CatalogSearchQuery,
  CatalogSort,
  MAX_PER_PAGE,
} from './dto/catalog-query.dto';
import { ProductSearchService } from './product-search.service';

export interface ProductCard {
  id: number;
  name: string;
  slug: string;
  price: string;
  image: string | null;
  inStock: boolean;
}

/** One page of the listing or of search results, prices in `currency`. */
export interface CatalogPage {
  products: CatalogProduct[];
  page: number;
  perPage: number;
  total: number;
  currency: Currency;
}

export interface CatalogVariant {
  sku: string;
  options: Record<string, string>;
  /** Major units of the page's currency. */
  price: number;
  stock: number;
  inStock: boolean;
}

/** The product page's JSON `product`. */
export interface ProductDetail extends CatalogProduct {
  description: string;
  images: string[];
  variants: CatalogVariant[];
}

export interface ProductPage {
  product: ProductDetail;
  related: CatalogProduct[];
  currency: Currency;
}

/** Related products shown under a product (spec "Limits": related items default 4). */
const RELATED_ON_PAGE = 4;

const ORDER_BY: Record<CatalogSort, Array<[string, 'ASC' | 'DESC']>> = {
  name: [
    ['LOWER(p.name)', 'ASC'],
    ['p.id', 'ASC'],
  ],
  price_asc: [
    ['p.price', 'ASC'],
    ['p.id', 'ASC'],
  ],
  price_desc: [
    ['p.price', 'DESC'],
    ['p.id', 'ASC'],
  ],
  newest: [['p.id', 'DESC']],
};

/**
 * Read side of the storefront catalog: the default store's visible, enabled products (hidden ones only by
 * their URL), with prices in the shopper's currency.
 */
@Injectable()
export class CatalogService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly stores: StoreService,
    private readonly currencies: CurrencyService,
    private readonly products: ProductsService,
    private readonly searchIndex: ProductSearchService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /** The first visible products, for the front page. */
  async featured(limit = 12): Promise<ProductCard[]> {
    const store = await this.stores.default();
    const products = await this.dataSource.getRepository(Product).find({
      where: { storeId: store.id, visible: true, enabled: true },
      select: { id: true, name: true, slug: true, price: true, stock: true, images: true },
      order: { id: 'ASC' },
      take: limit,
    });
    return products.map((product) => ({
      id: product.id,
      name: product.name,
      slug: product.slug,
      price: toMajor(product.price).toFixed(2),
      image: product.images[0] ?? null,
      inStock: product.stock > 0,
    }));
  }

  /** The currency chosen in the session (`/shop/currency/set`), else the base currency. */
  currency(code?: string): Promise<Currency> {
    return this.currencies.chosenOrBase(code);
  }

  async listing(query: CatalogListingQuery, currencyCode?: string): Promise<CatalogPage> {
    const store = await this.stores.default();
    const { page, perPage } = paging(query);
    const builder = this.dataSource
      .getRepository(Product)
      .createQueryBuilder('p')
      .where('p.storeId = :storeId AND p.visible = :yes AND p.enabled = :yes', { storeId: store.id, yes: true })
      .skip((page - 1) * perPage)
      .take(perPage);
    for (const [column, direction] of ORDER_BY[query.sort]) builder.addOrderBy(column, direction);
    const [products, total] = await builder.getManyAndCount();
    return this.page(products, total, page, perPage, currencyCode);
  }

  /** Full-text search in relevance order; an empty query is an empty page, not an error. */
  async search(query: CatalogSearchQuery, currencyCode?: string): Promise<CatalogPage> {
    const store = await this.stores.default();
    const { page, perPage } = paging(query);
    const found = await this.searchIndex.search(store.id, query.q, (page - 1) * perPage, perPage);
    return this.page(await this.products.inOrder(found.ids), found.total, page, perPage, currencyCode);
  }

  /** The product behind `/shop/p/{slug}`, or null when it is missing, disabled or of another store. */
  async productPage(slug: string, currencyCode?: string): Promise<ProductPage | null> {
    const store = await this.stores.default();
    const product = await this.dataSource.getRepository(Product).findOneBy({ slug, storeId: store.id, enabled: true });
    if (!product) return null;
    const currency = await this.currency(currencyCode);
    const [[summary], variants, related] = await Promise.all([
      this.products.present([product], currency),
      this.dataSource.getRepository(ProductVariant).find({ where: { productId: product.id }, order: { id: 'ASC' } }),
      this.products.related([product.id], 'related', { limit: RELATED_ON_PAGE }),
    ]);
    return {
      product: {
        ...summary,
        description: product.description,
        images: product.images.map((image) => absoluteUrl(image, this.config.baseUrl)),
        variants: await Promise.all(
          variants.map(async (variant) => ({
            sku: variant.sku,
            options: variant.options,
            price: CurrencyService.major(
              await this.currencies.fromBase(variant.price ?? product.price, currency),
              currency,
            ),
            stock: variant.stock,
            inStock: variant.stock > 0,
          })),
        ),
      },
      related: await this.products.present(related, currency),
      currency,
    };
  }

  private async page(
    products: Product[],
    total: number,
    page: number,
    perPage: number,
    currencyCode?: string,
  ): Promise<CatalogPage> {
    const currency = await this.currency(currencyCode);
    return { products: await this.products.present(products, currency), page, perPage, total, currency };
  }
}

function paging(query: CatalogPagingQuery): { page: number; perPage: number } {
  return { page: query.page, perPage: Math.min(query.perPage, MAX_PER_PAGE) };
}
