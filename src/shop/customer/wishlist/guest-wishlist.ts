import type { Request } from 'express';
import { AppError } from '../../../common/errors/app-error';
import { SessionWishlistItem } from '../../../common/session-data';
import { StoredList, WishlistEntry } from '../../../commerce/customers/wishlist.service';

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
