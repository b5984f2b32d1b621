import type { Request, Response } from 'express';
import { AppError } from './errors/app-error';
import { addFlash, wantsHtml } from './session-data';

/** What a CP post did: `message` for people, `success: false` for an outcome that is not an error. */
export type CpPostOutcome = { message: string; success?: boolean } & Record<string, unknown>;

export interface CpPost {
  /** The page a browser is sent to afterwards, with the message as a flash. */
  page: string;
  action: () => Promise<CpPostOutcome>;
  /** Shows a refused browser post again (the form with its field errors) instead of flash + redirect. */
  refused?: (error: AppError) => void;
}

/**
 * Runs a CP post and answers it (docs/http-contract.md): scripts get `{ success, message, … }` or the JSON error;
 * a browser gets a flash and a 303 to the post's own page — not "back", since helmet's `no-referrer`
 * policy keeps browsers from sending the Referer the exception filter would follow.
 */
export async function answerCpPost(req: Request, res: Response, post: CpPost): Promise<void> {
  let outcome: CpPostOutcome;
  try {
    outcome = await post.action();
  } catch (error) {
    if (!(error instanceof AppError) || !wantsHtml(req)) throw error;
    if (post.refused) return post.refused(error);
    addFlash(req, 'error', error.message);
    return res.redirect(303, post.page);
  }
  if (!wantsHtml(req)) {
    res.status(200).json({ success: true, ...outcome });
    return;
  }
  addFlash(req, outcome.success === false ? 'error' : 'success', outcome.message);
  res.redirect(303, post.page);
}
