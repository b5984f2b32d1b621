import type { Request } from 'express';
import { AppError } from '../../../common/errors/app-error';
import { SessionWishlistItem } from '../../../common/session-data';
import { StoredList, WishlistEntry } from '../../../commerce/customers/wishlist.service';
import { MAX_WISHLIST_QTY } from '../../../commerce/customers/wishlist.service';

/** The session is no place for a catalogue: a guest who wants more logs in. */
const MAX_GUEST_ITEMS = 50;

/**
 * A guest's one wishlist, kept in `req.session.wishlist` in the shape the cart's "save for later" writes.
 * Session items have no ids: an item's `id` is its 1-based position, as the last answer listed it.
 */
export function addToGuestWishlist(req: Request, entry: WishlistEntry): void {
  const items = (req.session.wishlist ??= []);
  const variantId = entry.variantId || null;
  const same = items.find(
    (item) =>
      item.productId === entry.productId &&
      item.variantId === variantId &&
      JSON.stringify(item.configuration) === JSON.stringify(entry.configuration),
  );
  if (same) {
    same.qty = Math.min(same.qty + entry.qty, MAX_WISHLIST_QTY);
    return;
  }
  if (items.length >= MAX_GUEST_ITEMS) {
    throw AppError.conflict('wishlist_full', 'Your wishlist is full. Log in to keep more.');
  }
  items.push({ productId: entry.productId, variantId, qty: entry.qty, configuration: entry.configuration });
}

export function removeFromGuestWishlist(req: Request, position: number): void {
  const items = req.session.wishlist ?? [];
  if (position > items.length) throw AppError.notFound('That item is not on your wishlist.');
  items.splice(position - 1, 1);
}

/** The session list as the entries a customer's default list adopts. */
export function guestEntries(items: SessionWishlistItem[]): WishlistEntry[] {
  return items.map((item) => ({
    productId: item.productId,
    variantId: item.variantId ?? 0,
    qty: item.qty,
    configuration: item.configuration,
  }));
}

export function guestList(req: Request): StoredList {
  return {
    id: null,
    name: 'Wishlist',
    isDefault: true,
    items: guestEntries(req.session.wishlist ?? []).map((entry, index) => ({ ...entry, id: index + 1 })),
  };
}
