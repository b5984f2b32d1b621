import { categoryPath, CategoryNode } from '../commerce/categories/category-tree';
import { absoluteUrl } from '../commerce/products/catalog-product';

const SCHEMA = 'https://schema.org';
/** Open Graph and meta descriptions: what a search result or a shared link shows before cutting it. */
const DESCRIPTION_LENGTH = 200;

/** A schema.org object as the layout embeds it (views/partials/json-ld.hbs). */
export type JsonLd = Record<string, unknown>;

/** What views/partials/seo-links.hbs writes as Open Graph and Twitter card tags. */
export interface OpenGraph {
  type: 'website' | 'product';
  title: string;
  description: string;
  /** Absolute. */
  url: string;
  /** Absolute, or null. */
  image: string | null;
}

/**
 * The text of a `<script type="application/ld+json">` data block: JSON with `<`, `>` and `&` as `\u003c`… escapes,
 * so no text inside (a product named `</script>…`) can end the element, and the line separators JavaScript once
 * refused. A data block is never executed, so the page's CSP (script-src 'self', no inline scripts) allows it.
 */
export function jsonLdText(data: JsonLd): string {
  return JSON.stringify({ '@context': SCHEMA, ...data }).replace(
    /[<>&\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * A `BreadcrumbList` of a category trail (CategoryTree.trail, top down), each linking its category page; `last` is
 * the page the trail leads to when it is not a category (a product).
 */
export function breadcrumbListJsonLd(
  trail: Array<Pick<CategoryNode, 'name' | 'path'>>,
  baseUrl: string,
  last?: { name: string; url: string },
): JsonLd {
  const items = trail.map((node) => ({ name: node.name, url: `${baseUrl}${categoryPath(node.path)}` }));
  if (last) items.push(last);
  return {
    '@type': 'BreadcrumbList',
    itemListElement: items.map((item, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name: item.name,
      item: item.url,
    })),
  };
}

export interface ProductFacts {
  name: string;
  description: string;
  sku: string;
  /** Absolute URLs. */
  images: string[];
  brand: string | null;
  /** Major units of `currency`: what a shopper pays now (the sale price while a sale runs). */
  price: number;
  currency: { code: string; decimals: number };
  inStock: boolean;
  /** The canonical URL. */
  url: string;
}

/** A `Product` with one `Offer`: the price as a decimal string in the page's currency, and the availability. */
export function productJsonLd(product: ProductFacts): JsonLd {
  return {
    '@type': 'Product',
    name: product.name,
    ...(product.description && { description: product.description }),
    sku: product.sku,
    ...(product.images.length > 0 && { image: product.images }),
    ...(product.brand && { brand: { '@type': 'Brand', name: product.brand } }),
    offers: {
      '@type': 'Offer',
      url: product.url,
      price: product.price.toFixed(product.currency.decimals),
      priceCurrency: product.currency.code,
      availability: `${SCHEMA}/${product.inStock ? 'InStock' : 'OutOfStock'}`,
    },
  };
}

export interface OrganizationFacts {
  name: string;
  baseUrl: string;
  /** A path on the site or an absolute URL; empty when the shop has no logo. */
  logo: string;
  email: string;
  phone: string | null;
}

/** The shop as an `Organization`: name, home page, logo and how customers reach it. */
export function organizationJsonLd(shop: OrganizationFacts): JsonLd {
  return {
    '@type': 'Organization',
    name: shop.name,
    url: `${shop.baseUrl}/`,
    ...(shop.logo && { logo: absoluteUrl(shop.logo, shop.baseUrl) }),
    contactPoint: {
      '@type': 'ContactPoint',
      contactType: 'customer service',
      email: shop.email,
      ...(shop.phone && { telephone: shop.phone }),
    },
  };
}

/** The Open Graph tags of a page that is not a product: the shop's listing, home, category and content pages. */
export function websiteOpenGraph(
  title: string,
  links: { canonicalUrl: string },
  description = '',
  image: string | null = null,
): OpenGraph {
  return { type: 'website', title, description: shortDescription(description), url: links.canonicalUrl, image };
}

/** A description for a search result or a link preview: one line, cut at a word near DESCRIPTION_LENGTH. */
export function shortDescription(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (line.length <= DESCRIPTION_LENGTH) return line;
  const cut = line.slice(0, DESCRIPTION_LENGTH - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), DESCRIPTION_LENGTH / 2)).trimEnd()}…`;
}
