/** Any origin will do: only whether a path stays on it matters. */
const BASE = 'http://shop.invalid';

/**
 * `value` as a path on this site, or `fallback`. Only a path starting with one `/` qualifies; anything a
 * browser would resolve elsewhere (`//evil.com`, `/\evil.com`, `https://evil.com`, tabs or line breaks
 * inside `//`, `/..//evil.com` once resolved) is refused, so return and post-logout addresses cannot bounce
 * shoppers to another site.
 */
export function sameSitePath(value: unknown, fallback: string): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.length > 2000) return fallback;
  try {
    const url = new URL(value, BASE);
    const path = `${url.pathname}${url.search}${url.hash}`;
    return url.origin === BASE && !path.startsWith('//') ? path : fallback;
  } catch {
    return fallback;
  }
}
