import { Injectable } from '@nestjs/common';
import { OnDomainEvent } from '../../../common/domain-events';
import { CUSTOMER_LOGGED_IN, CustomerLoggedInEvent } from '../auth/customer-events';
import { guestEntries } from '../../../commerce/wishlists/guest-wishlist';
import { WishlistService } from '../../../commerce/wishlists/wishlist.service';

/** What a guest saved before logging in joins the account's default list. */
@Injectable()
export class WishlistAdoption {
  constructor(private readonly wishlists: WishlistService) {}

  /**
   * Quantities add up with what the list already holds; the session list is emptied only once the adoption
   * committed, so a failure (logged by the event emitter, never failing the login) loses nothing.
   */
  @OnDomainEvent(CUSTOMER_LOGGED_IN)
  async adopt({ customer, session }: CustomerLoggedInEvent): Promise<void> {
    const items = session?.wishlist;
    if (!items?.length) return;
    await this.wishlists.add(customer.id, guestEntries(items));
    delete session.wishlist;
  }
}
