import { Injectable } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import { AttributeValue } from '../attributes/attribute-value.entity';
import { ProductAttributes } from '../attributes/product-attributes.service';
import { Attribute } from '../attributes/attribute.entity';
import { ProductAttributeValue } from '../attributes/product-attribute-value.entity';
import { Product } from '../products/product.entity';

/** A condition on the products table aliased `p`, with its named parameters (TypeORM `:name` / `:...list`). */
export interface ProductCondition {
  sql: string;
  params: Record<string, unknown>;
}

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

  constructor(
    private readonly dataSource: DataSource,
    private readonly writes: ProductAttributes,
  ) {}

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
   * selection applied disjunctively: one grouped query for the attributes without a selection, one per attribute
   * with one. Attributes in position then name order, values in position then value order; a value no product
   * of the result set has is left out unless it is selected, and so is an attribute left without values.
   */
  facets(scope: ProductCondition[], selection: ResolvedSelection): Promise<Facet[]> {
    if (selection.attributes.length === 0) return Promise.resolve([]);
    // Counting reads every attribute row of the result set, hundreds of thousands on a large catalog, so the
    // counts of a result set are kept for a while and shared by the requests asking meanwhile. The moment a sale
    // is judged at (`now`) is left out of the key: it moves every millisecond.
    const key = JSON.stringify([
      scope.map(({ sql, params }) => [sql, { ...params, now: undefined }]),
      selection.chosen,
      selection.attributes,
    ]);
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
    const chosenIds = new Set(selection.chosen.map((choice) => choice.attributeId));
    const unchosen = selection.attributes.filter((attribute) => !chosenIds.has(attribute.id));
    const conditions = this.conditions(selection);
    const counted = await Promise.all([
      unchosen.length > 0
        ? this.counts(
            [...scope, ...conditions],
            unchosen.map((attribute) => attribute.id),
          )
        : [],
      ...selection.chosen.map((choice, index) =>
        this.counts([...scope, ...conditions.filter((_, other) => other !== index)], [choice.attributeId]),
      ),
    ]);
    const counts = new Map(counted.flat().map((row) => [row.valueId, row.count]));
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

  /** Distinct matching products per value of the attributes. */
  private async counts(conditions: ProductCondition[], attributeIds: number[]) {
    const builder = this.dataSource
      .createQueryBuilder()
      .from(ProductAttributeValue, 'pav')
      .innerJoin(Product, 'p', 'p.id = pav.productId')
      .select('pav.attributeValueId', 'valueId')
      .addSelect('COUNT(DISTINCT pav.productId)', 'count')
      .where('pav.attributeId IN (:...countedAttributes)', { countedAttributes: attributeIds })
      .groupBy('pav.attributeValueId');
    for (const condition of conditions) builder.andWhere(condition.sql, condition.params);
    const rows = await builder.getRawMany<{ valueId: number | string; count: number | string }>();
    return rows.map((row) => ({ valueId: Number(row.valueId), count: Number(row.count) }));
  }
}

/**
 * How long the counts of a result set are reused: a change of stock, price or visibility shows in them within
 * this time, as it does in the guest pages shared caches keep (page-cache.ts). An attribute write shows at once.
 */
const FACET_COUNTS_TTL_MS = 30_000;
/** Result sets whose counts are kept at most; the oldest goes first. */
const CACHED_RESULT_SETS = 2_000;

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
