import type { Request } from 'express';
import { CatalogPage, ProductPage, SearchSuggestions } from '../../commerce/catalog/catalog.service';
import { DidYouMean } from '../../commerce/catalog/product-search.service';
import { formatAmount } from '../../common/money-format';
import { CatalogProduct } from '../../commerce/products/catalog-product';
import { PageView } from '../../web/answers/answers';
import { PageTextFn } from '../../web/i18n/page-text.decorator';
import { guestPage } from '../../web/page-cache';
import { isWebAddress, SafetyInfo } from '../../commerce/products/product-safety';
import { productErrors } from '../../commerce/products/products-errors';
import { FALLBACK_LANGUAGE } from '../../web/i18n/translations';

/** Stock at or below this is worth saying ("Only 3 left"); the exact count of a full shelf is not. */
const LOW_STOCK = 5;

/** The catalog pages answer JSON to `Accept: application/json` and HTML to browsers (docs/http-contract.md). */
export function wantsJson(req: Request): boolean {
  return req.accepts(['html', 'json']) === 'json';
}

/** The ISO code the cart's currency switch stored, if any. */
export function sessionCurrency(req: Request): string | undefined {
  return req.session?.currency;
}

/**
 * The product-404 page, in place: a product URL that does not resolve keeps its URL and answers 404;
 * JSON clients get the 404 error body.
 */
export function productNotFoundPage(req: Request, text: PageTextFn): PageView {
  if (wantsJson(req)) throw productErrors.product_not_found();
  return guestPage(req, 'shop/catalog/product-404', { title: text('catalog.notFound.title') }, 404);
}

/** Exactly the documented listing shape: `{ success, products, page, perPage, total }`. */
export function catalogPageJson(page: CatalogPage) {
  return { success: true, products: page.products, page: page.page, perPage: page.perPage, total: page.total };
}

/** The search page's line about a corrected spelling, with the link to search for it. */
export function didYouMeanView(didYouMean: DidYouMean | null) {
  return (
    didYouMean && {
      ...didYouMean,
      url: `/shop/catalog/search-results?${new URLSearchParams({ q: didYouMean.query })}`,
    }
  );
}

/** The suggest endpoint's JSON (docs/http-contract.md, _Search suggestions_): absolute URLs, formatted prices. */
export function searchSuggestionsJson(
  query: string,
  suggestions: SearchSuggestions,
  baseUrl: string,
  language: string,
) {
  return {
    success: true,
    query,
    products: suggestions.products.map((product) => ({
      name: product.name,
      sku: product.sku,
      url: product.url,
      image: product.image,
      price: formatAmount(product.price, suggestions.currency, language),
      inStock: product.inStock,
    })),
    categories: suggestions.categories.map((category) => ({ name: category.name, url: `${baseUrl}${category.url}` })),
    didYouMean: suggestions.didYouMean?.query ?? null,
  };
}

/**
 * What the listing and search templates show: the products, and pager links that keep the path the shopper
 * used (a language alias stays an alias) and every other parameter given in `params`.
 */
export function catalogPageView(
  page: CatalogPage,
  req: Request,
  params: Record<string, string | undefined>,
  baseUrl: string,
) {
  const pages = Math.max(1, Math.ceil(page.total / page.perPage));
  const path = req.originalUrl.split('?')[0];
  const kept = Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined);
  const link = (target: number) =>
    `${path}?${new URLSearchParams([...kept, ['perPage', String(page.perPage)], ['page', String(target)]])}`;
  return {
    products: productCards(page.products, baseUrl),
    currency: page.currency,
    total: page.total,
    perPage: page.perPage,
    pager: {
      page: page.page,
      pages,
      previous: page.page > 1 ? link(Math.min(page.page - 1, pages)) : null,
      next: page.page < pages ? link(page.page + 1) : null,
    },
  };
}

export function productPageView(page: ProductPage, baseUrl: string, language: string) {
  const { product } = page;
  return {
    product: {
      ...withStock(product),
      gallery: product.pictures
        ? product.pictures.map((picture, index) => ({ ...picture, n: index + 1 }))
        : product.images.map((src, index) => ({ src: sitePath(src, baseUrl), n: index + 1 })),
      variants: product.variants.map((variant) => ({
        ...withStock(variant),
        optionsLabel: Object.values(variant.options).join(' / '),
        // What shop.js matches the chosen option values against: the values in the options' order.
        key: product.options.map((option) => variant.options[option.code] ?? '').join('|'),
      })),
    },
    safety: product.safety && safetyView(product.safety, language),
    related: productCards(page.related, baseUrl),
    crossSell: productCards(page.crossSell, baseUrl),
    currency: page.currency,
  };
}

/**
 * The product page's "Product safety" section: electronic addresses as links (an e-mail address as `mailto:`;
 * readSafetyInfo let nothing else in), the warnings in the page's language, else in the shop's fallback language.
 */
function safetyView(safety: SafetyInfo, language: string) {
  const contact = (address: string | null) =>
    address && { text: address, href: isWebAddress(address) ? address : `mailto:${address}` };
  return {
    ...safety,
    manufacturerLink: contact(safety.manufacturerContact),
    responsibleLink: contact(safety.responsibleContact),
    warning: safety.warnings[language] ?? safety.warnings[FALLBACK_LANGUAGE] ?? null,
  };
}

/**
 * Products as the cards of views/partials/product-card.hbs show them: links and images on this site as paths,
 * so a page works at whatever host it was opened (the JSON keeps absolute URLs).
 */
export function productCards(products: CatalogProduct[], baseUrl: string) {
  return products.map((product) => ({
    ...withStock(product),
    url: sitePath(product.url, baseUrl),
    image: product.image && sitePath(product.image, baseUrl),
  }));
}

/** `lowStock`: a handful left, which the page says with the count. */
function withStock<T extends Pick<CatalogProduct, 'stock' | 'inStock'>>(product: T): T & { lowStock: boolean } {
  return { ...product, lowStock: product.inStock && product.stock <= LOW_STOCK };
}

function sitePath(url: string, baseUrl: string): string {
  return url.startsWith(`${baseUrl}/`) ? url.slice(baseUrl.length) : url;
}
