import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, In, IsNull } from 'typeorm';
import { Customer } from '../customers/customer.entity';
import { WishlistItem } from './wishlist-item.entity';
import { Wishlist } from './wishlist.entity';
import { AppError } from '../../common/errors/app-error';
import { writeLock } from '../../database/locking';
import { TransactionRunner, Tx } from '../../database/transaction-runner';
import { wishlistErrors } from './wishlists-errors';

export const DEFAULT_WISHLIST_NAME = 'My wishlist';
/** The most of one product a list keeps. */
export const MAX_WISHLIST_QTY = 10_000;

/** A saved product (variant 0: none) and how many. */
export interface WishlistEntry {
  productId: number;
  variantId: number;
  qty: number;
  configuration: Record<string, string> | null;
}

/** A list as stored (database or session), before it is shown. */
export interface StoredList {
  id: number | null;
  name: string;
  isDefault: boolean;
  items: Array<WishlistEntry & { id: number }>;
}
/** Lists per customer and items per list: generous for a shopper, a bound for a script. */
const MAX_LISTS = 20;
const MAX_ITEMS = 200;

const NO_SUCH_LIST = 'That wishlist does not exist.';
const NO_SUCH_ITEM = 'That item is not on your wishlist.';

/**
 * A customer's named wishlists. Every lookup is scoped to the customer, so another customer's list or item
 * is a 404 exactly like a missing one. Changes to a list lock its row first (concurrent adds merge, never
 * collide on the unique key); creating a list, the default one included, locks the customer's row first.
 */
@Injectable()
export class WishlistService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
  ) {}

  /** The customer's lists with their items, the default list first. */
  async lists(customerId: number): Promise<StoredList[]> {
    const lists = await this.dataSource
      .getRepository(Wishlist)
      .find({ where: { customerId }, order: { isDefault: 'DESC', id: 'ASC' } });
    return this.withItems(lists);
  }

  /** One list of the customer with its items; 404 for anyone else's. */
  async list(customerId: number, id: number): Promise<StoredList> {
    return (await this.withItems([await this.own(this.dataSource.manager, customerId, id)]))[0];
  }

  /** Any customer's list with its owner's first name, for the signed public page; null once either is gone. */
  async shared(id: number): Promise<{ list: StoredList; ownerName: string } | null> {
    const list = await this.dataSource.getRepository(Wishlist).findOneBy({ id });
    const owner =
      list && (await this.dataSource.getRepository(Customer).findOneBy({ id: list.customerId, deletedAt: IsNull() }));
    if (!list || !owner) return null;
    return { list: (await this.withItems([list]))[0], ownerName: owner.firstName };
  }

  /** How many items the customer's lists hold together. */
  count(customerId: number): Promise<number> {
    return this.dataSource
      .getRepository(WishlistItem)
      .createQueryBuilder('item')
      .innerJoin(Wishlist, 'list', 'list.id = item.wishlistId')
      .where('list.customerId = :customerId', { customerId })
      .getCount();
  }

  /** Adds entries to list `wishlistId`, or to the default list (created on first use); quantities add up. */
  async add(customerId: number, entries: WishlistEntry[], wishlistId?: number): Promise<number> {
    return this.runner.run(async (tx) => {
      const list = wishlistId
        ? await this.own(tx.manager, customerId, wishlistId, true)
        : await this.defaultList(tx, customerId);
      for (const entry of entries) await this.merge(tx, list.id, entry);
      return list.id;
    });
  }

  /** Removes one item of any of the customer's lists; returns the list it was on. */
  async removeItem(customerId: number, itemId: number): Promise<number> {
    return this.runner.run(async (tx) => {
      const item = await this.ownItem(tx.manager, customerId, itemId);
      await tx.manager.delete(WishlistItem, { id: item.id });
      return item.wishlistId;
    });
  }

  /** Creates a list named `name`, or renames list `id`; the default list may be renamed and stays the default. */
  async save(customerId: number, name: string, id?: number): Promise<number> {
    return this.runner.run(async (tx) => {
      if (id) {
        await this.own(tx.manager, customerId, id, true);
        await tx.manager.update(Wishlist, { id }, { name });
        return id;
      }
      // Counting under the customer's lock keeps two concurrent creations from passing the limit together.
      await this.lockCustomer(tx, customerId);
      const count = await tx.manager.countBy(Wishlist, { customerId });
      if (count >= MAX_LISTS) throw wishlistErrors.too_many_wishlists({ max: MAX_LISTS });
      // The first list a customer makes is their default one.
      const list = await tx.manager.save(tx.manager.create(Wishlist, { customerId, name, isDefault: count === 0 }));
      return list.id;
    });
  }

  /** Empties list `wishlistId`, or the default list; returns the list id (null: no default list yet). */
  async clear(customerId: number, wishlistId?: number): Promise<number | null> {
    return this.runner.run(async (tx) => {
      const list = wishlistId
        ? await this.own(tx.manager, customerId, wishlistId, true)
        : await tx.manager.findOneBy(Wishlist, { customerId, isDefault: true });
      if (list) await tx.manager.delete(WishlistItem, { wishlistId: list.id });
      return list?.id ?? null;
    });
  }

  /** An item of one of the customer's lists, locked for this transaction; 404 for anyone else's. */
  async ownItem(manager: EntityManager, customerId: number, itemId: number): Promise<WishlistItem> {
    const item = await manager.findOne(WishlistItem, { where: { id: itemId }, ...writeLock(manager) });
    if (!item || !(await manager.existsBy(Wishlist, { id: item.wishlistId, customerId }))) {
      throw AppError.notFound(NO_SUCH_ITEM);
    }
    return item;
  }

  private async own(manager: EntityManager, customerId: number, id: number, lock = false): Promise<Wishlist> {
    const list = await manager.findOne(Wishlist, {
      where: { id, customerId },
      ...(lock ? writeLock(manager) : {}),
    });
    if (!list) throw AppError.notFound(NO_SUCH_LIST);
    return list;
  }

  /** Under the customer's row lock, so two first adds at once make one default list. */
  private async defaultList(tx: Tx, customerId: number): Promise<Wishlist> {
    await this.lockCustomer(tx, customerId);
    return (
      (await tx.manager.findOne(Wishlist, { where: { customerId, isDefault: true }, ...writeLock(tx.manager) })) ??
      tx.manager.save(tx.manager.create(Wishlist, { customerId, name: DEFAULT_WISHLIST_NAME, isDefault: true }))
    );
  }

  private async lockCustomer(tx: Tx, customerId: number): Promise<void> {
    await tx.manager.findOne(Customer, { where: { id: customerId }, select: { id: true }, ...writeLock(tx.manager) });
  }

  /** Under the list's lock: raises the quantity of the same product and variant, or adds it. */
  private async merge(tx: Tx, wishlistId: number, entry: WishlistEntry): Promise<void> {
    const { productId, variantId } = entry;
    const existing = await tx.manager.findOne(WishlistItem, {
      where: { wishlistId, productId, variantId },
      ...writeLock(tx.manager),
    });
    if (existing) {
      const qty = Math.min(existing.qty + entry.qty, MAX_WISHLIST_QTY);
      await tx.manager.update(WishlistItem, { id: existing.id }, { qty });
      return;
    }
    if ((await tx.manager.countBy(WishlistItem, { wishlistId })) >= MAX_ITEMS) {
      throw wishlistErrors.wishlist_full({ max: MAX_ITEMS, guest: false });
    }
    await tx.manager.insert(WishlistItem, {
      wishlistId,
      productId,
      variantId,
      qty: Math.min(entry.qty, MAX_WISHLIST_QTY),
      // `as never`: TypeORM's deep-partial type cannot follow an open record; the column is simple-json.
      configuration: entry.configuration as never,
    });
  }

  private async withItems(lists: Wishlist[]): Promise<StoredList[]> {
    const items = lists.length
      ? await this.dataSource
          .getRepository(WishlistItem)
          .find({ where: { wishlistId: In(lists.map((list) => list.id)) }, order: { id: 'ASC' } })
      : [];
    return lists.map((list) => ({
      id: list.id,
      name: list.name,
      isDefault: list.isDefault,
      items: items.filter((item) => item.wishlistId === list.id),
    }));
  }
}
