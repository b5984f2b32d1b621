import { Controller, Get, Header, Param, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CatalogService } from '../../commerce/catalog/catalog.service';
import { categoryPath } from '../../commerce/categories/category-tree';
import { ShopCategories } from '../../commerce/categories/shop-categories.service';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { PageText, PageTextFn } from '../../web/i18n/page-text.decorator';
import { guestPage } from '../../web/page-cache';
import { breadcrumbListJsonLd, websiteOpenGraph } from '../../web/structured-data';
import {
  catalogPageJson,
  catalogPageView,
  categoryJson,
  categoryNotFoundPage,
  listingFilters,
  listingPageLinks,
  sessionCurrency,
  wantsJson,
} from './catalog-view';
import { CatalogListingQuery } from './dto/catalog-query.dto';

/**
 * `/shop/c/{path}` (any depth, `/shop/c/coffee/brewing`): a shown category's page, listing its products and its
 * descendants' with the listing's sorting, paging and filters. Hidden and unknown paths get the category-404.
 */
@ApiTags('catalog')
@Controller('shop/c')
export class CategoryPageController {
  constructor(
    private readonly catalog: CatalogService,
    private readonly categories: ShopCategories,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get('*path')
  @Header('Vary', 'Accept')
  @Header('Cache-Control', 'private, no-cache')
  @ApiOkResponse({
    description:
      'HTML category page; with Accept: application/json the listing shape plus ' +
      '`category: { name, path, url, description, breadcrumbs, children }`',
  })
  async show(
    @Param('path') segments: string[] | string,
    @Query() query: CatalogListingQuery,
    @Req() req: Request,
    @PageText() text: PageTextFn,
  ) {
    // Express 5 gives a wildcard's segments as a list; a trailing slash leaves an empty last one.
    const path = (Array.isArray(segments) ? segments : [segments]).filter(Boolean).join('/');
    const category = await this.categories.page(path);
    if (!category) return categoryNotFoundPage(req, text);
    const page = await this.catalog.listing(
      { ...query, inStock: query.inStock === '1', categoryIds: category.categoryIds },
      sessionCurrency(req),
    );
    if (wantsJson(req)) return { ...catalogPageJson(page), category: categoryJson(category, this.config.baseUrl) };
    const filters = listingFilters(query);
    const links = listingPageLinks(req, this.config.baseUrl, categoryPath(category.path), page);
    return guestPage(req, 'shop/catalog/category', {
      title: category.meta.title,
      metaDescription: category.meta.description,
      ...links,
      openGraph: websiteOpenGraph(category.meta.title, links, category.meta.description),
      structuredData: [breadcrumbListJsonLd(category.breadcrumbs, this.config.baseUrl)],
      category,
      ancestors: category.breadcrumbs.slice(0, -1),
      categoryMenu: await this.categories.menu(category.breadcrumbs.map((crumb) => crumb.path)),
      filters,
      ...catalogPageView(page, req, filters, this.config.baseUrl),
    });
  }
}
