import type { Request } from 'express';
import { Customer } from '../../../commerce/customers/customer.entity';
import { rotateSession } from '../../../common/session-data';

/** "Remember me" keeps the login for this long; otherwise it ends when the browser closes. */
export const REMEMBER_ME_MS = 30 * 24 * 60 * 60 * 1000;

/** Puts the customer in the session under a fresh session id, so a planted id is worth nothing. */
export async function logInSession(req: Request, customer: Customer, rememberMe: boolean): Promise<void> {
  await rotateSession(req);
  req.session.customerId = customer.id;
  req.session.customerAuthVersion = customer.authVersion;
  req.session.cookie.maxAge = rememberMe ? REMEMBER_ME_MS : undefined;
}

/**
 * Ends the session entirely: it is deleted from the store with its cart, wishlist and login. The request
 * carries on with a fresh, empty session, which is stored only if something (a flash message) is put in it.
 */
export function destroySession(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.regenerate((error) => (error ? reject(error) : resolve())));
}
