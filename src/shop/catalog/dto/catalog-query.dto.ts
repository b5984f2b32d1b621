import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export const CATALOG_SORTS = ['name', 'price_asc', 'price_desc', 'newest'] as const;
export type CatalogSort = (typeof CATALOG_SORTS)[number];

/** Largest page size; larger requests are capped, not refused (DESIGN.md §4). */
export const MAX_PER_PAGE = 100;

/** Paging of the listing and the search results (DESIGN.md §4 "Catalog as JSON"). */
export class CatalogPagingQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  // Far past any real catalog, and small enough that the offset stays an exact integer in SQL.
  @Max(100_000)
  page: number = 1;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  perPage: number = 24;
}

export class CatalogListingQuery extends CatalogPagingQuery {
  @IsOptional()
  @IsIn(CATALOG_SORTS)
  sort: CatalogSort = 'name';
}

/** Search results come in relevance order, so there is no `sort`. */
export class CatalogSearchQuery extends CatalogPagingQuery {
  @IsOptional()
  @IsString()
  @MaxLength(200)
  q: string = '';
}
