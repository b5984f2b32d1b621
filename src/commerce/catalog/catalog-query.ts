import type { FacetSelection } from './facets';

export const CATALOG_SORTS = ['name', 'price_asc', 'price_desc', 'newest'] as const;
export type CatalogSort = (typeof CATALOG_SORTS)[number];

/** Largest page size; larger requests are capped, not refused (docs/http-contract.md). */
export const MAX_PER_PAGE = 100;

/** Which page of the listing or of search results; `perPage` above MAX_PER_PAGE is capped. */
export interface CatalogPaging {
  page: number;
  perPage: number;
}

/** A page of the listing, in one of its orders and narrowed by stock and price. */
export interface CatalogListingRequest extends CatalogPaging {
  sort: CatalogSort;
  /** Only products in stock. */
  inStock: boolean;
  /** Price bounds in the shopper's currency, major units, inclusive. */
  minPrice?: number;
  maxPrice?: number;
  /** Only products in one of these categories (a category page: the category and its descendants). */
  categoryIds?: number[];
  /** Facet filters: value slugs by attribute code (facets.ts). */
  facets?: FacetSelection;
}

/** A page of search results, in relevance order. */
export interface CatalogSearchRequest extends CatalogPaging {
  q: string;
  facets?: FacetSelection;
}
