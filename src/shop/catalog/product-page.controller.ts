import { Controller, Get, Header, Param, Req } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CatalogService } from '../../commerce/catalog/catalog.service';
import { ShopCategories } from '../../commerce/categories/shop-categories.service';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { PageLanguage, PageText, PageTextFn } from '../../web/i18n/page-text.decorator';
import { guestPage } from '../../web/page-cache';
import { ProductSeo } from '../../commerce/seo/product-seo.service';
import { productNotFoundPage, productPageView, productSeoView, sessionCurrency, wantsJson } from './catalog-view';

/** `/shop/p/{slug}`: hidden products too (sold by direct link); missing, disabled or foreign ones get the product-404. */
@ApiTags('catalog')
@Controller('shop/p')
export class ProductPageController {
  constructor(
    private readonly catalog: CatalogService,
    private readonly categories: ShopCategories,
    private readonly seo: ProductSeo,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get(':slug')
  @Header('Vary', 'Accept')
  @Header('Cache-Control', 'private, no-cache')
  @ApiOkResponse({ description: 'HTML product page; with Accept: application/json { success, product }' })
  async show(
    @Param('slug') slug: string,
    @Req() req: Request,
    @PageText() text: PageTextFn,
    @PageLanguage() language: string,
  ) {
    const page = await this.catalog.productPage(slug, sessionCurrency(req));
    if (!page) return productNotFoundPage(req, text);
    if (wantsJson(req)) return { success: true, product: page.product };
    const facts = await this.seo.facts(page.product.id);
    return guestPage(req, 'shop/product', {
      title: page.meta.title,
      metaDescription: page.meta.description,
      categoryMenu: await this.categories.menu(
        page.breadcrumbs.map((crumb) => crumb.path),
        false,
      ),
      ...productPageView(page, this.config.baseUrl, language),
      ...productSeoView(page, facts, req, this.config.baseUrl),
    });
  }
}
