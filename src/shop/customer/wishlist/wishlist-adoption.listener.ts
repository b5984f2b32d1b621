import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { CUSTOMER_LOGGED_IN, CustomerLoggedInEvent } from '../auth/customer-events';
import { guestEntries } from './guest-wishlist';
import { WishlistService } from '../../../commerce/customers/wishlist.service';

/** What a guest saved before logging in joins the account's default list. */
@Injectable()
export class WishlistAdoption {
  constructor(private readonly wishlists: WishlistService) {}

  /**
   * Quantities add up with what the list already holds; the session list is emptied only once the adoption
   * committed, so a failure (logged by the event emitter, never failing the login) loses nothing.
   */
  @OnEvent(CUSTOMER_LOGGED_IN)
  async adopt({ customer, req }: CustomerLoggedInEvent): Promise<void> {
    const items = req.session?.wishlist;
    if (!items?.length) return;
    await this.wishlists.add(customer.id, guestEntries(items));
    delete req.session.wishlist;
  }
}
