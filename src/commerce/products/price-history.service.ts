import { Injectable } from '@nestjs/common';
import { DataSource, In, IsNull, LessThan, LessThanOrEqual, MoreThan } from 'typeorm';
import { Tx } from '../../database/transaction-runner';
import { CurrencyService } from '../stores/currency.service';
import { PriceChange } from './price-history.entity';
import { ProductVariant } from './product-variant.entity';
import { Product } from './product.entity';
import { plannedPrices, Priced, PRICED_COLUMNS, REFERENCE_WINDOW_MS, saleRuns, variantPriced } from './sale-price';

/** An announced price reduction (Directive 98/6/EC Art. 6a): the sale against its honest reference price. */
export interface Reduction {
  /** The lowest price of the 30 days before the sale started, minor units of the base currency. */
  referencePrice: number;
  /** Whole percent off the reference price, rounded down so it never claims more than it gives. */
  percent: number;
  /** Epoch ms. */
  startsAt: number;
  endsAt: number | null;
}

/** A product (variantId null) or variant whose reduction is asked for, with what it is priced by. */
export interface ReductionSubject {
  productId: number;
  variantId: number | null;
  priced: Priced;
}

/** Products per statement when recording: well inside both databases' limits on bound parameters. */
const CHUNK = 500;

/**
 * The price history of every product and variant, and the reference prices read from it. Every write that
 * changes a price, or a sale, calls `record` in its own transaction, so the history never misses a change.
 */
@Injectable()
export class PriceHistory {
  constructor(
    private readonly dataSource: DataSource,
    private readonly currencies: CurrencyService,
  ) {}

  /**
   * Brings the history of `productIds` and their variants in line with the prices and sales they now hold:
   * a row now where the price a shopper pays differs from the last one, and a row at each planned sale start
   * and end (replacing the plans written before).
   */
  async record(tx: Tx, productIds: number[], now = Date.now()): Promise<void> {
    const currency = (await this.currencies.base()).code;
    for (let start = 0; start < productIds.length; start += CHUNK) {
      const ids = productIds.slice(start, start + CHUNK);
      // Only the price columns: an import records thousands of products.
      const products = await tx.manager.find(Product, {
        select: { id: true, ...PRICED_COLUMNS },
        where: { id: In(ids) },
      });
      const variants = await tx.manager.find(ProductVariant, {
        select: { id: true, productId: true, ...PRICED_COLUMNS },
        where: { productId: In(ids) },
      });
      await tx.manager.delete(PriceChange, { productId: In(ids), currency, changedAt: MoreThan(now) });
      const rows = await tx.manager.find(PriceChange, {
        select: { id: true, productId: true, variantId: true, price: true },
        where: { productId: In(ids), currency, changedAt: LessThanOrEqual(now) },
        order: { changedAt: 'ASC', id: 'ASC' },
      });
      const last = new Map(rows.map((row) => [key(row.productId, row.variantId), row.price]));
      const byId = new Map(products.map((product) => [product.id, product]));
      const subjects: ReductionSubject[] = [
        ...products.map((product) => ({ productId: product.id, variantId: null, priced: product })),
        ...variants.map((variant) => ({
          productId: variant.productId,
          variantId: variant.id,
          priced: variantPriced(byId.get(variant.productId)!, variant),
        })),
      ];
      const inserts: Array<Partial<PriceChange>> = [];
      for (const { productId, variantId, priced } of subjects) {
        const points = plannedPrices(priced, now);
        if (points[0].price === last.get(key(productId, variantId))) points.shift();
        for (const { at, price } of points) inserts.push({ productId, variantId, currency, price, changedAt: at });
      }
      for (let row = 0; row < inserts.length; row += 100) {
        await tx.manager
          .createQueryBuilder()
          .insert()
          .into(PriceChange)
          .values(inserts.slice(row, row + 100))
          .updateEntity(false)
          .execute();
      }
    }
  }

  /**
   * The reduction each subject announces at `now`, or null where it announces none: no sale running, no price
   * known before the sale started, or a reference price that is not above the sale price.
   */
  async reductions(subjects: ReductionSubject[], now = Date.now()): Promise<Array<Reduction | null>> {
    const currency = (await this.currencies.base()).code;
    return Promise.all(
      subjects.map(async ({ productId, variantId, priced }) => {
        if (!saleRuns(priced, now)) return null;
        const reference = await this.lowestBefore(productId, variantId, currency, priced.saleStartsAt!);
        if (reference === null) return null;
        const percent = Math.floor(((reference - priced.salePrice!) * 100) / reference);
        if (percent < 1) return null;
        return { referencePrice: reference, percent, startsAt: priced.saleStartsAt!, endsAt: priced.saleEndsAt };
      }),
    );
  }

  /** The lowest price that applied in the 30 days before `start`, or null when none is known. */
  private async lowestBefore(
    productId: number,
    variantId: number | null,
    currency: string,
    start: number,
  ): Promise<number | null> {
    const windowStart = start - REFERENCE_WINDOW_MS;
    const rows = await this.dataSource.getRepository(PriceChange).find({
      select: { price: true, changedAt: true },
      where: { productId, variantId: variantId ?? IsNull(), currency, changedAt: LessThan(start) },
      order: { changedAt: 'DESC', id: 'DESC' },
    });
    let lowest: number | null = null;
    for (const row of rows) {
      lowest = lowest === null ? row.price : Math.min(lowest, row.price);
      // The price that applied when the window opened counts too; nothing before it does.
      if (row.changedAt <= windowStart) break;
    }
    return lowest;
  }
}

function key(productId: number, variantId: number | null): string {
  return `${productId}:${variantId ?? ''}`;
}
