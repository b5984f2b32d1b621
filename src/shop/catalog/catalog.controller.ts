import { Controller, Get, Header, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CatalogService } from '../../commerce/catalog/catalog.service';
import { Facet } from '../../commerce/catalog/facets';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { PageText, PageTextFn } from '../../web/i18n/page-text.decorator';
import { guestPage } from '../../web/page-cache';
import { catalogPageJson, catalogPageView, productNotFoundPage, sessionCurrency, wantsJson } from './catalog-view';
import { CatalogListingQuery, CatalogSearchQuery } from './dto/catalog-query.dto';

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
    const filters = {
      sort: query.sort,
      inStock: query.inStock === '1' ? '1' : undefined,
      minPrice: query.minPrice?.toString(),
      maxPrice: query.maxPrice?.toString(),
    };
    return guestPage(req, 'shop/catalog/products', {
      title: text('catalog.listing.title'),
      filters,
      filtered: Boolean(
        filters.inStock || filters.minPrice || filters.maxPrice || page.facets.some((facet) => facetSelected(facet)),
      ),
      ...catalogPageView(page, req, filters, this.config.baseUrl),
    });
  }

  @Get('search-results')
  @Header('Vary', 'Accept')
  @Header('Cache-Control', 'private, no-cache')
  @ApiOkResponse({ description: 'HTML results; with Accept: application/json the listing shape, best match first' })
  async searchResults(@Query() query: CatalogSearchQuery, @Req() req: Request, @PageText() text: PageTextFn) {
    const page = await this.catalog.search(query, sessionCurrency(req));
    if (wantsJson(req)) return catalogPageJson(page);
    return guestPage(req, 'shop/catalog/search', {
      title: query.q ? text('catalog.search.titleFor', { q: query.q }) : text('catalog.search.title'),
      q: query.q,
      ...catalogPageView(page, req, { q: query.q }, this.config.baseUrl),
    });
  }

  @Get('product-404')
  productMissing(@Req() req: Request, @PageText() text: PageTextFn) {
    return productNotFoundPage(req, text);
  }
}

function facetSelected(facet: Facet): boolean {
  return facet.values.some((value) => value.selected);
}
