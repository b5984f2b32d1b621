import { Injectable } from '@nestjs/common';
import { DataSource, FindOptionsSelect } from 'typeorm';
import { convertMinor, toMinor } from '../../common/money';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { CategoryLink, ShopCategories } from '../categories/shop-categories.service';
import { categoryPath } from '../categories/category-tree';
import { CatalogProduct, CatalogReduction, catalogReduction, shownImagePaths } from '../products/catalog-product';
import { netQuantityOf, pricePerUnit, UnitPrice } from '../products/net-quantity';
import { PriceHistory } from '../products/price-history.service';
import { SafetyInfo, safetyInfo } from '../products/product-safety';
import { ProductImages, ProductPicture } from '../products/product-images.service';
import { ProductSafety } from '../products/product-safety.entity';
import { ProductVariant } from '../products/product-variant.entity';
import { Product } from '../products/product.entity';
import { ProductsService } from '../products/products.service';
import { effectivePrice, variantPriced } from '../products/sale-price';
import { shownProducts } from '../products/shown-products';
import { Currency } from '../stores/currency.entity';
import { CurrencyService } from '../stores/currency.service';
import { StoreService } from '../stores/store.service';
import { CatalogListingRequest, CatalogPaging, CatalogSearchRequest, CatalogSort, MAX_PER_PAGE } from './catalog-query';
import { Facet, FacetService } from './facets';
import { DidYouMean, ProductSearchService } from './product-search.service';
import { SearchMisses } from './search-misses.service';
import { searchWords } from './search-terms';
import { foldWord } from './search-vocabulary';

/** One page of the listing or of search results, prices in `currency`. */
export interface CatalogPage {
  products: CatalogProduct[];
  page: number;
  perPage: number;
  total: number;
  currency: Currency;
  /** The filters of the result set with their counts (facets.ts). */
  facets: Facet[];
}

/** A page of search results, with the spelling the search corrected the query to or suggests instead. */
export interface SearchResultsPage extends CatalogPage {
  didYouMean: DidYouMean | null;
}

/** What the header's search field suggests while a shopper types (`/shop/catalog/suggest`). */
export interface SearchSuggestions {
  products: CatalogProduct[];
  categories: Array<{ name: string; url: string }>;
  currency: Currency;
  didYouMean: DidYouMean | null;
}

const SUGGESTED_PRODUCTS = 6;
const SUGGESTED_CATEGORIES = 4;

export interface CatalogVariant {
  sku: string;
  options: Record<string, string>;
  /** Major units of the page's currency: what a shopper pays now. */
  price: number;
  reduction: CatalogReduction | null;
  stock: number;
  inStock: boolean;
  unitPrice: UnitPrice | null;
}

/** The product page's JSON `product`. */
export interface ProductDetail extends CatalogProduct {
  description: string;
  /** The gallery: the stored pictures' main size when there are any, else the product's image paths. */
  images: string[];
  /**
   * Only for a product with stored pictures, in gallery order: each one's `src`, `srcset`, size and alt text, its
   * largest stored size (`large`, the zoom) and the SKU of the variant it shows (null: the whole product).
   */
  pictures?: Array<ProductPicture & { large: string; variantSku: string | null }>;
  variants: CatalogVariant[];
  /** The product's safety data (GPSR), warnings in every language it has them in; null when it has none. */
  safety: SafetyInfo | null;
}

export interface ProductPage {
  product: ProductDetail;
  related: CatalogProduct[];
  crossSell: CatalogProduct[];
  /** The trail of the product's primary shown category, top level first; empty when it is in none. */
  breadcrumbs: CategoryLink[];
  /** Other shown products of that category ("More from this category"). */
  moreFromCategory: CatalogProduct[];
  currency: Currency;
  /** The page's `<title>` (the meta title staff set, else the name) and meta description (may be empty). */
  meta: { title: string; description: string };
}

/**
 * The columns a product card needs (toCatalogProduct): listing pages skip the description and timestamps,
 * which cost more to read and hydrate than the rest together.
 */
const CARD_COLUMNS = [
  'id',
  'sku',
  'slug',
  'name',
  'type',
  'price',
  'salePrice',
  'saleStartsAt',
  'saleEndsAt',
  'stock',
  'images',
  'options',
  'netQuantity',
  'netUnit',
] as const;
const CARD_SELECT = Object.fromEntries(CARD_COLUMNS.map((column) => [column, true])) as FindOptionsSelect<Product>;

/** Related, cross-sell and "more from this category" products shown under a product: 4 of each. */
const RELATED_ON_PAGE = 4;

/**
 * Products in one of the categories bound as `:...categoryIds`, read from the (categoryId, productId) index once.
 * Not a correlated EXISTS: counting a large category with one would probe every product in the store (SQLite, 100,000
 * products: 380 ms per count against 15 ms).
 */
const IN_CATEGORIES =
  'p.id IN (SELECT pc.productId FROM product_categories pc WHERE pc.categoryId IN (:...categoryIds))';

/**
 * The price a shopper pays, in SQL (sale-price.ts `effectivePrice`), at the moment bound as `:now`. Sorting and
 * filtering by it cannot use the price index, so they sort the page's candidates instead: a sale must not leave
 * a product out of the price range it is sold in.
 */
const PAID_PRICE =
  '(CASE WHEN p.salePrice IS NOT NULL AND p.saleStartsAt <= :now AND (p.saleEndsAt IS NULL OR p.saleEndsAt > :now) ' +
  'THEN p.salePrice ELSE p.price END)';

/**
 * The listing's sort orders. Name and newest read an index (CatalogListingIndexes migration); the price orders
 * sort by the price paid (PAID_PRICE). Name order is case-insensitive: SQLite's NOCASE collation, the column's
 * case-insensitive collation on MySQL/MariaDB.
 */
function listingOrders(sqlite: boolean): Record<CatalogSort, Array<[string, 'ASC' | 'DESC']>> {
  return {
    name: [
      [sqlite ? 'p.name COLLATE NOCASE' : 'p.name', 'ASC'],
      ['p.id', 'ASC'],
    ],
    price_asc: [
      [PAID_PRICE, 'ASC'],
      ['p.id', 'ASC'],
    ],
    price_desc: [
      [PAID_PRICE, 'DESC'],
      ['p.id', 'ASC'],
    ],
    newest: [['p.id', 'DESC']],
  };
}

/**
 * Read side of the storefront catalog: the default store's visible, enabled products (hidden ones only by
 * their URL), with prices in the shopper's currency.
 */
@Injectable()
export class CatalogService {
  private readonly orders: ReturnType<typeof listingOrders>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly stores: StoreService,
    private readonly currencies: CurrencyService,
    private readonly products: ProductsService,
    private readonly searchIndex: ProductSearchService,
    private readonly misses: SearchMisses,
    private readonly facets: FacetService,
    private readonly history: PriceHistory,
    private readonly images: ProductImages,
    private readonly categories: ShopCategories,
    @InjectConfig() private readonly config: AppConfig,
  ) {
    this.orders = listingOrders(dataSource.options.type === 'better-sqlite3');
  }

  /** The first visible products, for the front page, prices in the shopper's currency. */
  async featured(currencyCode?: string, limit = 12): Promise<{ products: CatalogProduct[]; currency: Currency }> {
    const [store, currency] = await Promise.all([this.stores.default(), this.currency(currencyCode)]);
    const products = await this.dataSource.getRepository(Product).find({
      select: CARD_SELECT,
      where: { storeId: store.id, visible: true, enabled: true },
      order: { id: 'ASC' },
      take: limit,
    });
    return { products: await this.products.present(products, currency), currency };
  }

  /** The currency chosen in the session (`/shop/currency/set`), else the base currency. */
  currency(code?: string): Promise<Currency> {
    return this.currencies.chosenOrBase(code);
  }

  /**
   * One page of the listing, filtered by stock, by a price range in the shopper's currency, by the facet selection
   * and on a category page by the category's subtree (`categoryIds`), with the facets of the result set.
   */
  async listing(query: CatalogListingRequest, currencyCode?: string): Promise<CatalogPage> {
    const [store, currency, base] = await Promise.all([
      this.stores.default(),
      this.currency(currencyCode),
      this.currencies.base(),
    ]);
    const { page, perPage } = paging(query);
    const now = Date.now();
    const scope = [shownProducts(store.id)];
    if (query.inStock) scope.push({ sql: 'p.stock > 0', params: {} });
    if (query.categoryIds) scope.push({ sql: IN_CATEGORIES, params: { categoryIds: query.categoryIds } });
    // Prices are stored in the base currency: the bounds are converted once instead of every row.
    const inBase = (major: number) => convertMinor(toMinor(major, currency.decimals), currency, base);
    if (query.minPrice !== undefined)
      scope.push({ sql: `${PAID_PRICE} >= :min`, params: { min: inBase(query.minPrice), now } });
    if (query.maxPrice !== undefined)
      scope.push({ sql: `${PAID_PRICE} <= :max`, params: { max: inBase(query.maxPrice), now } });
    const selection = await this.facets.resolve(store.id, query.facets ?? {});
    // The page's ids first, then their cards: with the price index covering the price paid and the stock
    // (CatalogListingPaidPrice migration), filtering, ordering and counting read the index alone, and only the 24
    // products shown are read whole (a price-sorted page 40 of 100,000 products: 250 ms → a few).
    const matching = () => {
      const builder = this.dataSource.getRepository(Product).createQueryBuilder('p');
      for (const condition of [...scope, ...this.facets.conditions(selection)])
        builder.andWhere(condition.sql, condition.params);
      return builder.setParameter('now', now);
    };
    const pageIds = matching()
      .select('p.id', 'id')
      .offset((page - 1) * perPage)
      .limit(perPage);
    for (const [column, direction] of this.orders[query.sort]) pageIds.addOrderBy(column, direction);
    const [rows, total, facets] = await Promise.all([
      pageIds.getRawMany<{ id: number | string }>(),
      matching().getCount(),
      this.facets.facets(scope, selection),
    ]);
    const products = await this.products.inOrder(
      rows.map((row) => Number(row.id)),
      CARD_SELECT,
    );
    return { products: await this.products.present(products, currency, now), page, perPage, total, currency, facets };
  }

  /**
   * Full-text search in relevance order, narrowed by the facet selection; an empty query is an empty page, not an
   * error. A search that finds nothing is noted for the CP (not when filters emptied it), written later.
   */
  async search(query: CatalogSearchRequest, currencyCode?: string): Promise<SearchResultsPage> {
    const store = await this.stores.default();
    const { page, perPage } = paging(query);
    const selection = await this.facets.resolve(store.id, query.facets ?? {});
    const narrowing = this.facets.conditions(selection);
    const found = await this.searchIndex.search(store.id, query.q, (page - 1) * perPage, perPage, narrowing);
    if (found.total === 0 && narrowing.length === 0) this.misses.note(store.id, query.q);
    const [currency, facets] = await Promise.all([
      this.currency(currencyCode),
      found.matched ? this.facets.facets([shownProducts(store.id), found.matched], selection) : [],
    ]);
    const products = await this.products.present(await this.products.inOrder(found.ids), currency);
    return { products, page, perPage, total: found.total, currency, facets, didYouMean: found.didYouMean };
  }

  /**
   * The first few products and shown categories for what a shopper has typed so far (2 characters or more),
   * categories whose name has a word beginning with each typed (or corrected) word. Not counted as a search.
   */
  async suggest(q: string, currencyCode?: string): Promise<SearchSuggestions> {
    const currency = await this.currency(currencyCode);
    if (q.trim().length < 2) return { products: [], categories: [], currency, didYouMean: null };
    const store = await this.stores.default();
    const [found, tree] = await Promise.all([
      this.searchIndex.search(store.id, q, 0, SUGGESTED_PRODUCTS),
      this.categories.tree(store.id),
    ]);
    // As typed, or as the search corrected it: a category named "Coffee …" for "cofe" too.
    const spellings = [q, found.didYouMean?.applied ? found.didYouMean.query : ''].map((text) =>
      searchWords(text).map(foldWord),
    );
    const categories = tree
      .shownNodes()
      .filter((node) => {
        const words = foldWord(node.name).match(/[\p{L}\p{N}]+/gu) ?? [];
        return spellings.some(
          (typed) => typed.length > 0 && typed.every((word) => words.some((name) => name.startsWith(word))),
        );
      })
      .sort((a, b) => a.name.localeCompare(b.name))
      .slice(0, SUGGESTED_CATEGORIES)
      .map((node) => ({ name: node.name, url: categoryPath(node.path) }));
    return {
      products: await this.products.present(await this.products.inOrder(found.ids), currency),
      categories,
      currency,
      didYouMean: found.didYouMean,
    };
  }

  /** The product behind `/shop/p/{slug}`, or null when it is missing, disabled or of another store. */
  async productPage(slug: string, currencyCode?: string): Promise<ProductPage | null> {
    const store = await this.stores.default();
    const product = await this.dataSource.getRepository(Product).findOneBy({ slug, storeId: store.id, enabled: true });
    if (!product) return null;
    const currency = await this.currency(currencyCode);
    const now = Date.now();
    const [[summary], variants, safety, related, crossSell, pictures, trail] = await Promise.all([
      this.products.present([product], currency, now),
      this.dataSource.getRepository(ProductVariant).find({ where: { productId: product.id }, order: { id: 'ASC' } }),
      this.dataSource.getRepository(ProductSafety).findOneBy({ productId: product.id }),
      this.products.related([product.id], 'related', { limit: RELATED_ON_PAGE }),
      this.products.related([product.id], 'cross_sell', { limit: RELATED_ON_PAGE }),
      this.images.pagePictures(product.id),
      this.categories.productTrail(product.id),
    ]);
    const priced = variants.map((variant) => variantPriced(product, variant));
    const reductions = await this.history.reductions(
      variants.map((variant, index) => ({ productId: product.id, variantId: variant.id, priced: priced[index] })),
      now,
    );
    return {
      product: {
        ...summary,
        description: product.description,
        images: shownImagePaths(
          pictures.length > 0 ? pictures.map((picture) => picture.src) : product.images,
          this.config.baseUrl,
        ),
        ...(pictures.length > 0 && {
          pictures: pictures.map(({ variantId, ...shown }) => ({
            ...shown,
            variantSku: variants.find((variant) => variant.id === variantId)?.sku ?? null,
          })),
        }),
        variants: await Promise.all(
          variants.map(async (variant, index) => {
            const reduction = await this.products.inCurrency(reductions[index], currency);
            // What the shopper pays now (the sale price while a sale runs): the unit price follows it.
            const price = await this.currencies.fromBase(effectivePrice(priced[index], now), currency);
            return {
              sku: variant.sku,
              options: variant.options,
              price: CurrencyService.major(price, currency),
              reduction: reduction && catalogReduction(reduction, currency),
              stock: variant.stock,
              inStock: variant.stock > 0,
              unitPrice: pricePerUnit(price, netQuantityOf(variant) ?? netQuantityOf(product), currency.decimals),
            };
          }),
        ),
        safety: safety && safetyInfo(safety),
      },
      related: await this.products.present(related, currency),
      crossSell: await this.products.present(crossSell, currency),
      breadcrumbs: trail?.breadcrumbs ?? [],
      moreFromCategory: trail
        ? await this.products.present(await this.inCategories(store.id, trail.categoryIds, product.id), currency, now)
        : [],
      currency,
      meta: { title: product.metaTitle || product.name, description: product.metaDescription },
    };
  }

  /** A few other visible products of the categories, by name. */
  private inCategories(storeId: number, categoryIds: number[], exceptProductId: number): Promise<Product[]> {
    const shown = shownProducts(storeId);
    return this.dataSource
      .getRepository(Product)
      .createQueryBuilder('p')
      .select(CARD_COLUMNS.map((column) => `p.${column}`))
      .where(shown.sql, shown.params)
      .andWhere('p.id <> :exceptProductId', { exceptProductId })
      .andWhere(IN_CATEGORIES, { categoryIds })
      .orderBy(this.orders.name[0][0], 'ASC')
      .addOrderBy('p.id', 'ASC')
      .take(RELATED_ON_PAGE)
      .getMany();
  }
}

function paging(query: CatalogPaging): { page: number; perPage: number } {
  return { page: query.page, perPage: Math.min(query.perPage, MAX_PER_PAGE) };
}
