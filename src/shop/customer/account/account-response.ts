import type { Request, Response } from 'express';
import { addFlash, wantsHtml } from '../../../common/session-data';
import { apiText, flashText, UiMessage } from '../ui-message';

/**
 * The answer to an account change: for a browser form post the message as a flash (in the page language)
 * and a 303 to `redirect`; for scripts and API clients `{ success: true, message, ...body }` (English).
 */
export function answerChange(
  req: Request,
  res: Response,
  change: { message: UiMessage; redirect: string; body?: Record<string, unknown> },
): void {
  if (wantsHtml(req)) {
    addFlash(req, 'success', flashText(res, change.message));
    res.redirect(303, change.redirect);
    return;
  }
  res.json({ success: true, message: apiText(change.message), ...change.body });
}
