import { Expose, Transform, Type } from 'class-transformer';
import { IsIn, IsInt, IsObject, IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import {
  CATALOG_SORTS,
  CatalogPaging,
  CatalogSearchRequest,
  CatalogSort,
} from '../../../commerce/catalog/catalog-query';
import type { FacetSelection } from '../../../commerce/catalog/facets';
import { readFacetParams } from './facet-params';

/** Paging of the listing and the search results (docs/http-contract.md "Catalog as JSON"). */
/** What a listing link leaves out when it is the default, so the shop's links stay the crawlable, canonical ones. */
export const DEFAULT_PER_PAGE = 24;
export const DEFAULT_SORT: CatalogSort = 'name';

export class CatalogPagingQuery implements CatalogPaging {
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
  perPage: number = DEFAULT_PER_PAGE;
}

/**
 * The facet selection, read from the `f.<code>` parameters (facet-params.ts, which refuses malformed ones):
 * the one property made of other parameters, so the DTO still lets no unknown parameter through.
 */
class FacetedQuery extends CatalogPagingQuery {
  @Expose()
  @Transform(({ obj }) => readFacetParams(obj as Record<string, unknown>))
  @IsObject()
  facets: FacetSelection = {};
}

/** An empty form field (`maxPrice=`) is no filter, not zero. */
const optionalNumber = ({ value }: { value: unknown }) =>
  value === '' || value === undefined ? undefined : Number(value);

export class CatalogListingQuery extends FacetedQuery {
  @IsOptional()
  @IsIn(CATALOG_SORTS)
  sort: CatalogSort = DEFAULT_SORT;

  /** `1`: only products in stock (the filter form's checkbox). */
  @IsOptional()
  @IsIn(['0', '1'])
  inStock?: '0' | '1';

  /** Price bounds in the shopper's currency, major units, inclusive. */
  @IsOptional()
  @Transform(optionalNumber)
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'must be a number' })
  @Min(0)
  @Max(100_000_000)
  minPrice?: number;

  @IsOptional()
  @Transform(optionalNumber)
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'must be a number' })
  @Min(0)
  @Max(100_000_000)
  maxPrice?: number;
}

/** Search results come in relevance order, so there is no `sort`. */
export class CatalogSearchQuery extends FacetedQuery implements CatalogSearchRequest {
  @IsOptional()
  @IsString()
  @MaxLength(200)
  q: string = '';
}

/** What the shopper has typed into the header's search field so far. */
export class CatalogSuggestQuery {
  @IsOptional()
  @IsString()
  @MaxLength(200)
  q: string = '';
}
