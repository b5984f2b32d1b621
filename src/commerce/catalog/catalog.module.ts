import { Module } from '@nestjs/common';
import { CatalogService } from './catalog.service';
import { FacetService } from './facets';
import { ProductSearchService } from './product-search.service';

/** The storefront catalog's read side: listing, full-text search and product pages. Imported by the storefront. */
@Module({
  providers: [CatalogService, ProductSearchService, FacetService],
  exports: [CatalogService],
})
export class CatalogReadModule {}
