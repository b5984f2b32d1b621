import { Controller, Get, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { CatalogService } from '../../commerce/catalog/catalog.service';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { PageView } from '../../web/answers/answers';
import { PageText, PageTextFn } from '../../web/i18n/page-text.decorator';
import { guestPage } from '../../web/page-cache';
import { productCards, sessionCurrency } from './catalog-view';

/** The shop's front page: a handful of products to start from. */
@ApiExcludeController()
@Controller()
export class HomeController {
  constructor(
    private readonly catalog: CatalogService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get()
  async home(@Req() req: Request, @PageText() text: PageTextFn): Promise<PageView> {
    const { products, currency } = await this.catalog.featured(sessionCurrency(req));
    return guestPage(req, 'shop/home', {
      title: text('catalog.home.title'),
      products: productCards(products, this.config.baseUrl),
      currency,
    });
  }
}
