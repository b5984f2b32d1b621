import type { NextFunction, Request, Response } from 'express';
import { csrf } from '../common/csrf';
import { takeFlashes } from '../common/session-data';

/**
 * Gives every rendered page what the layouts need: pending flash messages and, for pages that are never
 * shared-cached (`csrf: true`), the session's CSRF token for `<meta name="csrf-token">`.
 */
export function renderLocals(cpTrigger: string) {
  return (req: Request, res: Response, next: NextFunction) => {
    const render = res.render.bind(res);
    res.render = ((view: string, locals?: Record<string, unknown>, callback?: (err: Error, html: string) => void) => {
      const page: Record<string, unknown> = { cpTrigger, flashes: takeFlashes(req), ...locals };
      if (page.csrf && req.session) page.csrfToken = csrf.generateToken(req);
      render(view, page, callback);
    }) as Response['render'];
    next();
  };
}
