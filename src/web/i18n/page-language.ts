import type { Response } from 'express';
import { FALLBACK_LANGUAGE, translations } from './translations';

declare module 'express-session' {
  interface SessionData {
    /** A shipped language chosen with the language switch (`/shop/language/set`). */
    language?: string;
  }
}

/**
 * The language a page is written in: the shopper's choice from the language switch, else the store's
 * language, else English, each only if translations for it are shipped (`sk-SK` counts as `sk`).
 */
export function chooseLanguage(chosen: string | undefined, storeLanguage: string): string {
  const shipped = translations();
  for (const candidate of [chosen, storeLanguage]) {
    const language = candidate?.toLowerCase().split('-')[0];
    if (language && shipped.has(language)) return language;
  }
  return FALLBACK_LANGUAGE;
}

/** The current page's language, as the page-locals middleware chose it. */
export function pageLanguage(res: Response): string {
  return (res.locals.lang as string | undefined) ?? FALLBACK_LANGUAGE;
}

/** `t(res, 'catalog.title')`: a UI string in the current page's language, for titles and messages made in code. */
export function t(res: Response, key: string, params?: Record<string, unknown>): string {
  return translations().t(pageLanguage(res), key, params);
}
