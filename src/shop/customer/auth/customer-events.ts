import type { Request } from 'express';
import { Customer } from '../../../commerce/customers/customer.entity';

/**
 * After a customer logged in (form, AJAX, social or right after registering), awaited with `emitAsync`
 * before the answer goes out: features adopt what the guest had in the session (wishlist, cart).
 */
export const CUSTOMER_LOGGED_IN = 'customer.logged-in';

export interface CustomerLoggedInEvent {
  customer: Customer;
  req: Request;
}
