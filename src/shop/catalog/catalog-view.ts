import type { Request } from 'express';
import { CatalogPage, ProductPage } from '../../commerce/catalog/catalog.service';
import { Facet, FacetSelection } from '../../commerce/catalog/facets';
import { CatalogProduct } from '../../commerce/products/catalog-product';
import { PageView } from '../../web/answers/answers';
import { PageTextFn } from '../../web/i18n/page-text.decorator';
import { guestPage } from '../../web/page-cache';
import { isWebAddress, SafetyInfo } from '../../commerce/products/product-safety';
import { productErrors } from '../../commerce/products/products-errors';
import { FALLBACK_LANGUAGE } from '../../web/i18n/translations';
import { facetParams } from './dto/facet-params';

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

/** Exactly the documented listing shape: `{ success, products, page, perPage, total, facets }`. */
export function catalogPageJson(page: CatalogPage) {
  return {
    success: true,
    products: page.products,
    page: page.page,
    perPage: page.perPage,
    total: page.total,
    facets: page.facets,
  };
}

/**
 * What the listing and search templates show: the products, the facet controls, and pager links that keep the
 * path the shopper used (a language alias stays an alias), every other parameter given in `params` and the
 * facet selection.
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
  const selection = selectionOf(page.facets);
  const link = (target: number) =>
    `${path}?${new URLSearchParams([
      ...kept,
      ...Object.entries(facetParams(selection)),
      ['perPage', String(page.perPage)],
      ['page', String(target)],
    ])}`;
  return {
    ...facetsView(page.facets, selection, path, [...kept, ['perPage', String(page.perPage)]]),
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

/** The selected values of the facets, by attribute code: the selection as the shop understood it. */
function selectionOf(facets: Facet[]): FacetSelection {
  const selection: FacetSelection = {};
  for (const facet of facets) {
    const slugs = facet.values.filter((value) => value.selected).map((value) => value.slug);
    if (slugs.length > 0) selection[facet.code] = slugs;
  }
  return selection;
}

/**
 * views/partials/catalog-facets.hbs: per attribute its values as checkboxes of the filter form and as links that
 * add or remove the value (first page); a link to a combination of two or more values is `rel="nofollow"`, so
 * crawlers index single-value pages only. The selected values again as removable chips, and a link clearing them.
 */
function facetsView(facets: Facet[], selection: FacetSelection, path: string, kept: Array<[string, string]>) {
  const href = (next: FacetSelection) => {
    const query = new URLSearchParams([...kept, ...Object.entries(facetParams(next))]).toString();
    return query ? `${path}?${query}` : path;
  };
  const toggled = (code: string, slug: string): FacetSelection => {
    const current = selection[code] ?? [];
    return {
      ...selection,
      [code]: current.includes(slug) ? current.filter((other) => other !== slug) : [...current, slug],
    };
  };
  const size = (chosen: FacetSelection) => Object.values(chosen).reduce((sum, slugs) => sum + slugs.length, 0);
  return {
    facetGroups: facets.map((facet) => ({
      code: facet.code,
      name: facet.name,
      values: facet.values.map((value) => {
        const next = toggled(facet.code, value.slug);
        return { ...value, id: `facet-${facet.code}-${value.slug}`, href: href(next), nofollow: size(next) >= 2 };
      }),
    })),
    facetChips: facets.flatMap((facet) =>
      facet.values
        .filter((value) => value.selected)
        .map((value) => ({ name: facet.name, value: value.value, href: href(toggled(facet.code, value.slug)) })),
    ),
    facetsClear: size(selection) > 0 ? href({}) : null,
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
