import type { Request, Response } from 'express';
import { backUrl } from '../../../common/back-url';
import { addFlash, wantsHtml } from '../../../common/session-data';
import { WishlistView } from './wishlist-products.service';

/**
 * The answer to a wishlist change: JSON `{ success, message, wishlist, count }` for scripts and API
 * clients; for a browser form post, the message as a flash and a 303 back to the page the form was on.
 */
export async function answerWishlist(
  req: Request,
  res: Response,
  message: string,
  wishlist: () => Promise<WishlistView>,
  fallback: string,
): Promise<void> {
  if (wantsHtml(req)) {
    addFlash(req, 'success', message);
    res.redirect(303, backUrl(req, fallback));
    return;
  }
  const shown = await wishlist();
  res.json({ success: true, message, wishlist: shown, count: shown.count });
}
