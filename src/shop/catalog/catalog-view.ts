import type { Request } from 'express';
import { categoryErrors } from '../../commerce/categories/categories-errors';
import { CategoryLink, CategoryPage } from '../../commerce/categories/shop-categories.service';
import { CatalogPage, ProductPage, SearchResultsPage, SearchSuggestions } from '../../commerce/catalog/catalog.service';
import { formatAmount } from '../../common/money-format';
import { Facet, FacetSelection } from '../../commerce/catalog/facets';
import { CatalogProduct } from '../../commerce/products/catalog-product';
import { PageView } from '../../web/answers/answers';
import { PageTextFn } from '../../web/i18n/page-text.decorator';
import { guestPage } from '../../web/page-cache';
import { isWebAddress, SafetyInfo } from '../../commerce/products/product-safety';
import { productErrors } from '../../commerce/products/products-errors';
import { FALLBACK_LANGUAGE } from '../../web/i18n/translations';
import { CatalogListingQuery, DEFAULT_PER_PAGE, DEFAULT_SORT } from './dto/catalog-query.dto';
import { ProductSeoFacts } from '../../commerce/seo/product-seo.service';
import {
  LANGUAGE_PARAM,
  listingCanonicalParams,
  NARROWING_PARAMS,
  pageLinks,
  requestedLanguage,
} from '../../web/page-links';
import { breadcrumbListJsonLd, OpenGraph, productJsonLd, shortDescription } from '../../web/structured-data';
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

/** The category-404 page, like the product-404: HTML keeps the URL and answers 404, JSON gets the error body. */
export function categoryNotFoundPage(req: Request, text: PageTextFn): PageView {
  if (wantsJson(req)) throw categoryErrors.category_not_found();
  return guestPage(req, 'shop/catalog/category-404', { title: text('catalog.category.notFound.title') }, 404);
}

/** The filter form's values as the listing's links keep them, and whether any filter (a facet too) is on. */
export function listingFilters(query: CatalogListingQuery) {
  return {
    sort: query.sort,
    inStock: query.inStock === '1' ? '1' : undefined,
    minPrice: query.minPrice?.toString(),
    maxPrice: query.maxPrice?.toString(),
  };
}

/** A category page's JSON `category` (docs/http-contract.md): links with absolute URLs like the products'. */
export function categoryJson(category: CategoryPage, baseUrl: string) {
  const absolute = ({ name, path, url }: CategoryLink) => ({ name, path, url: `${baseUrl}${url}` });
  return {
    ...absolute(category),
    description: category.description,
    breadcrumbs: category.breadcrumbs.map(absolute),
    children: category.children.map(absolute),
  };
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

/** The search results page. */
export const SEARCH_PATH = '/shop/catalog/search-results';

/**
 * The search page's line about a corrected spelling, with the link to search for it: the same facet selection and
 * language, first page.
 */
export function didYouMeanView(page: SearchResultsPage, req: Request) {
  if (!page.didYouMean) return null;
  const language = requestedLanguage(req);
  const query = new URLSearchParams({
    q: page.didYouMean.query,
    ...facetParams(selectionOf(page.facets)),
    ...(language && { [LANGUAGE_PARAM]: language }),
  });
  return { ...page.didYouMean, url: `${SEARCH_PATH}?${query}` };
}

/**
 * The canonical URL and language versions of a listing, category or search page at `path`: its facet part from
 * the selection the shop understood (src/web/page-links.ts).
 */
export function listingPageLinks(req: Request, baseUrl: string, path: string, page: CatalogPage) {
  return pageLinks(req, baseUrl, path, listingCanonicalParams(req, facetParams(selectionOf(page.facets))));
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
 * What the listing and search templates show: the products, the facet controls, and pager links that keep the
 * path the shopper used (a language alias stays an alias), every other parameter given in `params`, the facet
 * selection and a `?lang=` asked for.
 */
export function catalogPageView(
  page: CatalogPage,
  req: Request,
  params: Record<string, string | undefined>,
  baseUrl: string,
) {
  const pages = Math.max(1, Math.ceil(page.total / page.perPage));
  const path = req.originalUrl.split('?')[0];
  // Defaults are left out: the links are then the canonical URLs robots.txt lets crawlers follow.
  const kept = Object.entries({
    ...params,
    sort: params.sort === DEFAULT_SORT ? undefined : params.sort,
    perPage: page.perPage === DEFAULT_PER_PAGE ? undefined : String(page.perPage),
    [LANGUAGE_PARAM]: requestedLanguage(req),
  }).filter((entry): entry is [string, string] => entry[1] !== undefined);
  const selection = selectionOf(page.facets);
  // The one way back to the whole list: facets, price and stock filters all go; the search, order and size stay.
  const unfiltered = kept.filter(([key]) => !NARROWING_PARAMS.includes(key));
  const filtered = unfiltered.length < kept.length || Object.keys(selection).length > 0;
  const link = (target: number) =>
    `${path}?${new URLSearchParams([...kept, ...Object.entries(facetParams(selection)), ['page', String(target)]])}`;
  return {
    ...facetsView(page.facets, selection, path, kept),
    clearFilters: filtered ? hrefOf(path, unfiltered) : null,
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
 * crawlers index single-value pages only. The selected values again as removable chips.
 */
function facetsView(facets: Facet[], selection: FacetSelection, path: string, kept: Array<[string, string]>) {
  const href = (next: FacetSelection) => hrefOf(path, [...kept, ...Object.entries(facetParams(next))]);
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
  };
}

/** `path` with the query `params`, without a `?` when there are none. */
function hrefOf(path: string, params: Array<[string, string]>): string {
  const query = new URLSearchParams(params).toString();
  return query ? `${path}?${query}` : path;
}

export function productPageView(page: ProductPage, baseUrl: string, language: string) {
  const { product } = page;
  const variants = product.variants.map((variant) => ({
    ...withStock(variant),
    optionsLabel: Object.values(variant.options).join(' / '),
    // What shop.js and product-media.js match the chosen option values against: the values in the options' order.
    key: product.options.map((option) => variant.options[option.code] ?? '').join('|'),
  }));
  const variantKey = (sku: string | null) => variants.find((variant) => variant.sku === sku)?.key ?? null;
  return {
    product: {
      ...withStock(product),
      // `large`: what the zoom shows; `variantKey`: the variant whose choice brings the picture forward.
      gallery: product.pictures
        ? product.pictures.map((picture, index) => ({
            ...picture,
            n: index + 1,
            variantKey: variantKey(picture.variantSku),
          }))
        : product.images.map((src, index) => ({
            src: sitePath(src, baseUrl),
            large: sitePath(src, baseUrl),
            n: index + 1,
          })),
      variants,
    },
    safety: product.safety && safetyView(product.safety, language),
    related: productCards(page.related, baseUrl),
    crossSell: productCards(page.crossSell, baseUrl),
    breadcrumbs: page.breadcrumbs,
    primaryCategory: page.breadcrumbs.at(-1) ?? null,
    moreFromCategory: productCards(page.moreFromCategory, baseUrl),
    currency: page.currency,
  };
}

/**
 * What search engines and link previews read on a product page: its canonical URL and language versions, `noindex`
 * for a hidden product (sold by direct link, not listed), Open Graph tags, and `Product` (with its `Offer` in the
 * page's currency) and `BreadcrumbList` (the primary category's trail) structured data.
 */
export function productSeoView(page: ProductPage, facts: ProductSeoFacts, req: Request, baseUrl: string) {
  const { product } = page;
  const links = pageLinks(req, baseUrl, sitePath(product.url, baseUrl));
  const description = shortDescription(page.meta.description || product.description);
  const openGraph: OpenGraph = {
    type: 'product',
    title: page.meta.title,
    description,
    url: links.canonicalUrl,
    image: product.images[0] ?? null,
  };
  const structuredData = [
    productJsonLd({
      name: product.name,
      description,
      sku: product.sku,
      images: product.images,
      brand: facts.brand,
      price: product.price,
      currency: page.currency,
      inStock: product.inStock,
      url: links.canonicalUrl,
    }),
  ];
  if (page.breadcrumbs.length > 0) {
    structuredData.push(
      breadcrumbListJsonLd(page.breadcrumbs, baseUrl, { name: product.name, url: links.canonicalUrl }),
    );
  }
  return { ...links, robots: facts.listed ? undefined : 'noindex', openGraph, structuredData };
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
