import { ProductAttributes } from '../attributes/product-attributes.service';
import { Injectable } from '@nestjs/common';
import { DataSource, In, IsNull } from 'typeorm';
import { toMajor } from '../../common/money';
import { AuditLog } from '../audit/audit-log.service';
import { CategoryTree } from '../categories/category-tree';
import { ProductCategory } from '../categories/product-category.entity';
import { CurrencyService } from '../stores/currency.service';
import { StoreService } from '../stores/store.service';
import { checkImportRows, RowError } from './import-rows';
import { NET_QUANTITY_SCALE, NetUnit } from './net-quantity';
import { ProductImportRow, ProductImportService } from './product-import.service';
import { ProductRelation } from './product-relation.entity';
import { safetyInfo } from './product-safety';
import { ProductSafety } from './product-safety.entity';
import { ProductVariant } from './product-variant.entity';
import { Product } from './product.entity';

/** Rows per transaction: large enough to amortise the lookups, small enough to keep SQLite's lock short. */
const BATCH = 500;

/** A picture left out of an imported row: the row is in, without it. */
export interface ImageError extends RowError {
  image: string;
}

export interface CatalogImportReport {
  created: number;
  updated: number;
  /** Every row left out, by its 1-based line in the file, in file order. */
  rejected: RowError[];
  /** Every picture left out of a row that is in. */
  rejectedImages: ImageError[];
}

export interface CatalogImportOptions {
  /** The folder file paths in `images` are relative to (the import file's); without it they are refused. */
  imageFolder?: string;
  /** Hears of each step done out of `total`. */
  progress?: (done: number, total: number) => void;
}

/**
 * The whole-file catalog import (docs/demo-catalog.md format) the CLI and the CP share, and the export that
 * writes the same format, so an exported file imports back unchanged.
 */
@Injectable()
export class CatalogTransfer {
  constructor(
    private readonly dataSource: DataSource,
    private readonly importer: ProductImportService,
    private readonly stores: StoreService,
    private readonly currencies: CurrencyService,
    private readonly audit: AuditLog,
    private readonly attributes: ProductAttributes,
  ) {}

  /**
   * Creates or updates the default store's products by SKU. Bad rows are reported by line and skipped; relation
   * lists are written once every product is in, so they may name products further down the file.
   */
  async importRows(
    rows: unknown[],
    languages: readonly string[],
    actor: string,
    { imageFolder, progress = () => undefined }: CatalogImportOptions = {},
  ): Promise<CatalogImportReport> {
    const store = await this.stores.default();
    const decimals = (await this.currencies.base()).decimals;
    const { valid, errors } = checkImportRows(rows, decimals, languages);
    const total = valid.length * 2;
    const imported: ProductImportRow[] = [];
    const report: CatalogImportReport = { created: 0, updated: 0, rejected: errors, rejectedImages: [] };
    for (let start = 0; start < valid.length; start += BATCH) {
      const batch = valid.slice(start, start + BATCH);
      const summary = await this.importer.importBatch(
        store.id,
        batch.map(({ row }) => row),
        { decimals, relations: false, actor, imageFolder },
      );
      report.created += summary.created;
      report.updated += summary.updated;
      const rejected = new Set(summary.rejected.map((rejection) => rejection.index));
      for (const rejection of summary.rejected) {
        errors.push({ line: batch[rejection.index].line, sku: rejection.sku, message: rejection.message });
      }
      for (const { index, sku, image, message } of summary.rejectedImages) {
        report.rejectedImages.push({ line: batch[index].line, sku, image, message });
      }
      imported.push(...batch.filter((_, index) => !rejected.has(index)).map(({ row }) => row));
      progress(start + batch.length, total);
    }
    for (let start = 0; start < imported.length; start += BATCH) {
      await this.importer.importRelations(imported.slice(start, start + BATCH));
      progress(valid.length + Math.min(start + BATCH, imported.length), total);
    }
    errors.sort((a, b) => a.line - b.line);
    return report;
  }

  /** The default store's products that are not archived, as rows of the import file, by SKU. */
  async exportRows(): Promise<object[]> {
    const store = await this.stores.default();
    const { decimals } = await this.currencies.base();
    const products = await this.dataSource
      .getRepository(Product)
      .find({ where: { storeId: store.id, archivedAt: IsNull() }, order: { sku: 'ASC' } });
    const ids = products.map((product) => product.id);
    const [variants, relations, safety, places, tree] =
      ids.length === 0
        ? [[], [], [], [], null]
        : await Promise.all([
            this.dataSource.getRepository(ProductVariant).find({ where: { productId: In(ids) }, order: { id: 'ASC' } }),
            this.dataSource
              .getRepository(ProductRelation)
              .find({ where: { productId: In(ids) }, order: { position: 'ASC', id: 'ASC' } }),
            this.dataSource.getRepository(ProductSafety).find({ where: { productId: In(ids) } }),
            this.dataSource
              .getRepository(ProductCategory)
              .find({ where: { productId: In(ids) }, order: { isPrimary: 'DESC', id: 'ASC' } }),
            CategoryTree.load(this.dataSource.manager, store.id),
          ]);
    const attributes = await this.attributes.productValuesOf(this.dataSource.manager, ids);
    const skuOf = new Map(products.map((product) => [product.id, product.sku]));
    // Each product's categories as the import names them (names from the top down), the primary one first.
    const categoriesOf = new Map<number, string[]>();
    for (const place of places) {
      const node = tree!.byIdOf(place.categoryId);
      if (!node) continue;
      const names = tree!.trail(node).map((at) => at.name);
      categoriesOf.set(place.productId, [...(categoriesOf.get(place.productId) ?? []), names.join('/')]);
    }
    const major = (minor: number) => toMajor(minor, decimals);
    const instant = (at: number | null) => (at === null ? null : new Date(at).toISOString());
    const saleOf = (row: Pick<Product, 'salePrice' | 'saleStartsAt' | 'saleEndsAt'>) =>
      row.salePrice === null
        ? {}
        : {
            sale: { price: major(row.salePrice), startsAt: instant(row.saleStartsAt), endsAt: instant(row.saleEndsAt) },
          };
    return products.map((product) => {
      const own = variants.filter((variant) => variant.productId === product.id);
      const linked = (kind: ProductRelation['kind']) =>
        relations
          .filter((relation) => relation.productId === product.id && relation.kind === kind)
          .flatMap((relation) => skuOf.get(relation.relatedProductId) ?? []);
      const productSafety = safety.find((row) => row.productId === product.id);
      return {
        sku: product.sku,
        name: product.name,
        slug: product.slug,
        price: major(product.price),
        ...saleOf(product),
        stock: product.stock,
        visible: product.visible,
        weight: product.weightGrams,
        taxClass: product.taxClass,
        description: product.description,
        metaTitle: product.metaTitle,
        metaDescription: product.metaDescription,
        images: product.images,
        options: product.options,
        ...(own.length === 0
          ? {}
          : {
              variants: own.map((variant) => ({
                sku: variant.sku,
                options: variant.options,
                ...(variant.price === null ? {} : { price: major(variant.price), ...saleOf(variant) }),
                stock: variant.stock,
                ...netQuantityFields(variant),
              })),
            }),
        related: linked('related'),
        crossSell: linked('cross_sell'),
        ...netQuantityFields(product),
        ...(productSafety ? { safety: withoutEmpty(safetyInfo(productSafety)) } : {}),
        categories: categoriesOf.get(product.id) ?? [],
        ...(attributes.has(product.id) ? { attributes: attributes.get(product.id) } : {}),
      };
    });
  }
}

function netQuantityFields(row: Pick<Product, 'netQuantity' | 'netUnit'>) {
  return row.netQuantity === null || row.netUnit === null
    ? {}
    : { netQuantity: row.netQuantity / NET_QUANTITY_SCALE, netUnit: row.netUnit as NetUnit };
}

/** The safety data without its empty fields, which the import format leaves out. */
function withoutEmpty<T extends object>(info: T): T {
  return Object.fromEntries(Object.entries(info).filter(([, value]) => value !== null && value !== '')) as T;
}
