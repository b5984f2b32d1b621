import { DataSource } from 'typeorm';
import { AttributeValue } from '../attributes/attribute-value.entity';
import { ProductAttributeValue } from '../attributes/product-attribute-value.entity';

/** Rows read per query while loading: keeps the objects a load holds at once to a few megabytes. */
const LOAD_CHUNK = 50_000;

/**
 * Every attribute value's products, in memory: per value the ascending ids of the products that have it (on the
 * product or by a variant, once). 100,000 products with four or five values each take a few megabytes; counting a
 * result set's facets is then a pass over these arrays instead of a grouped query reading every attribute row.
 */
export class FacetPostings {
  private constructor(
    /** Value id → product ids, ascending. */
    private readonly productsOf: Map<number, Int32Array>,
    /** Attribute id → its value ids that some product has. */
    private readonly valuesOf: Map<number, number[]>,
    /** The largest product id of any posting. */
    readonly maxProductId: number,
  ) {}

  static async load(dataSource: DataSource): Promise<FacetPostings> {
    const attributeOf = new Map(
      (await dataSource.getRepository(AttributeValue).find({ select: { id: true, attributeId: true } })).map(
        (value) => [value.id, value.attributeId],
      ),
    );
    const productsOf = new Map<number, Int32Array>();
    const valuesOf = new Map<number, number[]>();
    let maxProductId = 0;
    let valueId = 0;
    let ids: number[] = [];
    const close = () => {
      if (ids.length === 0) return;
      productsOf.set(valueId, Int32Array.from(ids));
      const attributeId = attributeOf.get(valueId);
      if (attributeId === undefined) return;
      const values = valuesOf.get(attributeId);
      if (values) values.push(valueId);
      else valuesOf.set(attributeId, [valueId]);
    };
    // Keyset pages in the (attributeValueId, productId) index's order: a value's ids arrive ascending, repeats
    // (a product with the value on two variants) next to each other.
    let after = { valueId: 0, productId: 0 };
    for (;;) {
      const rows = await dataSource
        .createQueryBuilder()
        .from(ProductAttributeValue, 'pav')
        .select('pav.attributeValueId', 'valueId')
        .addSelect('pav.productId', 'productId')
        .where(
          '(pav.attributeValueId > :valueId OR (pav.attributeValueId = :valueId AND pav.productId > :productId))',
          after,
        )
        .orderBy('pav.attributeValueId', 'ASC')
        .addOrderBy('pav.productId', 'ASC')
        .limit(LOAD_CHUNK)
        .getRawMany<{ valueId: number | string; productId: number | string }>();
      for (const row of rows) {
        const rowValueId = Number(row.valueId);
        const productId = Number(row.productId);
        if (rowValueId !== valueId) {
          close();
          valueId = rowValueId;
          ids = [];
        }
        if (ids[ids.length - 1] !== productId) ids.push(productId);
        if (productId > maxProductId) maxProductId = productId;
      }
      if (rows.length < LOAD_CHUNK) break;
      const last = rows[rows.length - 1];
      after = { valueId: Number(last.valueId), productId: Number(last.productId) };
    }
    close();
    return new FacetPostings(productsOf, valuesOf, maxProductId);
  }

  /** The value ids of the attribute that some product has. */
  values(attributeId: number): number[] {
    return this.valuesOf.get(attributeId) ?? [];
  }

  /** The ids of the products that have the value, ascending. */
  products(valueId: number): Int32Array {
    return this.productsOf.get(valueId) ?? EMPTY;
  }
}

const EMPTY = new Int32Array(0);
