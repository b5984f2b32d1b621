import type { Request, Response } from 'express';
import { AppError } from '../../common/errors/app-error';
import { toMinor } from '../../common/money';
import { formatMoney } from '../../common/money-format';
import { CatalogProduct } from '../../commerce/products/catalog-product';
import { Currency } from '../../commerce/stores/currency.entity';
import { CatalogPage, ProductPage } from './catalog.service';

/** The catalog pages answer JSON to `Accept: application/json` and HTML to browsers (DESIGN.md §4). */
export function wantsJson(req: Request): boolean {
  return req.accepts(['html', 'json']) === 'json';
}

/** The ISO code the cart's currency switch stored, if any. */
export function sessionCurrency(req: Request): string | undefined {
  return req.session?.currency;
}

/**
 * The product-404 page, in place: a product URL that does not resolve keeps its URL and answers 404
 * (spec "Errors"); JSON clients get the 404 error body.
 */
export function renderProductNotFound(req: Request, res: Response): void {
  if (wantsJson(req)) throw new AppError('product_not_found', 'Product not found', 404);
  res.status(404).render('shop/catalog/product-404', { title: 'Product not found' });
}

/** Exactly the documented listing shape: `{ success, products, page, perPage, total }`. */
export function catalogPageJson(page: CatalogPage) {
  return { success: true, products: page.products, page: page.page, perPage: page.perPage, total: page.total };
}

/**
 * What the listing and search templates show: price labels, and pager links that keep the path the
 * shopper used (a language alias stays an alias) and every other parameter.
 */
export function catalogPageView(page: CatalogPage, req: Request, params: Record<string, string>) {
  const pages = Math.max(1, Math.ceil(page.total / page.perPage));
  const path = req.originalUrl.split('?')[0];
  const link = (target: number) =>
    `${path}?${new URLSearchParams({ ...params, perPage: String(page.perPage), page: String(target) })}`;
  return {
    products: withPriceLabels(page.products, page.currency),
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

export function productPageView(page: ProductPage) {
  const { product, currency } = page;
  return {
    product: {
      ...withPriceLabel(product, currency),
      stockLabel: stockLabel(product.stock),
      variants: product.variants.map((variant) => ({
        ...withPriceLabel(variant, currency),
        optionsLabel: Object.values(variant.options).join(' / '),
      })),
    },
    related: withPriceLabels(page.related, currency),
  };
}

function withPriceLabels(products: CatalogProduct[], currency: Currency) {
  return products.map((product) => withPriceLabel(product, currency));
}

function withPriceLabel<T extends { price: number }>(item: T, currency: Currency): T & { priceLabel: string } {
  return { ...item, priceLabel: formatMoney(toMinor(item.price, currency.decimals), currency) };
}

/** A handful left is worth saying; the exact count of a full shelf is not. */
function stockLabel(stock: number): string {
  if (stock <= 0) return 'Out of stock';
  return stock <= 5 ? `Only ${stock} left` : 'In stock';
}
