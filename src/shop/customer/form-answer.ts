import type { Request, Response } from 'express';
import { addFlash, wantsHtml } from '../../common/session-data';
import { apiText, flashText, UiMessage } from './ui-message';

/**
 * Answers a request that did what it was asked (docs/http-contract.md): a browser form gets the message as a flash
 * (in the page language) and a 303 to `next`; scripts get `{ success: true, message, ...extra }` (English).
 */
export function answerDone(
  req: Request,
  res: Response,
  message: UiMessage,
  next: string,
  extra: Record<string, unknown> = {},
): void {
  if (wantsHtml(req)) {
    addFlash(req, 'success', flashText(res, message));
    res.redirect(303, next);
    return;
  }
  res.json({ success: true, message: apiText(message), ...extra });
}
