import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { In, ObjectLiteral } from 'typeorm';
import { toMinor } from '../../common/money';
import { urlSlug } from '../../common/slug';
import { AttributeValues } from '../attributes/attribute-rules';
import { ProductAttributes } from '../attributes/product-attributes.service';
import { AuditLog } from '../audit/audit-log.service';
import { categoryEntryKey, ensureCategories, replaceProductCategories } from '../categories/category-import';
import { ShopCategories } from '../categories/shop-categories.service';
import { TransactionRunner, Tx } from '../../database/transaction-runner';
import { NetUnit, parseNetQuantity } from './net-quantity';
import { ImageRejection, ImportImageSources } from './import-image-sources';
import { PriceHistory } from './price-history.service';
import { ImportedImage, ProductImages } from './product-images.service';
import type { TaxClass } from '../tax/tax-class';
import { ProductRelation } from './product-relation.entity';
import { SafetyInfo } from './product-safety';
import { ProductSafety } from './product-safety.entity';
import { ProductVariant } from './product-variant.entity';
import { Product, ProductOption } from './product.entity';
import { Priced, PRICED_COLUMNS, SaleInput, saleProblems, settleSale } from './sale-price';
import { StockLevel, StockService } from './stock.service';

/** A sale of an import row: major units of the base currency, times as epoch ms (null: from now, until removed). */
export interface ImportSale {
  price: number;
  startsAt: number | null;
  endsAt: number | null;
}

/** One product of an import file (docs/demo-catalog.md); prices in major units of the store's base currency. */
export interface ProductImportRow extends NetQuantityFields {
  sku: string;
  name: string;
  slug?: string;
  price: number;
  sale?: ImportSale;
  stock: number;
  visible?: boolean;
  weight?: number;
  /** The VAT class (docs/shop.md, _VAT by destination_); standard when not given. */
  taxClass?: TaxClass;
  description?: string;
  /** The page's title and meta description (empty when not given). */
  metaTitle?: string;
  metaDescription?: string;
  images?: string[];
  options?: ProductOption[];
  variants?: Array<
    {
      sku: string;
      options: Record<string, string>;
      price?: number;
      sale?: ImportSale;
      stock: number;
    } & NetQuantityFields
  >;
  related?: string[];
  crossSell?: string[];
  /** The product's safety data; a row without it leaves the product without any. */
  safety?: SafetyInfo;
  /**
   * Paths of category names from the top down (`Coffee/Brewing`), missing categories created; the first is the
   * primary one. The product's whole category set: a row without it leaves the product in none.
   */
  categories?: string[];
  /** The product's own attribute values by code (its variants' come from their options); none when left out. */
  attributes?: AttributeValues;
}

/** A net quantity in `netUnit` (250 g, 0.75 l), both or neither: what the unit price is computed from. */
export interface NetQuantityFields {
  netQuantity?: number;
  netUnit?: NetUnit;
}

/** A row left out because it clashes with what the database holds; `index` is its position in the batch. */
export interface ImportRejection {
  index: number;
  sku: string;
  message: string;
}

export interface ImportSummary {
  created: number;
  updated: number;
  rejected: ImportRejection[];
  /** Pictures left out of rows that were imported without them. */
  rejectedImages: ImageRejection[];
}

export interface ImportOptions {
  /** Digits after the point of the store's base currency (2 unless told). */
  decimals?: number;
  /**
   * Replace each row's related and cross-sell lists in the same transaction (the default). A caller that
   * imports in several batches passes false and calls `importRelations` once every batch is in, so a list
   * may name products of later batches.
   */
  relations?: boolean;
  /** The folder file paths in `images` are relative to (the import file's); without it they are refused. */
  imageFolder?: string;
  /** Who imports (`cli`, `cp:<email>`): the batch's audit entry names them. Without it nothing is audited (the demo seed). */
  actor?: string;
}

/** Rows per multi-row INSERT: well inside both databases' limits on bound parameters. */
const INSERT_CHUNK = 100;

interface Known {
  products: Map<string, Pick<Product, 'id' | 'sku' | 'storeId' | 'slug' | keyof Priced>>;
  variants: Map<string, Pick<ProductVariant, 'id' | 'sku' | 'productId' | keyof Priced>>;
  /** slug → SKU of the product holding it, including slugs claimed earlier in this batch. */
  slugOwners: Map<string, string>;
}

/** The stock levels a batch sets, by product id; each level's variants are filled in as they are written. */
type StockLevels = Map<number, StockLevel & { variants: Map<number, number> }>;

/**
 * Creates or updates products by SKU, so importing the same file twice changes nothing the second time.
 * A batch is one transaction and works in set-sized statements (one lookup per kind, multi-row inserts),
 * so ten thousand products take seconds, not minutes.
 */
@Injectable()
export class ProductImportService {
  constructor(
    private readonly runner: TransactionRunner,
    private readonly stock: StockService,
    private readonly history: PriceHistory,
    private readonly imageSources: ImportImageSources,
    private readonly images: ProductImages,
    private readonly audit: AuditLog,
    private readonly shopCategories: ShopCategories,
    private readonly attributes: ProductAttributes,
  ) {}

  /**
   * Imports one batch of rows already checked for shape (sku, prices, options); rows that clash with the
   * database (a SKU of another store, a slug or variant SKU owned by another product, a sale that would end
   * before it starts) are left out whole. Changed prices and sales go into the price history in the same
   * transaction. The pictures the rows name are fetched and stored first, outside it (import-image-sources.ts);
   * one that cannot be is reported and left out, not its row.
   */
  async importBatch(storeId: number, rows: ProductImportRow[], options: ImportOptions = {}): Promise<ImportSummary> {
    const decimals = options.decimals ?? 2;
    if (rows.length === 0) return { created: 0, updated: 0, rejected: [], rejectedImages: [] };
    const pictures = await this.imageSources.resolve(rows, options.imageFolder ?? null);
    return this.runner.run(async (tx) => {
      const now = Date.now();
      const known = await this.loadKnown(tx, rows);
      const summary: ImportSummary = { created: 0, updated: 0, rejected: [], rejectedImages: [] };
      const inserts: Array<Partial<Product>> = [];
      const accepted: ProductImportRow[] = [];
      const acceptedIndexes: number[] = [];
      // Products already there get their stock through StockService, which announces restocks; new ones are
      // written with theirs.
      const levels: StockLevels = new Map();
      for (const [index, row] of rows.entries()) {
        const existing = known.products.get(row.sku);
        const clash = this.clash(row, storeId, known) ?? saleClash(row, known, decimals, now);
        if (clash) {
          summary.rejected.push({ index, sku: row.sku, message: clash });
          continue;
        }
        const slug = row.slug ?? existing?.slug ?? this.freeSlug(row, known);
        known.slugOwners.set(slug, row.sku);
        const { stock, ...fields } = productFields(
          { ...row, images: pictures.sitePaths.get(index) ?? row.images },
          storeId,
          slug,
          decimals,
          settleSale(existing ?? null, sale(row, decimals), now),
        );
        if (existing) {
          await tx.manager.update(Product, { id: existing.id }, fields);
          levels.set(existing.id, { productId: existing.id, stock, variants: new Map() });
          summary.updated++;
        } else {
          inserts.push({ ...fields, stock });
          summary.created++;
        }
        accepted.push(row);
        acceptedIndexes.push(index);
      }
      await insertChunked(tx, Product, inserts);
      const ids = await this.idsBySku(
        tx,
        accepted.map((row) => row.sku),
      );
      await this.upsertVariants(tx, accepted, ids, known, decimals, levels, now);
      await this.replaceSafety(tx, accepted, ids);
      await this.replaceCategories(tx, storeId, accepted, ids);
      await this.writeAttributes(tx, storeId, accepted, ids);
      await this.stock.set(tx, [...levels.values()]);
      await this.history.record(tx, [...ids.values()], now);
      if (options.relations ?? true) await this.replaceRelations(tx, accepted, ids);
      await this.replaceImages(tx, acceptedIndexes, rows, ids, pictures.stored);
      const imported = new Set(acceptedIndexes);
      summary.rejectedImages = pictures.rejected.filter((rejection) => imported.has(rejection.index));
      if (options.actor && accepted.length > 0) {
        await this.audit.record(tx.manager, {
          actor: options.actor,
          area: 'product',
          action: 'imported',
          subject: 'catalog',
          subjectLabel: `${summary.created} created, ${summary.updated} updated`,
          changes: {
            created: { from: null, to: accepted.filter((row) => !known.products.has(row.sku)).map((row) => row.sku) },
            updated: { from: null, to: accepted.filter((row) => known.products.has(row.sku)).map((row) => row.sku) },
          },
        });
      }
      return summary;
    });
  }

  /** Replaces the related and cross-sell lists of rows already imported; unknown SKUs in a list are skipped. */
  async importRelations(rows: ProductImportRow[]): Promise<void> {
    await this.runner.run(async (tx) => {
      const ids = await this.idsBySku(
        tx,
        rows.map((row) => row.sku),
      );
      await this.replaceRelations(
        tx,
        rows.filter((row) => ids.has(row.sku)),
        ids,
      );
    });
  }

  private async loadKnown(tx: Tx, rows: ProductImportRow[]): Promise<Known> {
    const products = await tx.manager.find(Product, {
      where: { sku: In(rows.map((row) => row.sku)) },
      select: { id: true, sku: true, storeId: true, slug: true, ...PRICED_COLUMNS },
    });
    const variantSkus = rows.flatMap((row) => (row.variants ?? []).map((variant) => variant.sku));
    const variants =
      variantSkus.length === 0
        ? []
        : await tx.manager.find(ProductVariant, {
            where: { sku: In(variantSkus) },
            select: { id: true, sku: true, productId: true, ...PRICED_COLUMNS },
          });
    const wantedSlugs = rows.flatMap((row) => (row.slug ? [row.slug] : slugCandidates(row)));
    const slugged = await tx.manager.find(Product, {
      where: { slug: In(wantedSlugs) },
      select: { sku: true, slug: true },
    });
    return {
      products: new Map(products.map((product) => [product.sku, product])),
      variants: new Map(variants.map((variant) => [variant.sku, variant])),
      slugOwners: new Map([...slugged, ...products].map((product) => [product.slug, product.sku])),
    };
  }

  /** Why the row cannot be written without touching another product, or null. */
  private clash(row: ProductImportRow, storeId: number, known: Known): string | null {
    const existing = known.products.get(row.sku);
    if (existing && existing.storeId !== storeId) return `SKU ${row.sku} belongs to another store`;
    for (const variant of row.variants ?? []) {
      const owner = known.variants.get(variant.sku);
      if (owner && owner.productId !== existing?.id) {
        return `variant SKU ${variant.sku} belongs to another product`;
      }
    }
    if (row.slug) {
      const owner = known.slugOwners.get(row.slug);
      if (owner !== undefined && owner !== row.sku) return `slug ${row.slug} is already used by SKU ${owner}`;
    } else if (!existing && slugCandidates(row).every((slug) => known.slugOwners.has(slug))) {
      return `no free slug for ${row.name}; give the row a slug`;
    }
    return null;
  }

  /** The name's slug, or, when another product has it, the name's slug with the SKU's. */
  private freeSlug(row: ProductImportRow, known: Known): string {
    return slugCandidates(row).find((slug) => !known.slugOwners.has(slug))!;
  }

  private async idsBySku(tx: Tx, skus: string[]): Promise<Map<string, number>> {
    if (skus.length === 0) return new Map();
    const products = await tx.manager.find(Product, { where: { sku: In(skus) }, select: { id: true, sku: true } });
    return new Map(products.map((product) => [product.sku, product.id]));
  }

  private async upsertVariants(
    tx: Tx,
    rows: ProductImportRow[],
    ids: Map<string, number>,
    known: Known,
    decimals: number,
    levels: StockLevels,
    now: number,
  ): Promise<void> {
    const inserts: Array<Partial<ProductVariant>> = [];
    for (const row of rows) {
      for (const variant of row.variants ?? []) {
        const existing = known.variants.get(variant.sku);
        const values = {
          productId: ids.get(row.sku)!,
          sku: variant.sku,
          options: variant.options,
          price: variant.price === undefined ? null : toMinor(variant.price, decimals),
          ...netQuantityColumns(variant),
          ...settleSale(existing ?? null, sale(variant, decimals), now),
        };
        if (existing) {
          await tx.manager.update(ProductVariant, { id: existing.id }, values);
          // A variant already there belongs to a product already there (`clash` refuses any other).
          levels.get(existing.productId)!.variants.set(existing.id, variant.stock);
        } else inserts.push({ ...values, stock: variant.stock });
      }
    }
    await insertChunked(tx, ProductVariant, inserts);
  }

  /**
   * A row without `images` leaves its product's pictures alone; one with a list makes what it stored the product's
   * pictures. Products with none before and none now (most of a catalog of site paths) are not touched.
   */
  private async replaceImages(
    tx: Tx,
    indexes: number[],
    rows: ProductImportRow[],
    ids: Map<string, number>,
    stored: Map<number, ImportedImage[]>,
  ): Promise<void> {
    const listed = indexes.filter((index) => stored.has(index));
    if (listed.length === 0) return;
    const withPictures = await this.images.productsWithPictures(
      tx,
      listed.map((index) => ids.get(rows[index].sku)!),
    );
    for (const index of listed) {
      const productId = ids.get(rows[index].sku)!;
      const images = stored.get(index)!;
      if (images.length > 0 || withPictures.has(productId)) await this.images.replaceImported(tx, productId, images);
    }
  }

  /** The rows' own attribute values (a row without them has none) and the values their variants carry. */
  private async writeAttributes(tx: Tx, storeId: number, rows: ProductImportRow[], ids: Map<string, number>) {
    await this.attributes.setProductValues(
      tx,
      storeId,
      new Map(rows.map((row) => [ids.get(row.sku)!, row.attributes ?? {}])),
    );
    await this.attributes.syncVariantValues(
      tx,
      storeId,
      rows.filter((row) => row.variants?.length).map((row) => ids.get(row.sku)!),
    );
  }

  private async replaceSafety(tx: Tx, rows: ProductImportRow[], ids: Map<string, number>): Promise<void> {
    if (rows.length === 0) return;
    await tx.manager.delete(ProductSafety, { productId: In(rows.map((row) => ids.get(row.sku)!)) });
    await insertChunked(
      tx,
      ProductSafety,
      rows.flatMap((row) => (row.safety ? [{ ...row.safety, productId: ids.get(row.sku)! }] : [])),
    );
  }

  /** Each row's categories, created where missing, become its product's whole category set. */
  private async replaceCategories(
    tx: Tx,
    storeId: number,
    rows: ProductImportRow[],
    ids: Map<string, number>,
  ): Promise<void> {
    const entries = rows.flatMap((row) => row.categories ?? []);
    const idOfEntry = await ensureCategories(tx, storeId, entries);
    await replaceProductCategories(
      tx,
      rows.map((row) => ({
        productId: ids.get(row.sku)!,
        categoryIds: (row.categories ?? []).map((entry) => idOfEntry.get(categoryEntryKey(entry))!),
      })),
    );
    // New categories show in menus at once on this instance; the tree is read again after the commit.
    if (entries.length > 0) tx.afterCommit(() => this.shopCategories.forget());
  }

  private async replaceRelations(tx: Tx, rows: ProductImportRow[], ids: Map<string, number>): Promise<void> {
    if (rows.length === 0) return;
    await tx.manager.delete(ProductRelation, { productId: In(rows.map((row) => ids.get(row.sku)!)) });
    const targets = await this.idsBySku(tx, [
      ...new Set(rows.flatMap((row) => [...(row.related ?? []), ...(row.crossSell ?? [])])),
    ]);
    const relations: Array<Partial<ProductRelation>> = [];
    for (const row of rows) {
      const productId = ids.get(row.sku)!;
      for (const [kind, list] of [
        ['related', row.related ?? []],
        ['cross_sell', row.crossSell ?? []],
      ] as const) {
        const related = [...new Set(list)].filter((sku) => targets.has(sku) && sku !== row.sku);
        related.forEach((sku, position) =>
          relations.push({ productId, relatedProductId: targets.get(sku)!, kind, position }),
        );
      }
    }
    await insertChunked(tx, ProductRelation, relations);
  }
}

/** The sale a row (or a variant of one) asks for, in minor units. */
function sale(row: { sale?: ImportSale }, decimals: number): SaleInput {
  return {
    salePrice: row.sale ? toMinor(row.sale.price, decimals) : null,
    saleStartsAt: row.sale?.startsAt ?? null,
    saleEndsAt: row.sale?.endsAt ?? null,
  };
}

/**
 * Why the sales of a row cannot be stored, or null. The file's shape is checked already; what is left is a sale
 * that ends before it can start, as a sale that does not start in the future starts now.
 */
function saleClash(row: ProductImportRow, known: Known, decimals: number, now: number): string | null {
  const priced = [
    { sku: row.sku, price: row.price, sale: row.sale, current: known.products.get(row.sku) },
    ...(row.variants ?? []).map((variant) => ({ ...variant, current: known.variants.get(variant.sku) })),
  ];
  for (const { sku, price, sale: wanted, current } of priced) {
    if (!wanted || price === undefined) continue;
    const settled = settleSale(current ?? null, sale({ sale: wanted }, decimals), now);
    const problem = saleProblems(toMinor(price, decimals), settled)[0];
    if (problem)
      return `the sale of ${sku} ${problem.field === 'saleEndsAt' ? 'ends before it can start' : problem.rule}`;
  }
  return null;
}

function productFields(
  row: ProductImportRow,
  storeId: number,
  slug: string,
  decimals: number,
  settledSale: SaleInput,
): Partial<Product> & Pick<Product, 'stock'> {
  const variants = row.variants ?? [];
  return {
    storeId,
    sku: row.sku,
    slug,
    name: row.name,
    description: row.description ?? '',
    metaTitle: row.metaTitle ?? '',
    metaDescription: row.metaDescription ?? '',
    type: variants.length > 0 ? 'configurable' : 'simple',
    price: toMinor(row.price, decimals),
    ...settledSale,
    stock: variants.length > 0 ? variants.reduce((sum, variant) => sum + variant.stock, 0) : row.stock,
    weightGrams: row.weight ?? 0,
    taxClass: row.taxClass ?? 'standard',
    visible: row.visible ?? true,
    images: row.images ?? [],
    options: row.options ?? [],
    ...netQuantityColumns(row),
  };
}

/** The stored form of a row's net quantity (thousandths of the unit), or none. */
function netQuantityColumns(row: NetQuantityFields): Pick<Product, 'netQuantity' | 'netUnit'> {
  const quantity = row.netUnit === undefined ? null : parseNetQuantity(row.netQuantity);
  return quantity === null ? { netQuantity: null, netUnit: null } : { netQuantity: quantity, netUnit: row.netUnit! };
}

/** Multi-row inserts without reading generated columns back (TypeORM would re-select every row). */
async function insertChunked<T extends ObjectLiteral>(
  tx: Tx,
  target: new () => T,
  rows: Array<Partial<T>>,
): Promise<void> {
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    await tx.manager
      .createQueryBuilder()
      .insert()
      .into(target)
      .values(rows.slice(start, start + INSERT_CHUNK) as never)
      .updateEntity(false)
      .execute();
  }
}

/** Slugs a new product may take, in order of preference: its name's, then its name's with its SKU's. */
function slugCandidates(row: ProductImportRow): string[] {
  const base = (slugify(row.name) || 'product').slice(0, 150).replace(/-+$/, '');
  const suffix = slugify(row.sku) || createHash('sha1').update(row.sku).digest('hex').slice(0, 8);
  return [base, `${base}-${suffix.slice(0, 40)}`];
}

/** "Café Filter Papers" → "cafe-filter-papers"; a product's `&` reads "and" ("Salt & Pepper" → "salt-and-pepper"). */
export function slugify(text: string): string {
  return urlSlug(text.replace(/&/g, ' and '));
}
