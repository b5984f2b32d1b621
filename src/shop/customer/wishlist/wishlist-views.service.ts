import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { FormAnswer, PageMessage } from '../../../web/answers/answers';
import { apiText } from '../translated-answers';
import { Customer } from '../../../commerce/customers/customer.entity';
import { SessionCustomers } from '../../../commerce/customers/session-customers.service';
import { guestList } from '../../../commerce/wishlists/guest-wishlist';
import { WishlistProducts, WishlistView } from '../../../commerce/wishlists/wishlist-products.service';
import { DEFAULT_WISHLIST_NAME, WishlistService } from '../../../commerce/wishlists/wishlist.service';

/**
 * The answer to a wishlist change: JSON `{ success, message, wishlist, count }` (English) for scripts and API
 * clients; for a browser form post, the message as a flash (in the page language) and a 303 back to the page the
 * form was on, else to `fallback`.
 */
export function wishlistChanged(
  message: PageMessage,
  wishlist: () => Promise<WishlistView>,
  fallback: string,
): FormAnswer {
  return new FormAnswer(message, { back: fallback }, async () => {
    const shown = await wishlist();
    return { success: true, message: apiText(message), wishlist: shown, count: shown.count };
  });
}

/** Wishlists as the shopper sees them (prices in the session's currency), and who the shopper is. */
@Injectable()
export class WishlistViews {
  constructor(
    private readonly sessions: SessionCustomers,
    private readonly wishlists: WishlistService,
    private readonly products: WishlistProducts,
  ) {}

  /**
   * The logged-in customer on routes guests may use too (CustomerGuard's check without its redirect): a
   * session whose login went stale counts as a guest's.
   */
  customer(req: Request): Promise<Customer | null> {
    return this.sessions.current(req.session);
  }

  all(req: Request, customerId: number): Promise<WishlistView[]> {
    return this.wishlists.lists(customerId).then((lists) => this.products.present(lists, req.session.currency));
  }

  /** One of the customer's lists; null stands for the default list not made yet (shown empty). */
  async one(req: Request, customerId: number, wishlistId: number | null): Promise<WishlistView> {
    const list = wishlistId
      ? await this.wishlists.list(customerId, wishlistId)
      : { id: null, name: DEFAULT_WISHLIST_NAME, isDefault: true, items: [] };
    return (await this.products.present([list], req.session.currency))[0];
  }

  async guest(req: Request): Promise<WishlistView> {
    return (await this.products.present([guestList(req.session)], req.session.currency))[0];
  }
}
