import { Injectable } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import { AttributeValue } from '../attributes/attribute-value.entity';
import { ProductAttributes } from '../attributes/product-attributes.service';
import { Attribute } from '../attributes/attribute.entity';
import type { ProductCondition } from '../products/shown-products';
import { ExpiringCache, refreshingCache } from '../../common/expiring-cache';
import { FacetPostings } from './facet-postings';
import { ResultSetIds, scopeKey } from './result-set-ids';

export type { ProductCondition } from '../products/shown-products';

/** The filter values a shopper chose: value slugs by attribute code (`f.colour=red,blue`). */
export type FacetSelection = Record<string, string[]>;

export interface FacetValue {
  slug: string;
  value: string;
  /** Products of the result set with this value once it is added to the selection. */
  count: number;
  selected: boolean;
}

export interface Facet {
  code: string;
  name: string;
  values: FacetValue[];
}

/** The selection as ids: filterable attributes of the store and their known values only. */
export interface ResolvedSelection {
  attributes: Array<Pick<Attribute, 'id' | 'code' | 'name' | 'position'>>;
  chosen: Array<{ attributeId: number; valueIds: number[] }>;
}

/**
 * Facet filters and counts of the listing, category and search pages. Values of one attribute are OR-ed,
 * attributes AND-ed. Counts are disjunctive: an attribute's counts apply every condition but its own selection,
 * so each says how many products the shopper gets by adding that value. A product counts once per value,
 * whether it has the value itself or through one or more variants. Unknown attributes and values in the
 * selection are ignored (a shared link outlives a renamed value); only their form is refused, by the DTO.
 */
@Injectable()
export class FacetService {
  private readonly cached = new Map<string, { until: number; generation: number; facets: Promise<Facet[]> }>();
  private readonly scopeIds: ResultSetIds;
  private readonly postingsCache: ExpiringCache<FacetPostings>;
  private postingsGeneration = -1;

  constructor(
    private readonly dataSource: DataSource,
    private readonly writes: ProductAttributes,
  ) {
    this.scopeIds = new ResultSetIds(dataSource);
    this.postingsCache = refreshingCache(POSTINGS_FRESH_MS, () => FacetPostings.load(dataSource));
  }

  async resolve(storeId: number, selection: FacetSelection): Promise<ResolvedSelection> {
    const attributes = await this.dataSource.getRepository(Attribute).find({
      where: { storeId, filterable: true },
      select: { id: true, code: true, name: true, position: true },
    });
    const byCode = new Map(attributes.map((attribute) => [attribute.code, attribute]));
    const wanted = Object.entries(selection).filter(([code, slugs]) => byCode.has(code) && slugs.length > 0);
    if (wanted.length === 0) return { attributes, chosen: [] };
    const values = await this.dataSource.getRepository(AttributeValue).find({
      where: {
        attributeId: In(wanted.map(([code]) => byCode.get(code)!.id)),
        slug: In([...new Set(wanted.flatMap(([, slugs]) => slugs))]),
      },
      select: { id: true, attributeId: true, slug: true },
    });
    const chosen = wanted
      .map(([code, slugs]) => {
        const attributeId = byCode.get(code)!.id;
        const valueIds = values
          .filter((value) => value.attributeId === attributeId && slugs.includes(value.slug))
          .map((value) => value.id);
        return { attributeId, valueIds };
      })
      .filter((choice) => choice.valueIds.length > 0);
    return { attributes, chosen };
  }

  /** One condition per chosen attribute: the product has one of its chosen values (itself or by a variant). */
  conditions(selection: ResolvedSelection): ProductCondition[] {
    return selection.chosen.map(({ attributeId, valueIds }) => selectionCondition(attributeId, valueIds));
  }

  /**
   * The facets of the products matching `scope` (store, visibility, price, stock, category or search), with the
   * selection applied disjunctively. Attributes in position then name order, values in position then value order;
   * a value no product of the result set has is left out unless it is selected, and so is an attribute left
   * without values. Counted in memory (countValues) from the result set's ids, which every selection of it shares
   * (ResultSetIds), and every product's values (FacetPostings), so ticking a value costs no grouped query.
   */
  facets(scope: ProductCondition[], selection: ResolvedSelection): Promise<Facet[]> {
    if (selection.attributes.length === 0) return Promise.resolve([]);
    // The counts of a result set and selection are kept for a while and shared by the requests asking meanwhile.
    const key = JSON.stringify([scopeKey(scope), selection.chosen, selection.attributes]);
    const now = Date.now();
    const generation = this.writes.generation;
    const hit = this.cached.get(key);
    if (hit && hit.until > now && hit.generation === generation) return hit.facets;
    const facets = this.count(scope, selection);
    if (this.cached.size >= CACHED_RESULT_SETS) this.cached.delete(this.cached.keys().next().value!);
    this.cached.set(key, { until: now + FACET_COUNTS_TTL_MS, generation, facets });
    facets.catch(() => this.cached.delete(key));
    return facets;
  }

  private async count(scope: ProductCondition[], selection: ResolvedSelection): Promise<Facet[]> {
    const [ids, postings] = await Promise.all([this.scopeIds.get(scope), this.postings()]);
    const counts = countValues(ids, postings, selection);
    const selectedIds = new Set(selection.chosen.flatMap((choice) => choice.valueIds));
    const shownIds = [...new Set([...counts.keys(), ...selectedIds])];
    if (shownIds.length === 0) return [];
    const values = await this.dataSource.getRepository(AttributeValue).find({
      where: { id: In(shownIds) },
      select: { id: true, attributeId: true, value: true, slug: true, position: true },
    });
    return [...selection.attributes]
      .sort((a, b) => a.position - b.position || compareText(a.name, b.name))
      .map((attribute) => ({
        code: attribute.code,
        name: attribute.name,
        values: values
          .filter((value) => value.attributeId === attribute.id)
          .sort((a, b) => a.position - b.position || compareText(a.value, b.value))
          .map((value) => ({
            slug: value.slug,
            value: value.value,
            count: counts.get(value.id) ?? 0,
            selected: selectedIds.has(value.id),
          })),
      }))
      .filter((facet) => facet.values.length > 0);
  }

  /**
   * The products' values in memory, read again at once after an attribute write here commits (the counts must
   * show it), and in the background once a minute for another instance's writes, the old ones counting meanwhile.
   */
  private postings(): Promise<FacetPostings> {
    const generation = this.writes.generation;
    if (generation !== this.postingsGeneration) {
      this.postingsCache.clear();
      this.postingsGeneration = generation;
    }
    return this.postingsCache();
  }
}

/**
 * How long the counts of a result set are reused: a change of stock, price or visibility shows in them within
 * this time, as it does in the guest pages shared caches keep (page-cache.ts). An attribute write shows at once.
 */
const FACET_COUNTS_TTL_MS = 30_000;
/** Result sets whose counts are kept at most; the oldest goes first. */
const CACHED_RESULT_SETS = 2_000;
/** How old the products' values in memory may be before they are read again in the background. */
const POSTINGS_FRESH_MS = 60_000;

/**
 * Per value, the products of the result set (`ids`) that have it and meet every chosen attribute's condition but
 * its own attribute's: disjunctive counts, from the values in memory. Values no such product has are left out.
 */
function countValues(ids: Int32Array, postings: FacetPostings, selection: ResolvedSelection): Map<number, number> {
  let size = postings.maxProductId + 1;
  for (const id of ids) if (id >= size) size = id + 1;
  const inResult = new Uint8Array(size);
  for (const id of ids) inResult[id] = 1;
  // Bit i of a product: it has one of the values chosen of the i-th chosen attribute.
  const met = new Uint16Array(size);
  selection.chosen.forEach((choice, index) => {
    for (const valueId of choice.valueIds) for (const id of postings.products(valueId)) met[id] |= 1 << index;
  });
  const all = (1 << selection.chosen.length) - 1;
  const counts = new Map<number, number>();
  const countAttribute = (attributeId: number, ownBit: number) => {
    for (const valueId of postings.values(attributeId)) {
      let count = 0;
      for (const id of postings.products(valueId)) if (inResult[id] && (met[id] | ownBit) === all) count++;
      if (count > 0) counts.set(valueId, count);
    }
  };
  const chosenIndex = new Map(selection.chosen.map((choice, index) => [choice.attributeId, index]));
  for (const attribute of selection.attributes) {
    const index = chosenIndex.get(attribute.id);
    countAttribute(attribute.id, index === undefined ? 0 : 1 << index);
  }
  return counts;
}

/**
 * Named after the attribute: the conditions of several attributes meet in one WHERE. `p.id IN (…)` rather than a
 * correlated EXISTS: both databases read the chosen values' products once from the `(attributeValueId, productId)`
 * index and drive the query from them, instead of probing every product of the store.
 */
function selectionCondition(attributeId: number, valueIds: number[]): ProductCondition {
  const name = `facetValues${attributeId}`;
  return {
    sql: `p.id IN (SELECT fv${attributeId}.productId FROM product_attribute_values fv${attributeId} WHERE fv${attributeId}.attributeValueId IN (:...${name}))`,
    params: { [name]: valueIds },
  };
}

/** Code-point order after case folding: the same on every database, whatever its collation. */
function compareText(a: string, b: string): number {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0;
}
