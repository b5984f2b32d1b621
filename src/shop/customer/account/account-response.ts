import type { Request, Response } from 'express';
import { addFlash, wantsHtml } from '../../../common/session-data';

/**
 * The answer to an account change: for a browser form post the message as a flash and a 303 to `redirect`;
 * for scripts and API clients `{ success: true, message, ...body }`.
 */
export function answerChange(
  req: Request,
  res: Response,
  change: { message: string; redirect: string; body?: Record<string, unknown> },
): void {
  if (wantsHtml(req)) {
    addFlash(req, 'success', change.message);
    res.redirect(303, change.redirect);
    return;
  }
  res.json({ success: true, message: change.message, ...change.body });
}
