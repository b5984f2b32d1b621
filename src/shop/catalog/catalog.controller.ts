import { Controller, Get, Header, Query, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { t } from '../../web/i18n/page-language';
import {
  catalogPageJson,
  catalogPageView,
  renderGuestPage,
  renderProductNotFound,
  sessionCurrency,
  wantsJson,
} from './catalog-view';
import { CatalogService } from './catalog.service';
import { CatalogListingQuery, CatalogSearchQuery } from './dto/catalog-query.dto';

/**
 * Listing, search results and the product-404 page. The same URL answers HTML or JSON by `Accept`; the JSON
 * follows the session's currency and stays private, the HTML is shared-cacheable for guests (renderGuestPage).
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
    description: 'HTML listing; with Accept: application/json { success, products, page, perPage, total }',
  })
  async products(@Query() query: CatalogListingQuery, @Req() req: Request, @Res() res: Response): Promise<void> {
    const page = await this.catalog.listing(query, sessionCurrency(req));
    if (wantsJson(req)) {
      res.json(catalogPageJson(page));
      return;
    }
    const filters = {
      sort: query.sort,
      inStock: query.inStock === '1' ? '1' : undefined,
      minPrice: query.minPrice?.toString(),
      maxPrice: query.maxPrice?.toString(),
    };
    renderGuestPage(req, res, 'shop/catalog/products', {
      title: t(res, 'catalog.listing.title'),
      filters,
      filtered: Boolean(filters.inStock || filters.minPrice || filters.maxPrice),
      ...catalogPageView(page, req, filters, this.config.baseUrl),
    });
  }

  @Get('search-results')
  @Header('Vary', 'Accept')
  @Header('Cache-Control', 'private, no-cache')
  @ApiOkResponse({ description: 'HTML results; with Accept: application/json the listing shape, best match first' })
  async searchResults(@Query() query: CatalogSearchQuery, @Req() req: Request, @Res() res: Response): Promise<void> {
    const page = await this.catalog.search(query, sessionCurrency(req));
    if (wantsJson(req)) {
      res.json(catalogPageJson(page));
      return;
    }
    renderGuestPage(req, res, 'shop/catalog/search', {
      title: query.q ? t(res, 'catalog.search.titleFor', { q: query.q }) : t(res, 'catalog.search.title'),
      q: query.q,
      ...catalogPageView(page, req, { q: query.q }, this.config.baseUrl),
    });
  }

  @Get('product-404')
  productMissing(@Req() req: Request, @Res() res: Response): void {
    renderProductNotFound(req, res);
  }
}
