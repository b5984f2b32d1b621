import type { Request } from 'express';
import { Customer } from '../../../commerce/customers/customer.entity';

/**
 * After a customer logged in (form, AJAX, social or right after registering), awaited with `emitAsync`
 * before the answer goes out: features adopt what the guest had in the session (wishlist, cart).
 */
export const CUSTOMER_LOGGED_IN = 'customer.logged-in';

export interface CustomerLoggedInEvent {
  customer: Customer;
  /** The session the login is now in: what the guest kept there can move to the account. */
  session: Request['session'];
}

declare module '../../../common/domain-events' {
  interface DomainEventMap {
    [CUSTOMER_LOGGED_IN]: CustomerLoggedInEvent;
  }
}
