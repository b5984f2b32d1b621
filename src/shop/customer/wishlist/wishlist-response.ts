import type { Request, Response } from 'express';
import { backUrl } from '../../../common/back-url';
import { addFlash, wantsHtml } from '../../../common/session-data';
import { apiText, flashText, UiMessage } from '../ui-message';
import { WishlistView } from './wishlist-products.service';

/**
 * The answer to a wishlist change: JSON `{ success, message, wishlist, count }` (English) for scripts and
 * API clients; for a browser form post, the message as a flash (in the page language) and a 303 back to
 * the page the form was on.
 */
export async function answerWishlist(
  req: Request,
  res: Response,
  message: UiMessage,
  wishlist: () => Promise<WishlistView>,
  fallback: string,
): Promise<void> {
  if (wantsHtml(req)) {
    addFlash(req, 'success', flashText(res, message));
    res.redirect(303, backUrl(req, fallback));
    return;
  }
  const shown = await wishlist();
  res.json({ success: true, message: apiText(message), wishlist: shown, count: shown.count });
}
