import type { Request } from 'express';
import { AppError } from '../../common/errors/app-error';
import { MAX_WISHLIST_QTY, WishlistEntry } from './wishlist.service';

/** The session is no place for a catalogue: a guest who wants more logs in. */
const MAX_GUEST_ITEMS = 50;

/**
 * A guest's one wishlist, kept in `req.session.wishlist` in the shape the cart's "save for later" writes.
 * Session items have no ids: an item's `id` is its 1-based position, as the last answer listed it. Used by the
 * wishlist routes and the cart's "save for later".
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
