import type { Request } from 'express';

/** Where "back" is: the Referer when it points into this site (never elsewhere), else `fallback`. */
export function backUrl(req: Request, fallback = '/'): string {
  const referer = req.get('referer');
  if (!referer) return fallback;
  try {
    const url = new URL(referer);
    return url.host === req.get('host') ? `${url.pathname}${url.search}` : fallback;
  } catch {
    return fallback;
  }
}
