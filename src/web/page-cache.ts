import type { Request } from 'express';
import { PageView } from './answers/answers';

/** How long a shared cache may keep a guest page: a price or stock change shows within a minute. */
const GUEST_PAGE_MAX_AGE_S = 60;

/**
 * True when the request's session holds anything (a cart, a chosen currency or language, a login, a CSRF
 * token, a flash): the page may then differ from what a first-time visitor sees.
 */
export function hasPersonalSession(req: Request): boolean {
  const session = req.session as unknown as Record<string, unknown> | undefined;
  return Boolean(session) && Object.keys(session!).some((key) => key !== 'cookie' && session![key] !== undefined);
}

/**
 * A page that is the same for every visitor without a session (home, listing, search, product): shared-cacheable
 * for a minute, its forms getting their CSRF token from shop.js. With a session it carries that session's CSRF
 * token, currency and flash messages, so nobody may keep it (`no-store`, like every page with a token, see
 * render-locals.ts) and it is rendered with `csrf: true`. `Vary: Cookie` keeps a shared cache from handing the
 * guest copy to a shopper with a session. A page asked for in a language with `?lang=` (page-links.ts) has the
 * language in its URL, which is what a shared cache keys on, and nothing in a session: it stays a guest page.
 */
export function guestPage(req: Request, view: string, model: object, status?: number): PageView {
  const personal = hasPersonalSession(req);
  return new PageView(
    view,
    { ...model, csrf: personal },
    {
      status,
      headers: {
        'Cache-Control': personal ? 'no-store' : `public, max-age=${GUEST_PAGE_MAX_AGE_S}`,
        Vary: 'Accept, Cookie',
      },
    },
  );
}
