import { Module } from '@nestjs/common';
import { CatalogService } from './catalog.service';
import { FacetService } from './facets';
import { ProductSearchService } from './product-search.service';
import { SearchDictionary } from './search-dictionary.service';
import { SearchMisses } from './search-misses.service';
import { SearchSynonyms } from './search-synonyms.service';

/**
 * The storefront catalog's read side: listing, full-text search and product pages, imported by the storefront;
 * and the search's synonyms and searches without results, for the CP.
 */
@Module({
  providers: [CatalogService, ProductSearchService, FacetService, SearchDictionary, SearchMisses, SearchSynonyms],
  exports: [CatalogService, SearchMisses, SearchSynonyms],
})
export class CatalogReadModule {}
