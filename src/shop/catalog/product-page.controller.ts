import { Controller, Get, Header, Param, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { productPageView, renderGuestPage, renderProductNotFound, sessionCurrency, wantsJson } from './catalog-view';
import { CatalogService } from './catalog.service';

/** `/shop/p/{slug}`: hidden products too (sold by direct link); missing, disabled or foreign ones get the product-404. */
@ApiTags('catalog')
@Controller('shop/p')
export class ProductPageController {
  constructor(
    private readonly catalog: CatalogService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get(':slug')
  @Header('Vary', 'Accept')
  @Header('Cache-Control', 'private, no-cache')
  @ApiOkResponse({ description: 'HTML product page; with Accept: application/json { success, product }' })
  async show(@Param('slug') slug: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const page = await this.catalog.productPage(slug, sessionCurrency(req));
    if (!page) return renderProductNotFound(req, res);
    if (wantsJson(req)) {
      res.json({ success: true, product: page.product });
      return;
    }
    renderGuestPage(req, res, 'shop/product', {
      title: page.product.name,
      ...productPageView(page, this.config.baseUrl),
    });
  }
}
