import type { Request, Response } from 'express';
import { addFlash, wantsHtml } from '../../common/session-data';

/**
 * Answers a request that did what it was asked (DESIGN.md §4): a browser form gets the message as a flash
 * and a 303 to `next`; scripts get `{ success: true, message, ...extra }`.
 */
export function answerDone(
  req: Request,
  res: Response,
  message: string,
  next: string,
  extra: Record<string, unknown> = {},
): void {
  if (wantsHtml(req)) {
    addFlash(req, 'success', message);
    res.redirect(303, next);
    return;
  }
  res.json({ success: true, message, ...extra });
}
