import type { Request, Response } from 'express';
import { CartSummary } from '../../commerce/carts/cart-pricing.service';
import { backUrl } from '../../common/back-url';
import { addFlash, wantsHtml } from '../../common/session-data';

/**
 * The answer to a cart change: JSON `{ success, message, cart }` for scripts and API clients; for a
 * browser form post, the message as a flash and a redirect back to where the form was.
 */
export function answerCartChange(req: Request, res: Response, message: string, cart: () => Promise<CartSummary>) {
  if (wantsHtml(req)) {
    addFlash(req, 'success', message);
    return redirectBack(req, res);
  }
  return cart().then((summary) => res.json({ success: true, message, cart: summary }));
}

/** 303 back to the page the form was on (the cart page when unknown). */
export function redirectBack(req: Request, res: Response): void {
  res.redirect(303, backUrl(req, '/shop/cart'));
}
