import { Injectable } from '@nestjs/common';
import { DataSource, In, IsNull } from 'typeorm';
import { DomainEvents } from '../../common/domain-events';
import { AppError } from '../../common/errors/app-error';
import { randomHex32 } from '../../common/ids';
import { writeLock } from '../../database/locking';
import { TransactionRunner, Tx } from '../../database/transaction-runner';
import { ProductVariant } from '../products/product-variant.entity';
import { Product } from '../products/product.entity';
import { SellableProducts } from '../products/sellable-products';
import { CartAdd } from './cart-add.entity';
import { CartLine } from './cart-line.entity';
import { Cart, MAX_GIFT_CARDS_PER_CART } from './cart.entity';
import { lineKey } from './line-key';
import { cartErrors } from './carts-errors';
import { productErrors } from '../products/products-errors';

/** Emitted after a cart's content or currency changed and committed, with `{ cartId }`. */
export const CART_CHANGED = 'cart-changed';

declare module '../../common/domain-events' {
  interface DomainEventMap {
    [CART_CHANGED]: { cartId: number };
  }
}

export interface AddToCart {
  productId: number;
  qty: number;
  /** Option code → value, required for configurable products. */
  configuration?: Record<string, string>;
  custom?: Record<string, unknown> | null;
  /** The client's `Idempotency-Key`: an add repeated with the same key on the same cart is not added again. */
  requestKey?: string;
}

/** What checkout keeps on the cart (the quote): contact, addresses, notes and the chosen methods. */
export type QuoteDetails = Partial<
  Pick<
    Cart,
    | 'email'
    | 'billingAddress'
    | 'shippingAddress'
    | 'notes'
    | 'vatId'
    | 'companyName'
    | 'shippingMethod'
    | 'pickupPoint'
    | 'deliverySlotId'
    | 'deliveryDate'
    | 'paymentMethod'
  >
>;

export interface AddedToCart {
  product: Product;
  variant: ProductVariant | null;
  /** The add repeated an earlier one with the same `requestKey`: nothing was added this time. */
  repeated: boolean;
}

/** An item a cart should hold (a line of an earlier order): what it is and how many. */
export interface WantedItem {
  productId: number;
  configuration: Record<string, string> | null;
  custom: Record<string, unknown> | null;
  qty: number;
}

/**
 * How a wanted item ended up: the cart holds the wanted quantity (`held`), fewer because stock is short
 * (`reduced`), or none because it is no longer sold or none is in stock (`unavailable`).
 */
export interface FilledItem {
  wanted: number;
  /** What the cart's line of this item holds now. */
  qty: number;
  outcome: 'held' | 'reduced' | 'unavailable';
}

/** What a line's stock check needs: the line and what it points at. */
interface Sellable {
  product: Product;
  variant: ProductVariant | null;
}

/**
 * Cart contents. Every change locks the cart row first, so concurrent requests on one cart apply one
 * after another (no lost update); on SQLite the transaction runner already serialises them.
 */
@Injectable()
export class CartService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly events: DomainEvents,
    private readonly sellable: SellableProducts,
  ) {}

  /** The cart if it exists and has not been ordered yet. */
  async findOpen(cartId: number | undefined): Promise<Cart | null> {
    if (!cartId) return null;
    return this.dataSource.getRepository(Cart).findOneBy({ id: cartId, orderedAt: IsNull() });
  }

  /** A new open cart; a logged-in customer's carries their id. */
  async create(storeId: number, currency: string, customerId: number | null = null): Promise<Cart> {
    return this.runner.run(({ manager }) =>
      manager.save(
        manager.create(Cart, { uid: randomHex32(), storeId, currency, customerId, lastActivityAt: Date.now() }),
      ),
    );
  }

  lines(cartId: number): Promise<CartLine[]> {
    return this.dataSource.getRepository(CartLine).find({ where: { cartId }, order: { id: 'ASC' } });
  }

  /**
   * Adds `qty` of a product (merging into an identical line); 409 with the available qty beyond stock. With a
   * `requestKey` already used on this cart, nothing is added again (`repeated`).
   */
  async add(cartId: number, input: AddToCart): Promise<AddedToCart> {
    const item = await this.resolveSellable(input);
    const custom = customData(input.custom);
    const { product, variant } = item;
    return this.change(cartId, async (tx) => {
      // Under the cart's row lock, so a repeat running beside the first add waits for it and then finds its row.
      if (input.requestKey && (await tx.manager.existsBy(CartAdd, { cartId, requestKey: input.requestKey }))) {
        return { product, variant, repeated: true };
      }
      await this.addToLine(tx, cartId, item, custom, input.qty);
      if (input.requestKey) await tx.manager.insert(CartAdd, { cartId, requestKey: input.requestKey });
      return { product, variant, repeated: false };
    });
  }

  /** Adds `added` to the cart's identical line, or to a new one; 409 beyond stock. */
  private async addToLine(
    tx: Tx,
    cartId: number,
    item: Sellable & { configuration: Record<string, string> | null },
    custom: Record<string, unknown> | null,
    added: number,
  ): Promise<void> {
    const { sameItem, existing, setQty } = await this.lineOfItem(tx, cartId, item, custom);
    const qty = (existing?.qty ?? 0) + added;
    this.assertInStock(item, qty, sameItem, existing?.id);
    await setQty(qty);
  }

  /**
   * The cart's lines of this item, the one identical to it (same configuration and custom data) if any, and how
   * to set that line's quantity (creating it when there is none).
   */
  private async lineOfItem(
    tx: Tx,
    cartId: number,
    item: Sellable & { configuration: Record<string, string> | null },
    custom: Record<string, unknown> | null,
  ) {
    const { product, variant, configuration } = item;
    const key = lineKey(product.id, variant?.id ?? null, configuration, custom);
    const sameItem = await this.linesOfItem(tx, cartId, item);
    const existing = sameItem.find((line) => line.lineKey === key);
    const setQty = async (qty: number) => {
      if (existing) {
        await tx.manager.update(CartLine, { id: existing.id }, { qty });
        return;
      }
      const line = { cartId, productId: product.id, variantId: variant?.id ?? null, lineKey: key, qty };
      await tx.manager.save(tx.manager.create(CartLine, { ...line, configuration, custom }));
    };
    return { sameItem, existing, setQty };
  }

  /** Sets a line's quantity (0 removes it); a line of another cart is a 404. */
  async update(cartId: number, lineId: number, qty: number, custom?: Record<string, unknown>): Promise<void> {
    await this.change(cartId, async (tx) => {
      const line = await this.ownLine(tx, cartId, lineId);
      if (qty === 0) {
        await tx.manager.delete(CartLine, { id: line.id });
        return;
      }
      const item = await this.sellableOf(tx, line);
      this.assertInStock(item, qty, await this.linesOfItem(tx, cartId, item), line.id);
      // `as never`: TypeORM's deep-partial type cannot follow an open record; the column is simple-json.
      await tx.manager.update(
        CartLine,
        { id: line.id },
        custom === undefined ? { qty } : { qty, custom: custom as never },
      );
    });
  }

  async remove(cartId: number, lineId: number): Promise<void> {
    await this.change(cartId, async (tx) => {
      await tx.manager.delete(CartLine, { id: (await this.ownLine(tx, cartId, lineId)).id });
    });
  }

  async clear(cartId: number): Promise<void> {
    await this.change(cartId, (tx) => tx.manager.delete(CartLine, { cartId }));
  }

  async setCurrency(cartId: number, currency: string): Promise<void> {
    await this.change(cartId, (tx) => tx.manager.update(Cart, { id: cartId }, { currency }));
  }

  async setCoupon(cartId: number, couponCode: string | null): Promise<void> {
    await this.change(cartId, (tx) => tx.manager.update(Cart, { id: cartId }, { couponCode }));
  }

  /** The gift-card codes applied to the cart, in the order they pay; an empty list removes them all. */
  async setGiftCards(cartId: number, giftCardCodes: string[]): Promise<void> {
    await this.change(cartId, (tx) =>
      tx.manager.update(Cart, { id: cartId }, { giftCardCodes: giftCardCodes.length ? giftCardCodes : null }),
    );
  }

  /** Saves checkout details on the cart, under its lock and as a new version (place-order re-prices then). */
  async saveQuote(cartId: number, details: QuoteDetails): Promise<void> {
    // `as never`: TypeORM's deep-partial type cannot follow the open records of the simple-json columns.
    await this.change(cartId, (tx) => tx.manager.update(Cart, { id: cartId }, details as never));
  }

  /** The cart's share token, created on first use. */
  async shareToken(cartId: number): Promise<string> {
    return this.change(cartId, async (tx) => {
      const cart = await tx.manager.findOneByOrFail(Cart, { id: cartId });
      if (cart.shareToken) return cart.shareToken;
      const shareToken = randomHex32();
      await tx.manager.update(Cart, { id: cartId }, { shareToken });
      return shareToken;
    });
  }

  findByShareToken(token: string): Promise<Cart | null> {
    return this.dataSource.getRepository(Cart).findOneBy({ shareToken: token });
  }

  /**
   * Copies lines of another cart into this one, merging identical lines. Lines whose product can no
   * longer be bought, or not in that quantity, are skipped; returns how many were taken over.
   */
  async copyLines(cartId: number, from: CartLine[]): Promise<number> {
    let copied = 0;
    for (const line of from) {
      try {
        await this.add(cartId, {
          productId: line.productId,
          qty: line.qty,
          configuration: line.configuration ?? undefined,
          custom: line.custom,
        });
        copied++;
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
      }
    }
    return copied;
  }

  /**
   * Makes the cart hold each item in at least its wanted quantity, as far as stock allows, under the cart's lock.
   * Quantities are set, never added: an identical line holding that many already is left as it is, so filling
   * the cart again with the same items changes nothing. Lines of other items stay as they are. Items no longer
   * sold (or no longer configurable as wanted) and items out of stock are left out; a short stock gives a smaller
   * quantity. Nothing is thrown for them: the answer says how each item ended up, one entry per item in the
   * order given.
   */
  async fillUpTo(cartId: number, items: WantedItem[]): Promise<FilledItem[]> {
    const sellable = await Promise.all(
      items.map((item) =>
        this.resolveSellable({ ...item, configuration: item.configuration ?? undefined }).catch((error: unknown) => {
          if (error instanceof AppError) return null;
          throw error;
        }),
      ),
    );
    return this.change(cartId, async (tx) => {
      const filled: FilledItem[] = [];
      for (const [index, wanted] of items.entries()) {
        const item = sellable[index];
        const unavailable = { wanted: wanted.qty, qty: 0, outcome: 'unavailable' } as const;
        if (!item) {
          filled.push(unavailable);
          continue;
        }
        const { sameItem, existing, setQty } = await this.lineOfItem(tx, cartId, item, customData(wanted.custom));
        const held = existing?.qty ?? 0;
        const others = sameItem.filter((line) => line !== existing).reduce((sum, line) => sum + line.qty, 0);
        const stock = item.variant ? item.variant.stock : item.product.stock;
        const qty = Math.max(held, Math.min(wanted.qty, stock - others));
        if (qty > held) await setQty(qty);
        if (qty === 0) filled.push(unavailable);
        else filled.push({ wanted: wanted.qty, qty, outcome: qty >= wanted.qty ? 'held' : 'reduced' });
      }
      return filled;
    });
  }

  /**
   * At login: the guest's open cart becomes the customer's. If they left an open cart on an earlier visit,
   * the guest's lines move into that one instead (identical lines add up; place-order re-checks stock) and
   * the emptied guest cart is deleted. Returns the cart the session continues with, or null for none.
   */
  async adoptForCustomer(guestCartId: number | undefined, customerId: number): Promise<number | null> {
    return this.runner.run(async ({ manager }) => {
      const found = guestCartId ? await manager.findOneBy(Cart, { id: guestCartId, orderedAt: IsNull() }) : null;
      if (found && found.customerId === customerId) return found.id;
      // A cart another customer left in this browser is not handed over.
      const guest = found && found.customerId === null ? found : null;
      const earlier = await manager.findOne(Cart, {
        where: { customerId, orderedAt: IsNull() },
        order: { lastActivityAt: 'DESC', id: 'DESC' },
      });
      if (!guest) return earlier?.id ?? null;
      if (!earlier) {
        await manager.update(Cart, { id: guest.id }, { customerId });
        return guest.id;
      }
      return this.change(earlier.id, async (tx) => {
        // Locks the guest cart too, so an add racing the login cannot land in a cart about to be deleted.
        await tx.manager.update(Cart, { id: guest.id }, { version: () => 'version + 1' });
        // Read again under the locks: a code applied meanwhile in another tab is not lost.
        const current = (id: number) => tx.manager.findOneOrFail(Cart, { where: { id }, ...writeLock(tx.manager) });
        await tx.manager.update(
          Cart,
          { id: earlier.id },
          codesAfterMerge(await current(earlier.id), await current(guest.id)),
        );
        const kept = await tx.manager.findBy(CartLine, { cartId: earlier.id });
        for (const line of await tx.manager.findBy(CartLine, { cartId: guest.id })) {
          const same = kept.find((candidate) => candidate.lineKey === line.lineKey);
          if (same) await tx.manager.update(CartLine, { id: same.id }, { qty: same.qty + line.qty });
          else await tx.manager.update(CartLine, { id: line.id }, { cartId: earlier.id });
        }
        await tx.manager.delete(CartLine, { cartId: guest.id });
        await tx.manager.delete(Cart, { id: guest.id });
        return earlier.id;
      });
    });
  }

  /**
   * Runs a change under the cart's row lock and announces it after commit. Touching the cart first takes
   * the lock (an UPDATE locks the row on MySQL) and tells in one statement whether it is still open.
   */
  private change<T>(cartId: number, work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.runner.run(async (tx) => {
      const touched = await tx.manager.update(
        Cart,
        { id: cartId, orderedAt: IsNull() },
        { lastActivityAt: Date.now(), version: () => 'version + 1' },
      );
      if (!touched.affected) throw cartErrors.cart_closed();
      const result = await work(tx);
      tx.afterCommit(() => this.events.emit(CART_CHANGED, { cartId }));
      return result;
    });
  }

  private async ownLine(tx: Tx, cartId: number, lineId: number): Promise<CartLine> {
    const line = await tx.manager.findOneBy(CartLine, { id: lineId, cartId });
    if (!line) throw AppError.notFound('That item is not in your cart.');
    return line;
  }

  /** Product and variant for an add: on sale, listed, and fully configured when configurable. */
  private async resolveSellable(
    input: AddToCart,
  ): Promise<Sellable & { configuration: Record<string, string> | null }> {
    const product = await this.sellable.product(input.productId);
    if (product.type !== 'configurable') return { product, variant: null, configuration: null };
    return { product, ...(await this.sellable.variant(product, input.configuration ?? {})) };
  }

  private async sellableOf(tx: Tx, line: CartLine): Promise<Sellable> {
    const product = await tx.manager.findOneByOrFail(Product, { id: line.productId });
    const variant = line.variantId ? await tx.manager.findOneByOrFail(ProductVariant, { id: line.variantId }) : null;
    return { product, variant };
  }

  /** Every line of the cart holding this product (or variant): the same item can sit on several lines. */
  private linesOfItem(tx: Tx, cartId: number, item: Sellable): Promise<CartLine[]> {
    return tx.manager.findBy(
      CartLine,
      item.variant ? { cartId, variantId: item.variant.id } : { cartId, productId: item.product.id },
    );
  }

  /** The cart may not hold more of an item than is in stock, counting its other lines too. */
  private assertInStock(item: Sellable, qty: number, sameItem: CartLine[], lineId?: number): void {
    const available = item.variant ? item.variant.stock : item.product.stock;
    const others = sameItem.filter((line) => line.id !== lineId).reduce((sum, line) => sum + line.qty, 0);
    if (qty + others <= available) return;
    // What this line may hold at most, given the other lines of the same item.
    const left = Math.max(0, available - others);
    throw productErrors.out_of_stock(
      { name: item.product.name, available },
      { fields: { qty: [left === 0 ? 'none available' : `at most ${left}`] }, details: { available: left } },
    );
  }
}

/** A line's custom data as the line keeps it: none rather than an empty record. */
function customData(custom: Record<string, unknown> | null | undefined): Record<string, unknown> | null {
  return custom && Object.keys(custom).length > 0 ? custom : null;
}

/** Loads the products and variants of cart lines in two queries. */
export async function loadLineItems(
  dataSource: DataSource,
  lines: CartLine[],
): Promise<{ products: Map<number, Product>; variants: Map<number, ProductVariant> }> {
  const productIds = [...new Set(lines.map((line) => line.productId))];
  const variantIds = [...new Set(lines.flatMap((line) => (line.variantId ? [line.variantId] : [])))];
  const [products, variants] = await Promise.all([
    productIds.length ? dataSource.getRepository(Product).findBy({ id: In(productIds) }) : [],
    variantIds.length ? dataSource.getRepository(ProductVariant).findBy({ id: In(variantIds) }) : [],
  ]);
  return {
    products: new Map(products.map((product) => [product.id, product])),
    variants: new Map(variants.map((variant) => [variant.id, variant])),
  };
}

/**
 * The codes a merged cart keeps: the guest's coupon (applied last, so it wins) and the gift cards of both,
 * the kept cart's first, up to the limit.
 */
function codesAfterMerge(kept: Cart, guest: Cart): Pick<Cart, 'couponCode' | 'giftCardCodes'> {
  const giftCardCodes = [...new Set([...(kept.giftCardCodes ?? []), ...(guest.giftCardCodes ?? [])])];
  return {
    couponCode: guest.couponCode ?? kept.couponCode,
    giftCardCodes: giftCardCodes.length ? giftCardCodes.slice(0, MAX_GIFT_CARDS_PER_CART) : null,
  };
}
