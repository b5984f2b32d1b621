import { csrfSync } from 'csrf-sync';
import type { Request } from 'express';

/** Synchronizer tokens kept in the session; sent back in `X-CSRF-Token` or the form field `_csrf`. */
export const csrf = csrfSync({
  size: 32,
  getTokenFromRequest: (req: Request) => {
    const header = req.get('x-csrf-token');
    if (header) return header;
    const field = (req.body as Record<string, unknown> | undefined)?._csrf;
    return typeof field === 'string' ? field : undefined;
  },
});
