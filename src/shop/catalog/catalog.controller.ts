import { Controller, Get, Header, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CatalogService } from '../../commerce/catalog/catalog.service';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { PageLanguage, PageText, PageTextFn } from '../../web/i18n/page-text.decorator';
import { guestPage } from '../../web/page-cache';
import {
  catalogPageJson,
  catalogPageView,
  didYouMeanView,
  listingFilters,
  listingPageLinks,
  productNotFoundPage,
  SEARCH_PATH,
  searchSuggestionsJson,
  sessionCurrency,
  wantsJson,
} from './catalog-view';
import { CatalogListingQuery, CatalogSearchQuery, CatalogSuggestQuery } from './dto/catalog-query.dto';
import { LISTING_PATH } from './catalog-aliases.middleware';
import { websiteOpenGraph } from '../../web/structured-data';

/**
 * Listing, search results and the product-404 page. The same URL answers HTML or JSON by `Accept`; the JSON
 * follows the session's currency and stays private, the HTML is shared-cacheable for guests (guestPage).
 */
@ApiTags('catalog')
@Controller('shop/catalog')
export class CatalogController {
  constructor(
    private readonly catalog: CatalogService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get('products')
  @Header('Vary', 'Accept')
  @Header('Cache-Control', 'private, no-cache')
  @ApiOkResponse({
    description:
      'HTML listing; with Accept: application/json { success, products, page, perPage, total, facets }; ' +
      'facet filters as f.<attribute code>=<value slug>[,<value slug>…]',
  })
  async products(@Query() query: CatalogListingQuery, @Req() req: Request, @PageText() text: PageTextFn) {
    const page = await this.catalog.listing({ ...query, inStock: query.inStock === '1' }, sessionCurrency(req));
    if (wantsJson(req)) return catalogPageJson(page);
    const filters = listingFilters(query);
    const title = text('catalog.listing.title');
    const links = listingPageLinks(req, this.config.baseUrl, LISTING_PATH, page);
    return guestPage(req, 'shop/catalog/products', {
      title,
      ...links,
      openGraph: websiteOpenGraph(title, links),
      filters,
      ...catalogPageView(page, req, filters, this.config.baseUrl),
    });
  }

  @Get('search-results')
  @Header('Vary', 'Accept')
  @Header('Cache-Control', 'private, no-cache')
  @ApiOkResponse({ description: 'HTML results; with Accept: application/json the listing shape, best match first' })
  async searchResults(@Query() query: CatalogSearchQuery, @Req() req: Request, @PageText() text: PageTextFn) {
    const page = await this.catalog.search(query, sessionCurrency(req));
    if (wantsJson(req)) return { ...catalogPageJson(page), didYouMean: page.didYouMean?.query ?? null };
    return guestPage(req, 'shop/catalog/search', {
      title: query.q ? text('catalog.search.titleFor', { q: query.q }) : text('catalog.search.title'),
      q: query.q,
      ...listingPageLinks(req, this.config.baseUrl, SEARCH_PATH, page),
      didYouMean: didYouMeanView(page, req),
      ...catalogPageView(page, req, { q: query.q }, this.config.baseUrl),
    });
  }

  /**
   * Suggestions for the header's search field (public/js/search-suggest.js), cacheable for a minute like a guest
   * page. Prices follow a session's currency: `Vary: Cookie` keeps a shared cache's copy to visitors without one.
   */
  @Get('suggest')
  @Header('Cache-Control', 'public, max-age=60')
  @Header('Vary', 'Accept, Cookie')
  @ApiOkResponse({ description: '{ success, query, products (≤ 6), categories (≤ 4), didYouMean }' })
  async suggest(@Query() query: CatalogSuggestQuery, @Req() req: Request, @PageLanguage() language: string) {
    const suggestions = await this.catalog.suggest(query.q, sessionCurrency(req));
    return searchSuggestionsJson(query.q, suggestions, this.config.baseUrl, language);
  }

  @Get('product-404')
  productMissing(@Req() req: Request, @PageText() text: PageTextFn) {
    return productNotFoundPage(req, text);
  }
}
