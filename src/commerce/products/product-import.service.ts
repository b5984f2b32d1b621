import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { toMinor } from '../../common/money';
import { TransactionRunner, Tx } from '../../database/transaction-runner';
import { ProductRelation, ProductRelationKind } from './product-relation.entity';
import { ProductVariant } from './product-variant.entity';
import { Product, ProductOption } from './product.entity';

/** One product of an import file (DESIGN.md §4); prices in major units of the store's base currency. */
export interface ProductImportRow {
  sku: string;
  name: string;
  slug?: string;
  price: number;
  stock: number;
  visible?: boolean;
  weight?: number;
  description?: string;
  images?: string[];
  options?: ProductOption[];
  variants?: Array<{ sku: string; options: Record<string, string>; price?: number; stock: number }>;
  related?: string[];
  crossSell?: string[];
}

export interface ImportSummary {
  created: number;
  updated: number;
}

/** Creates or updates products by SKU, so importing the same file twice changes nothing the second time. */
@Injectable()
export class ProductImportService {
  constructor(private readonly runner: TransactionRunner) {}

  /** Imports one batch in one transaction; relations may point at products of this batch or earlier ones. */
  async importBatch(storeId: number, rows: ProductImportRow[], decimals = 2): Promise<ImportSummary> {
    return this.runner.run(async (tx) => {
      const summary: ImportSummary = { created: 0, updated: 0 };
      for (const row of rows) {
        const created = await this.upsertProduct(tx, storeId, row, decimals);
        summary[created ? 'created' : 'updated']++;
      }
      for (const row of rows) {
        await this.replaceRelations(tx, row.sku, 'related', row.related ?? []);
        await this.replaceRelations(tx, row.sku, 'cross_sell', row.crossSell ?? []);
      }
      return summary;
    });
  }

  private async upsertProduct(tx: Tx, storeId: number, row: ProductImportRow, decimals: number): Promise<boolean> {
    const variants = row.variants ?? [];
    const fields: Partial<Product> = {
      storeId,
      sku: row.sku,
      slug: row.slug ?? slugify(row.name),
      name: row.name,
      description: row.description ?? '',
      type: variants.length > 0 ? 'configurable' : 'simple',
      price: toMinor(row.price, decimals),
      stock: variants.length > 0 ? variants.reduce((sum, variant) => sum + variant.stock, 0) : row.stock,
      weightGrams: row.weight ?? 0,
      visible: row.visible ?? true,
      images: row.images ?? [],
      options: row.options ?? [],
    };
    const existing = await tx.manager.findOne(Product, { where: { sku: row.sku }, select: { id: true } });
    const productId = existing ? existing.id : (await tx.manager.insert(Product, fields)).identifiers[0].id;
    if (existing) await tx.manager.update(Product, { id: existing.id }, fields);

    for (const variant of variants) {
      const values = {
        productId,
        sku: variant.sku,
        options: variant.options,
        price: variant.price === undefined ? null : toMinor(variant.price, decimals),
        stock: variant.stock,
      };
      const known = await tx.manager.findOne(ProductVariant, { where: { sku: variant.sku }, select: { id: true } });
      if (known) await tx.manager.update(ProductVariant, { id: known.id }, values);
      else await tx.manager.insert(ProductVariant, values);
    }
    return !existing;
  }

  private async replaceRelations(tx: Tx, sku: string, kind: ProductRelationKind, targets: string[]): Promise<void> {
    const product = await tx.manager.findOneOrFail(Product, { where: { sku }, select: { id: true } });
    await tx.manager.delete(ProductRelation, { productId: product.id, kind });
    if (targets.length === 0) return;
    const related = await tx.manager.find(Product, { where: { sku: In(targets) }, select: { id: true, sku: true } });
    const idBySku = new Map(related.map((item) => [item.sku, item.id]));
    const rows = targets
      .filter((target) => idBySku.has(target) && target !== sku)
      .map((target, position) => ({ productId: product.id, relatedProductId: idBySku.get(target)!, kind, position }));
    if (rows.length > 0) await tx.manager.insert(ProductRelation, rows);
  }
}

/** "Café Filter Papers" → "cafe-filter-papers" */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
