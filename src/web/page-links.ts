import type { Request } from 'express';
import { translations } from './i18n/translations';

/** `?lang=sk`: the query parameter that shows a shop page in one of its languages (crawlable, not remembered). */
export const LANGUAGE_PARAM = 'lang';

/** Filters that narrow a listing without making a page worth finding on its own. */
export const NARROWING_PARAMS = ['inStock', 'minPrice', 'maxPrice'];

/** What the layout's head says about where a page lives (views/partials/seo-links.hbs). */
export interface PageLinks {
  canonicalUrl: string;
  /** One per shop language, then `x-default`: the same page in each language. */
  alternateLinks: Array<{ hreflang: string; href: string }>;
}

/** The shipped language a request asks for with `?lang=`, if any. */
export function requestedLanguage(req: Request): string | undefined {
  const wanted = req.query[LANGUAGE_PARAM];
  const language = typeof wanted === 'string' ? wanted.toLowerCase() : undefined;
  return language && translations().has(language) ? language : undefined;
}

/**
 * The parameters of a listing, category or search page that its canonical URL keeps, in this order: the search
 * term `q`; a single facet value (`f.brand=acme`, a page worth landing on); the page number past 1. A combination
 * (two facet values, or a facet with a stock or price filter, or those filters alone) is canonical to the page
 * without any filter, page 1; `sort` and `perPage` only reorder or cut the same products and are always dropped.
 * `facets` is the selection the shop understood (`f.<code>` → slugs joined by commas): an unknown attribute or
 * value in the address filters nothing, so it is no page of its own.
 */
export function listingCanonicalParams(req: Request, facets: Record<string, string>): Array<[string, string]> {
  const search = new URLSearchParams(req.originalUrl.split('?')[1] ?? '');
  const kept: Array<[string, string]> = [];
  const q = search.get('q')?.trim();
  if (q) kept.push(['q', q]);
  const chosen = Object.entries(facets);
  const narrowed = NARROWING_PARAMS.some((key) => (search.get(key) ?? '') !== '' && search.get(key) !== '0');
  if (narrowed || chosen.length > 1 || chosen.some(([, value]) => value.includes(','))) return kept;
  kept.push(...chosen);
  const page = Number(search.get('page'));
  if (Number.isInteger(page) && page > 1) kept.push(['page', String(page)]);
  return kept;
}

/**
 * The canonical URL of the page at `path` (absolute, on the base URL) with only `params`, and its `hreflang`
 * alternates. The store's language is the URL without `?lang=` (also `x-default`); every other language is the
 * same URL with `?lang=<code>`. A page asked for in another language with `?lang=` is canonical to that language's
 * URL, so each language version is its own page to search engines. The path is the route's own, so a language alias
 * of the listing (`catalogAliases`) canonicalises to the listing's path.
 */
export function pageLinks(
  req: Request,
  baseUrl: string,
  path: string,
  params: Array<[string, string]> = [],
): PageLinks {
  const storeLanguage = (req.res?.locals.storeLanguage as string | undefined) ?? '';
  const url = (language?: string) => {
    const query = new URLSearchParams(params);
    if (language && language !== storeLanguage) query.set(LANGUAGE_PARAM, language);
    const search = query.toString();
    return `${baseUrl}${path}${search ? `?${search}` : ''}`;
  };
  return {
    canonicalUrl: url(requestedLanguage(req)),
    alternateLinks: [
      ...translations().languages.map((language) => ({ hreflang: language, href: url(language) })),
      { hreflang: 'x-default', href: url() },
    ],
  };
}
