import { Controller, Get, Header, Query, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { catalogPageJson, catalogPageView, renderProductNotFound, sessionCurrency, wantsJson } from './catalog-view';
import { CatalogService } from './catalog.service';
import { CatalogListingQuery, CatalogSearchQuery } from './dto/catalog-query.dto';

/**
 * Listing, search results and the product-404 page. The same URL answers HTML or JSON by `Accept`, and
 * prices follow the session's currency, so no cache may share an answer across either.
 */
@ApiTags('catalog')
@Controller('shop/catalog')
export class CatalogController {
  constructor(private readonly catalog: CatalogService) {}

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
    res.render('shop/catalog/products', {
      title: 'Products',
      sort: query.sort,
      ...catalogPageView(page, req, { sort: query.sort }),
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
    res.render('shop/catalog/products', {
      title: query.q ? `Search: ${query.q}` : 'Search',
      search: true,
      q: query.q,
      ...catalogPageView(page, req, { q: query.q }),
    });
  }

  @Get('product-404')
  productMissing(@Req() req: Request, @Res() res: Response): void {
    renderProductNotFound(req, res);
  }
}
