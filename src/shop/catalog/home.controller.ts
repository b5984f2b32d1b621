import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { t } from '../../web/i18n/page-language';
import { productCards, renderGuestPage, sessionCurrency } from './catalog-view';
import { CatalogService } from './catalog.service';

/** The shop's front page: a handful of products to start from. */
@ApiExcludeController()
@Controller()
export class HomeController {
  constructor(
    private readonly catalog: CatalogService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get()
  async home(@Req() req: Request, @Res() res: Response): Promise<void> {
    const { products, currency } = await this.catalog.featured(sessionCurrency(req));
    renderGuestPage(req, res, 'shop/home', {
      title: t(res, 'catalog.home.title'),
      products: productCards(products, this.config.baseUrl),
      currency,
    });
  }
}
