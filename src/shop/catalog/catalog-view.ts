import type { Request, Response } from 'express';
import { AppError } from '../../common/errors/app-error';
import { CatalogProduct } from '../../commerce/products/catalog-product';
import { t } from '../../web/i18n/page-language';
import { cacheForGuests } from '../../web/page-cache';
import { CatalogPage, ProductPage } from './catalog.service';

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
 * Renders a page that is the same for every guest: shared-cacheable for a visitor without a session (forms
 * then get their CSRF token from shop.js), personal, with the session's token in its forms, for one with a
 * session (src/web/page-cache.ts).
 */
export function renderGuestPage(req: Request, res: Response, view: string, locals: Record<string, unknown>): void {
  const personal = cacheForGuests(req, res);
  res.render(view, { ...locals, csrf: personal });
}

/**
 * The product-404 page, in place: a product URL that does not resolve keeps its URL and answers 404
 * (spec "Errors"); JSON clients get the 404 error body.
 */
export function renderProductNotFound(req: Request, res: Response): void {
  if (wantsJson(req)) throw new AppError('product_not_found', 'Product not found', 404);
  res.status(404);
  renderGuestPage(req, res, 'shop/catalog/product-404', { title: t(res, 'catalog.notFound.title') });
}

/** Exactly the documented listing shape: `{ success, products, page, perPage, total }`. */
export function catalogPageJson(page: CatalogPage) {
  return { success: true, products: page.products, page: page.page, perPage: page.perPage, total: page.total };
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

export function productPageView(page: ProductPage, baseUrl: string) {
  const { product } = page;
  return {
    product: {
      ...withStock(product),
      gallery: product.images.map((src, index) => ({ src: sitePath(src, baseUrl), n: index + 1 })),
      variants: product.variants.map((variant) => ({
        ...withStock(variant),
        optionsLabel: Object.values(variant.options).join(' / '),
        // What shop.js matches the chosen option values against: the values in the options' order.
        key: product.options.map((option) => variant.options[option.code] ?? '').join('|'),
      })),
    },
    related: productCards(page.related, baseUrl),
    crossSell: productCards(page.crossSell, baseUrl),
    currency: page.currency,
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
