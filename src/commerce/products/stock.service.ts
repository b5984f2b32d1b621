import { Injectable } from '@nestjs/common';
import { FindOperator, In, LessThanOrEqual, MoreThan } from 'typeorm';
import { DomainEvents } from '../../common/domain-events';
import { AppError } from '../../common/errors/app-error';
import { Tx } from '../../database/transaction-runner';
import { PRODUCT_BACK_IN_STOCK } from '../events';
import { ProductVariant } from './product-variant.entity';
import { Product } from './product.entity';
import { productErrors } from './products-errors';

/** A quantity of one product (or one of its variants) leaving or returning to stock. */
export interface StockMove {
  productId: number;
  variantId: number | null;
  qty: number;
  name: string;
}

/**
 * An absolute stock level of one product. A configurable product's `stock` is the sum of its variants'
 * (Product.stock follows them); `variants` gives each variant's own, by id.
 */
export interface StockLevel {
  productId: number;
  stock: number;
  variants?: ReadonlyMap<number, number>;
}

/** Runs inside the transaction that restocked these products: the place to enqueue follow-up jobs (outbox). */
export type RestockSubscriber = (tx: Tx, productIds: number[]) => Promise<void>;

/** Products per `IN (…)` list: well inside both databases' limits on bound parameters. */
const ID_CHUNK = 500;

/**
 * Every stock change: levels set by staff or an import, goods taken and given back by orders. Every decrement
 * is a guarded update (`stock >= qty`), so no number of concurrent orders can sell more than there is. Rows
 * are touched in one global order (product by product, its variants before itself) so two orders never wait
 * on each other's locks.
 */
@Injectable()
export class StockService {
  private readonly restockSubscribers: RestockSubscriber[] = [];

  constructor(private readonly events: DomainEvents) {}

  /** Called with the products a transaction brought back from 0 to more, inside that transaction. */
  onRestock(subscriber: RestockSubscriber): void {
    this.restockSubscribers.push(subscriber);
  }

  /**
   * Sets stock to absolute levels (the CP product edit, the catalog import), and announces the products that
   * were sold out and have stock again. Nothing else sets stock, so no restock goes unannounced.
   */
  async set(tx: Tx, levels: StockLevel[]): Promise<void> {
    const soldOut = await this.soldOut(
      tx,
      levels.map((level) => level.productId),
    );
    const variants = levels.flatMap((level) => [...(level.variants ?? [])]);
    await setStockColumn(tx, ProductVariant, variants);
    await setStockColumn(
      tx,
      Product,
      levels.map((level): [number, number] => [level.productId, level.stock]),
    );
    await this.announceRestocked(tx, soldOut);
  }

  /** Takes the goods of an order out of stock; a 409 naming the product when there is not enough. */
  async take(tx: Tx, moves: StockMove[]): Promise<void> {
    for (const { product, variants, qty } of byProduct(moves)) {
      for (const [variantId, variantQty] of variants) {
        const taken = await tx.manager
          .createQueryBuilder()
          .update(ProductVariant)
          .set({ stock: () => 'stock - :qty' })
          .where('id = :variantId AND stock >= :qty', { variantId, qty: variantQty })
          .execute();
        if (!taken.affected) {
          const left = await tx.manager.findOneBy(ProductVariant, { id: variantId });
          throw outOfStock(product, left?.stock ?? 0);
        }
      }
      if (variants.size > 0) {
        // A configurable product's stock is the sum of its variants': follow them, never below zero.
        await tx.manager
          .createQueryBuilder()
          .update(Product)
          .set({ stock: () => 'CASE WHEN stock >= :qty THEN stock - :qty ELSE 0 END' })
          .where('id = :id', { id: product.productId, qty })
          .execute();
        continue;
      }
      const taken = await tx.manager
        .createQueryBuilder()
        .update(Product)
        .set({ stock: () => 'stock - :qty' })
        .where('id = :id AND stock >= :qty', { id: product.productId, qty })
        .execute();
      if (!taken.affected) {
        const left = await tx.manager.findOneBy(Product, { id: product.productId });
        throw outOfStock(product, left?.stock ?? 0);
      }
    }
  }

  /** Puts the goods of a canceled order back. */
  async restore(tx: Tx, moves: StockMove[]): Promise<void> {
    const groups = byProduct(moves);
    const soldOut = await this.soldOut(
      tx,
      groups.map((group) => group.product.productId),
    );
    for (const { product, variants, qty } of groups) {
      for (const [variantId, variantQty] of variants) {
        await tx.manager.increment(ProductVariant, { id: variantId }, 'stock', variantQty);
      }
      await tx.manager.increment(Product, { id: product.productId }, 'stock', qty);
    }
    await this.announceRestocked(tx, soldOut);
  }

  /** Which of these products are sold out now: pass the answer to `announceRestocked` once stock was raised. */
  private soldOut(tx: Tx, productIds: number[]): Promise<number[]> {
    return idsWithStock(tx, productIds, LessThanOrEqual(0));
  }

  /**
   * Announces the products of `soldOut` that have stock again: to the subscribers in this transaction and as
   * `PRODUCT_BACK_IN_STOCK` after commit.
   */
  private async announceRestocked(tx: Tx, soldOut: number[]): Promise<void> {
    const restocked = await idsWithStock(tx, soldOut, MoreThan(0));
    if (restocked.length === 0) return;
    for (const subscriber of this.restockSubscribers) await subscriber(tx, restocked);
    tx.afterCommit(() => {
      for (const productId of restocked) this.events.emit(PRODUCT_BACK_IN_STOCK, { productId });
    });
  }
}

/**
 * Writes `[id, stock]` pairs with one `UPDATE … SET stock = CASE id WHEN … END` per chunk: an import of thousands
 * of products sets their stock in a few statements, not one per row. Rows go in ascending id, like every other
 * stock write, so concurrent writers take their locks in one order.
 */
async function setStockColumn(
  tx: Tx,
  table: typeof Product | typeof ProductVariant,
  rows: Array<[number, number]>,
): Promise<void> {
  const sorted = [...rows].sort(([a], [b]) => a - b);
  for (let start = 0; start < sorted.length; start += ID_CHUNK) {
    const chunk = sorted.slice(start, start + ID_CHUNK);
    const params: Record<string, number> = {};
    const cases = chunk.map(([id, stock], index) => {
      params[`id${index}`] = id;
      params[`stock${index}`] = stock;
      return `WHEN :id${index} THEN :stock${index}`;
    });
    await tx.manager
      .createQueryBuilder()
      .update(table)
      .set({ stock: () => `CASE id ${cases.join(' ')} END` })
      .where('id IN (:...ids)', { ids: chunk.map(([id]) => id) })
      .setParameters(params)
      .execute();
  }
}

/** Those of `productIds` whose stock matches `stock`, in chunks of `ID_CHUNK`. */
async function idsWithStock(tx: Tx, productIds: number[], stock: FindOperator<number>): Promise<number[]> {
  const ids: number[] = [];
  for (let start = 0; start < productIds.length; start += ID_CHUNK) {
    const rows = await tx.manager.find(Product, {
      where: { id: In(productIds.slice(start, start + ID_CHUNK)), stock },
      select: { id: true },
    });
    ids.push(...rows.map((row) => row.id));
  }
  return ids;
}

/** Moves grouped per product in ascending id, each with its variants' quantities in ascending id. */
function byProduct(moves: StockMove[]): Array<{ product: StockMove; variants: Map<number, number>; qty: number }> {
  const groups = new Map<number, { product: StockMove; variants: Map<number, number>; qty: number }>();
  for (const move of moves) {
    const group = groups.get(move.productId) ?? { product: move, variants: new Map<number, number>(), qty: 0 };
    group.qty += move.qty;
    if (move.variantId !== null)
      group.variants.set(move.variantId, (group.variants.get(move.variantId) ?? 0) + move.qty);
    groups.set(move.productId, group);
  }
  return [...groups.values()]
    .sort((a, b) => a.product.productId - b.product.productId)
    .map((group) => ({ ...group, variants: new Map([...group.variants].sort(([a], [b]) => a - b)) }));
}

function outOfStock(move: StockMove, available: number): AppError {
  return productErrors.out_of_stock(
    { name: move.name, available },
    { details: { productId: move.productId, available } },
  );
}
