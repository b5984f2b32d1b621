/**
 * The content pages every shop has, each at `/shop/page/<slug>` and linked in the footer: what a consumer must be
 * able to read before ordering (docs/shop.md, _Content pages_).
 */
export const CONTENT_PAGE_SLUGS = ['terms', 'privacy', 'contact', 'withdrawal', 'accessibility'] as const;

export type ContentPageSlug = (typeof CONTENT_PAGE_SLUGS)[number];

export function isContentPageSlug(value: string): value is ContentPageSlug {
  return (CONTENT_PAGE_SLUGS as readonly string[]).includes(value);
}
