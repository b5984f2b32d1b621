import { AppError } from '../../common/errors/app-error';
import { SessionWishlistItem } from '../../common/session-data';
import { MAX_WISHLIST_QTY, StoredList, WishlistEntry } from './wishlist.service';
import { wishlistErrors } from './wishlists-errors';

/** The session is no place for a catalogue: a guest who wants more logs in. */
const MAX_GUEST_ITEMS = 50;

/** Where a guest's one wishlist is kept: the session's `wishlist`, in the shape the cart's "save for later" writes. */
export interface GuestWishlistSession {
  wishlist?: SessionWishlistItem[];
}

/**
 * Adds to a guest's wishlist. Session items have no ids: an item's `id` is its 1-based position, as the last
 * answer listed it. Used by the wishlist routes and the cart's "save for later".
 */
export function addToGuestWishlist(session: GuestWishlistSession, entry: WishlistEntry): void {
  const items = (session.wishlist ??= []);
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
    throw wishlistErrors.wishlist_full({ max: MAX_GUEST_ITEMS, guest: true });
  }
  items.push({ productId: entry.productId, variantId, qty: entry.qty, configuration: entry.configuration });
}

export function removeFromGuestWishlist(session: GuestWishlistSession, position: number): void {
  const items = session.wishlist ?? [];
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

export function guestList(session: GuestWishlistSession): StoredList {
  return {
    id: null,
    name: 'Wishlist',
    isDefault: true,
    items: guestEntries(session.wishlist ?? []).map((entry, index) => ({ ...entry, id: index + 1 })),
  };
}
