import { Inject, Injectable, Optional } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { categoryPath, CategoryTree } from '../categories/category-tree';
import { Category } from '../categories/category.entity';
import { CONTENT_PAGE_SLUGS } from '../content/content-page-slugs';
import { ContentPages } from '../content/content-pages.service';
import { productUrl } from '../products/catalog-product';
import { Product } from '../products/product.entity';
import { shownProducts } from '../products/shown-products';
import { StoreService } from '../stores/store.service';

/** The most URLs one sitemap file may list (sitemaps.org). */
export const SITEMAP_MAX_URLS = 50_000;

/** Injection token of the URLs per sitemap page: SITEMAP_MAX_URLS unless a test provides a smaller one. */
export const SITEMAP_PAGE_SIZE = 'SITEMAP_PAGE_SIZE';

export const SITEMAP_KINDS = ['products', 'categories', 'pages'] as const;
export type SitemapKind = (typeof SITEMAP_KINDS)[number];

export interface SitemapUrl {
  loc: string;
  lastmod: Date | null;
}

/** One page of the index: `/sitemap-<kind>-<n>.xml`, with the newest change of what it lists. */
export interface SitemapPage {
  kind: SitemapKind;
  n: number;
  lastmod: Date | null;
}

/** Products are read from the database in chunks of this many, in id order (keyset, never OFFSET). */
const PRODUCT_CHUNK = 1000;

/**
 * The sitemap: the shown products, categories and content pages as absolute URLs on the base URL. Each kind is split
 * into pages by id range (page n holds ids (n-1)·size+1 … n·size), so a product stays on its page as others come and
 * go and no page is ever longer than the page size; a range with nothing shown has no page.
 */
@Injectable()
export class SitemapService {
  private readonly sqlite: boolean;

  constructor(
    private readonly dataSource: DataSource,
    private readonly stores: StoreService,
    private readonly contentPages: ContentPages,
    @InjectConfig() private readonly config: AppConfig,
    @Optional() @Inject(SITEMAP_PAGE_SIZE) private readonly pageSize: number = SITEMAP_MAX_URLS,
  ) {
    this.sqlite = dataSource.options.type === 'better-sqlite3';
  }

  /** Every page of the index, products first. */
  async index(): Promise<SitemapPage[]> {
    const [products, categories, pages] = await Promise.all([
      this.productPages(),
      this.categoryUrls(),
      this.otherPageUrls(),
    ]);
    return [
      ...products,
      ...this.pagesOf(
        'categories',
        categories.map(({ id, url }) => [id, url] as const),
      ),
      ...this.pagesOf(
        'pages',
        pages.map((url, index) => [index + 1, url] as const),
      ),
    ];
  }

  /** The URLs of one page, read as they are written out; null when there is no such page. */
  async page(kind: SitemapKind, n: number): Promise<AsyncIterable<SitemapUrl> | null> {
    const [from, to] = [(n - 1) * this.pageSize, n * this.pageSize];
    if (kind === 'products') {
      const first = await this.productChunk(from, to);
      return first.length === 0 ? null : this.productUrls(first, to);
    }
    const urls =
      kind === 'categories'
        ? (await this.categoryUrls()).filter(({ id }) => id > from && id <= to).map(({ url }) => url)
        : (await this.otherPageUrls()).slice(from, to);
    return urls.length === 0 ? null : iterate(urls);
  }

  /** Only the ranges that list something, each with its newest change: one grouped pass over the shown products. */
  private async productPages(): Promise<SitemapPage[]> {
    const store = await this.stores.default();
    const bucket = this.sqlite ? '(p.id - 1) / :size' : '(p.id - 1) DIV :size';
    const rows = await this.shownQuery(store.id)
      .select(`${bucket}`, 'bucket')
      .addSelect('MAX(p.dateUpdated)', 'lastmod')
      .setParameter('size', this.pageSize)
      .groupBy('bucket')
      .orderBy('bucket', 'ASC')
      .getRawMany<{ bucket: number | string; lastmod: Date | string | null }>();
    return rows.map((row) => ({ kind: 'products', n: Number(row.bucket) + 1, lastmod: rawDate(row.lastmod) }));
  }

  private async *productUrls(first: Product[], to: number): AsyncIterable<SitemapUrl> {
    for (let chunk = first; chunk.length > 0;) {
      for (const product of chunk)
        yield { loc: productUrl(product, this.config.baseUrl), lastmod: product.dateUpdated };
      if (chunk.length < PRODUCT_CHUNK) return;
      chunk = await this.productChunk(chunk[chunk.length - 1].id, to);
    }
  }

  /** The next shown products after id `after`, up to id `to`. */
  private async productChunk(after: number, to: number): Promise<Product[]> {
    const store = await this.stores.default();
    return this.shownQuery(store.id)
      .select(['p.id', 'p.slug', 'p.dateUpdated'])
      .andWhere('p.id > :after AND p.id <= :to', { after, to })
      .orderBy('p.id', 'ASC')
      .limit(PRODUCT_CHUNK)
      .getMany();
  }

  /** What the listing shows (an archived product is hidden and disabled). */
  private shownQuery(storeId: number) {
    const shown = shownProducts(storeId);
    return this.dataSource.getRepository(Product).createQueryBuilder('p').where(shown.sql, shown.params);
  }

  /** The shown categories (own and every ancestor's flag), in id order. */
  private async categoryUrls(): Promise<Array<{ id: number; url: SitemapUrl }>> {
    const store = await this.stores.default();
    const [tree, changes] = await Promise.all([
      CategoryTree.load(this.dataSource.manager, store.id),
      this.dataSource
        .getRepository(Category)
        .find({ select: { id: true, dateUpdated: true }, where: { storeId: store.id } }),
    ]);
    const changed = new Map(changes.map((row) => [row.id, row.dateUpdated]));
    return tree
      .shownNodes()
      .sort((a, b) => a.id - b.id)
      .map((node) => ({
        id: node.id,
        url: { loc: `${this.config.baseUrl}${categoryPath(node.path)}`, lastmod: changed.get(node.id) ?? null },
      }));
  }

  /** The home page (changed when a product last did) and the content pages (when any language's text last did). */
  private async otherPageUrls(): Promise<SitemapUrl[]> {
    const store = await this.stores.default();
    const [newest, versions] = await Promise.all([
      this.shownQuery(store.id).select('MAX(p.dateUpdated)', 'lastmod').getRawOne<{ lastmod: Date | string }>(),
      this.contentPages.all(),
    ]);
    const content = CONTENT_PAGE_SLUGS.map((slug) => ({
      loc: `${this.config.baseUrl}/shop/page/${slug}`,
      lastmod: latest(versions.filter((page) => page.slug === slug).map((page) => page.dateCreated)),
    }));
    return [{ loc: `${this.config.baseUrl}/`, lastmod: rawDate(newest?.lastmod ?? null) }, ...content];
  }

  private pagesOf(kind: SitemapKind, urls: ReadonlyArray<readonly [number, SitemapUrl]>): SitemapPage[] {
    const pages = new Map<number, SitemapPage>();
    for (const [position, url] of urls) {
      const n = Math.floor((position - 1) / this.pageSize) + 1;
      const page = pages.get(n) ?? { kind, n, lastmod: null };
      page.lastmod = latest([page.lastmod, url.lastmod]);
      pages.set(n, page);
    }
    return [...pages.values()].sort((a, b) => a.n - b.n);
  }
}

async function* iterate<T>(items: T[]): AsyncIterable<T> {
  yield* items;
}

function latest(dates: Array<Date | null>): Date | null {
  return dates.reduce<Date | null>((newest, date) => (date && (!newest || date > newest) ? date : newest), null);
}

/** A timestamp read raw: a Date from MariaDB, SQLite's UTC text `YYYY-MM-DD HH:MM:SS` otherwise. */
function rawDate(value: Date | string | null): Date | null {
  if (value === null) return null;
  if (value instanceof Date) return value;
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value.replace(' ', 'T')}Z`);
}
