/**
 * Where crawlers need not go: the shopper's own pages (cart, checkout, account, sign-in), search results, and
 * listings narrowed by a sort, a stock or price filter or a combination of facet values (`f.<code>=a,b`, or two
 * `f.` parameters), which are canonical to the unfiltered page anyway (src/web/page-links.ts). A single facet value
 * stays crawlable: it is a page worth landing on. The control panel is left out on purpose: its path
 * (`CP_TRIGGER`) may be chosen to be hard to guess, and robots.txt is public; its pages say `noindex` themselves.
 * Links with a secret in them (an order's page, a shared wishlist) are not named either: they answer `X-Robots-Tag:
 * noindex`, which a crawler must be allowed to fetch to see.
 */
const DISALLOWED = [
  '/shop/cart',
  '/shop/checkout',
  '/shop/account',
  '/shop/customer/',
  '/shop/login',
  '/shop/register',
  '/shop/forgotten-password',
  '/shop/catalog/search-results',
  '/shop/catalog/suggest',
  '/*?*sort=',
  '/*?*inStock=',
  '/*?*minPrice=',
  '/*?*maxPrice=',
  '/*?*f.*f.',
  '/*?*f.*,',
  '/*?*f.*%2C',
];

/** `/robots.txt`: everything else may be crawled; the sitemap is named by its absolute URL. */
export function robotsTxt(baseUrl: string): string {
  const rules = DISALLOWED.map((path) => `Disallow: ${path}`).join('\n');
  return `User-agent: *\nAllow: /\n${rules}\n\nSitemap: ${baseUrl}/sitemap.xml\n`;
}
