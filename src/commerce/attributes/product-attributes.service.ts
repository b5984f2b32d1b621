import { Injectable } from '@nestjs/common';
import { EntityManager, In, IsNull, Not, ObjectLiteral } from 'typeorm';
import { Tx } from '../../database/transaction-runner';
import { ProductVariant } from '../products/product-variant.entity';
import { boundedSlug } from '../../common/slug';
import { AttributeValue } from './attribute-value.entity';
import { Attribute } from './attribute.entity';
import {
  AttributeValues,
  isAttributeCode,
  MAX_CODE_LENGTH,
  MAX_VALUE_LENGTH,
  nameFromCode,
  valueSlug,
} from './attribute-rules';
import { ProductAttributeValue } from './product-attribute-value.entity';

/** Rows per multi-row INSERT: well inside both databases' limits on bound parameters. */
const INSERT_CHUNK = 100;
/** Ids per `IN (…)` lookup. */
const LOOKUP_CHUNK = 500;

interface WantedRow {
  productId: number;
  variantId: number | null;
  code: string;
  value: string;
}

/**
 * Write side of product attributes, always inside the caller's transaction. Attributes are found by code and
 * values by slug, and made when missing (an existing value keeps the text it was first given); concurrent
 * writers meet at the unique keys, never at a duplicate.
 */
@Injectable()
export class ProductAttributes {
  private writes = 0;

  /**
   * Grows when a write of attributes, their values or products' values commits: cached facet counts (facets.ts)
   * made before are not used after it. After the commit, not before: counts read meanwhile see the old rows.
   */
  get generation(): number {
    return this.writes;
  }

  /** Counts `tx` as a write of attributes once it commits. */
  changed(tx: Tx): void {
    tx.afterCommit(() => this.writes++);
  }

  /** Replaces the product-level values (variantId null) of each product in `values`; an empty set clears them. */
  async setProductValues(tx: Tx, storeId: number, values: Map<number, AttributeValues>) {
    if (values.size === 0) return;
    this.changed(tx);
    const { manager } = tx;
    await manager.delete(ProductAttributeValue, { productId: In([...values.keys()]), variantId: IsNull() });
    const rows: WantedRow[] = [];
    for (const [productId, byCode] of values) {
      for (const [code, texts] of Object.entries(byCode)) {
        for (const value of texts) rows.push({ productId, variantId: null, code, value });
      }
    }
    await this.insertRows(manager, storeId, rows);
  }

  /**
   * Rewrites the variant-carried values of the products from their variants' options: option `colour: Red`
   * is value "Red" of the attribute coded `colour` (the option code as a slug). Called whenever variants are
   * added, changed or removed.
   */
  async syncVariantValues(tx: Tx, storeId: number, productIds: number[]) {
    if (productIds.length === 0) return;
    this.changed(tx);
    const { manager } = tx;
    await manager.delete(ProductAttributeValue, { productId: In(productIds), variantId: Not(IsNull()) });
    const variants = await manager.find(ProductVariant, {
      where: { productId: In(productIds) },
      select: { id: true, productId: true, options: true },
    });
    const rows: WantedRow[] = [];
    for (const variant of variants) {
      for (const [option, value] of Object.entries(variant.options)) {
        const code = boundedSlug(option, MAX_CODE_LENGTH);
        const text = value.trim();
        if (!isAttributeCode(code) || text.length > MAX_VALUE_LENGTH || !valueSlug(text)) continue;
        rows.push({ productId: variant.productId, variantId: variant.id, code, value: text });
      }
    }
    await this.insertRows(manager, storeId, rows);
  }

  /** The product-level values of a product by attribute code, in attribute then value order (the CP form). */
  async productValues(manager: EntityManager, productId: number): Promise<AttributeValues> {
    return (await this.productValuesOf(manager, [productId])).get(productId) ?? {};
  }

  /** The product-level values of each product that has any, as productValues gives them (the catalog export). */
  async productValuesOf(manager: EntityManager, productIds: number[]): Promise<Map<number, AttributeValues>> {
    const result = new Map<number, AttributeValues>();
    for (let start = 0; start < productIds.length; start += LOOKUP_CHUNK) {
      const rows = await manager
        .createQueryBuilder(ProductAttributeValue, 'pav')
        .innerJoin(Attribute, 'a', 'a.id = pav.attributeId')
        .innerJoin(AttributeValue, 'av', 'av.id = pav.attributeValueId')
        .select(['pav.productId AS productId', 'a.code AS code', 'av.value AS value'])
        .where('pav.productId IN (:...ids) AND pav.variantId IS NULL', {
          ids: productIds.slice(start, start + LOOKUP_CHUNK),
        })
        .orderBy('a.position')
        .addOrderBy('a.code')
        .addOrderBy('av.position')
        .addOrderBy('av.value')
        .getRawMany<{ productId: number | string; code: string; value: string }>();
      for (const row of rows) {
        const values = result.get(Number(row.productId)) ?? {};
        (values[row.code] ??= []).push(row.value);
        result.set(Number(row.productId), values);
      }
    }
    return result;
  }

  private async insertRows(manager: EntityManager, storeId: number, wanted: WantedRow[]) {
    if (wanted.length === 0) return;
    const attributes = await this.attributesByCode(manager, storeId, [...new Set(wanted.map((row) => row.code))]);
    const valueIds = await this.valueIds(
      manager,
      wanted.map((row) => ({ attributeId: attributes.get(row.code)!, value: row.value })),
    );
    const seen = new Set<string>();
    const rows: Array<Partial<ProductAttributeValue>> = [];
    for (const row of wanted) {
      const attributeId = attributes.get(row.code)!;
      const attributeValueId = valueIds.get(valueKey(attributeId, valueSlug(row.value)))!;
      // "Cotton" and "cotton" of one product are one value.
      const key = `${row.productId}:${row.variantId}:${attributeValueId}`;
      if (seen.has(key)) continue;
      seen.add(key);
      rows.push({ productId: row.productId, variantId: row.variantId, attributeId, attributeValueId });
    }
    await insertChunked(manager, ProductAttributeValue, rows);
  }

  /** Attribute ids by code, the missing ones created with a name made from the code. */
  private async attributesByCode(manager: EntityManager, storeId: number, codes: string[]) {
    const find = () =>
      manager.find(Attribute, { where: { storeId, code: In(codes) }, select: { id: true, code: true } });
    let found = await find();
    if (found.length < codes.length) {
      const known = new Set(found.map((attribute) => attribute.code));
      const missing = codes.filter((code) => !known.has(code));
      await insertChunked(
        manager,
        Attribute,
        missing.map((code) => ({ storeId, code, name: nameFromCode(code), position: 0, filterable: true })),
        true,
      );
      found = await find();
    }
    return new Map(found.map((attribute) => [attribute.code, attribute.id]));
  }

  /** Value ids by `attributeId:slug`, the missing values created with the text first asked for. */
  private async valueIds(manager: EntityManager, wanted: Array<{ attributeId: number; value: string }>) {
    const bySlug = new Map<string, { attributeId: number; value: string; slug: string }>();
    for (const { attributeId, value } of wanted) {
      const slug = valueSlug(value);
      const key = valueKey(attributeId, slug);
      if (!bySlug.has(key)) bySlug.set(key, { attributeId, value, slug });
    }
    const find = async () => {
      const ids = new Map<string, number>();
      const attributeIds = [...new Set(wanted.map((item) => item.attributeId))];
      const slugs = [...new Set([...bySlug.values()].map((item) => item.slug))];
      for (let start = 0; start < slugs.length; start += LOOKUP_CHUNK) {
        const rows = await manager.find(AttributeValue, {
          where: { attributeId: In(attributeIds), slug: In(slugs.slice(start, start + LOOKUP_CHUNK)) },
          select: { id: true, attributeId: true, slug: true },
        });
        for (const row of rows) ids.set(valueKey(row.attributeId, row.slug), row.id);
      }
      return ids;
    };
    let ids = await find();
    const missing = [...bySlug.entries()].filter(([key]) => !ids.has(key)).map(([, item]) => item);
    if (missing.length > 0) {
      await insertChunked(
        manager,
        AttributeValue,
        missing.map((item) => ({ ...item, position: 0 })),
        true,
      );
      ids = await find();
    }
    return ids;
  }
}

function valueKey(attributeId: number, slug: string): string {
  return `${attributeId}:${slug}`;
}

/** Multi-row inserts; `orIgnore` skips rows a concurrent writer inserted first (found by the unique key). */
async function insertChunked<T extends ObjectLiteral>(
  manager: EntityManager,
  target: new () => T,
  rows: Array<Partial<T>>,
  orIgnore = false,
): Promise<void> {
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    const insert = manager
      .createQueryBuilder()
      .insert()
      .into(target)
      .values(rows.slice(start, start + INSERT_CHUNK) as never)
      .updateEntity(false);
    if (orIgnore) insert.orIgnore();
    await insert.execute();
  }
}
