import type { Request } from 'express';

/** The Express setting holding this site's origin (BASE_URL's), set by configureApp for `backUrl`. */
export const SITE_ORIGIN_SETTING = 'site origin';

/** Any origin will do: only whether a path stays on it matters. */
const PROBE = 'http://shop.invalid';

/** C0 controls and DEL: browsers drop some of them (tabs, line breaks) from URLs, so none may steer a redirect. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

/**
 * The one same-site check for every redirect that takes its target from the request (Referer, `return`,
 * `next`, a setting): `value` as a path on this site, or `fallback`.
 *
 * A path qualifies when it starts with one `/` and a browser resolves it on this site: `//evil.com`,
 * `/\evil.com` (a backslash counts as a slash), `/..//evil.com` once resolved and anything with a control
 * character are refused. A full URL qualifies only when `siteOrigin` is given and is its origin; it is
 * reduced to its path, which must then pass the same test (`http://shop//evil.com` does not).
 */
export function sameSitePath(value: unknown, fallback: string, siteOrigin?: string): string {
  if (typeof value !== 'string' || value.length > 2000 || CONTROL_CHARACTER.test(value)) return fallback;
  try {
    let path = value;
    if (!value.startsWith('/')) {
      const url = new URL(value);
      if (!siteOrigin || url.origin !== siteOrigin) return fallback;
      path = `${url.pathname}${url.search}${url.hash}`;
    }
    const url = new URL(path, PROBE);
    const resolved = `${url.pathname}${url.search}${url.hash}`;
    return url.origin === PROBE && !resolved.startsWith('//') ? resolved : fallback;
  } catch {
    return fallback;
  }
}

/** Where "back" is: the Referer when it is a page of this site (BASE_URL's origin), else `fallback`. */
export function backUrl(req: Request, fallback = '/'): string {
  return sameSitePath(req.get('referer'), fallback, req.app.get(SITE_ORIGIN_SETTING) as string | undefined);
}
