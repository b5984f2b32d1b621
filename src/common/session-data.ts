import type { Request } from 'express';
import type { CpPermissionName } from './cp-permissions';

/** What the service keeps in a shopper's or staff member's session. */
export interface FlashMessage {
  type: 'success' | 'error' | 'info';
  message: string;
}

export interface SessionWishlistItem {
  productId: number;
  variantId: number | null;
  qty: number;
  configuration: Record<string, string> | null;
}

/** The CP user a request acts for, as CpGuard loaded it from `cp_users` for this request. */
export interface CpStaff {
  id: number;
  email: string;
  admin: boolean;
  permissions: string[];
}

/** Who a session's CP login is: the user and its `authVersion` at login. */
export interface CpLogin {
  userId: number;
  authVersion: number;
}

/** Admins hold every permission. */
/** Who a CP request acts as, in history rows and audit entries: `cp:<email>`. */
export function cpActor(req: { cpStaff?: CpStaff }): string {
  return `cp:${req.cpStaff!.email}`;
}

export function cpUserHolds(user: CpStaff, permission: CpPermissionName): boolean {
  return user.admin || user.permissions.includes(permission);
}

declare module 'express-session' {
  interface SessionData {
    cartId?: number;
    /** ISO 4217 code chosen with /shop/currency/set. */
    currency?: string;
    /** A guest's wishlist: what they saved for later, adopted into an account on login. */
    wishlist?: SessionWishlistItem[];
    customerId?: number;
    /** The account's `authVersion` at login: a password change bumps it and ends every older session. */
    customerAuthVersion?: number;
    /** The order this browser placed last: what the success and failed pages show. */
    lastOrderNumber?: string;
    /** The orders this session placed itself (the latest few): whose items its "Try again" may put back in a cart. */
    placedOrderNumbers?: string[];
    /**
     * Only who logged in, never what they may do: CpGuard loads the user on every CP request, and a password,
     * permission or enabled change since (a newer `authVersion`) ends the login.
     */
    cpLogin?: CpLogin;
    flash?: FlashMessage[];
  }
}

/** Adds a message shown once on the next rendered page. */
export function addFlash(req: Request, type: FlashMessage['type'], message: string): void {
  if (!req.session) return;
  (req.session.flash ??= []).push({ type, message });
}

/** Returns and clears the pending messages. */
export function takeFlashes(req: Request): FlashMessage[] {
  const messages = req.session?.flash ?? [];
  if (messages.length) delete req.session.flash;
  return messages;
}

/** A new session id with the same data: on login, so a planted session id is worth nothing. */
export function rotateSession(req: Request): Promise<void> {
  const data = { ...req.session } as Record<string, unknown>;
  delete data.cookie;
  return new Promise((resolve, reject) =>
    req.session.regenerate((error) => {
      if (error) return reject(error);
      Object.assign(req.session, data);
      resolve();
    }),
  );
}

/** True for requests made by page scripts (`X-Requested-With: XMLHttpRequest`). */
export function isAjax(req: Request): boolean {
  return req.get('x-requested-with') === 'XMLHttpRequest';
}

/** True when the client wants a page rather than JSON: a browser navigation or form post. */
export function wantsHtml(req: Request): boolean {
  return !isAjax(req) && req.accepts(['json', 'html']) === 'html';
}
