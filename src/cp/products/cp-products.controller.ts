import { Body, Controller, Get, Param, ParseIntPipe, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CpPermission } from '../../common/decorators/cp-permission.decorator';
import { addFlash } from '../../common/session-data';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { CpListQuery } from '../../common/cp-list.query';
import { CpProductFormDto } from './cp-product-form.dto';
import { CpProductsService } from './cp-products.service';

/** Products as staff see them: list and search, and an edit form for price, stock and visibility. */
@ApiExcludeController()
@CpPermission('accessProducts')
@Controller('products')
export class CpProductsController {
  constructor(
    private readonly products: CpProductsService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get()
  async list(@Query() query: CpListQuery, @Res() res: Response): Promise<void> {
    const page = query.pageNumber;
    const result = await this.products.list({ q: query.q, page });
    res.render('cp/products', { layout: 'cp', title: 'Products', ...result, page, filter: query });
  }

  @Get(':id')
  async edit(@Param('id', ParseIntPipe) id: number, @Res() res: Response): Promise<void> {
    const detail = await this.products.detail(id);
    res.render('cp/products-edit', { layout: 'cp', title: detail.product.name, ...detail });
  }

  /** Invalid input comes back as a flash on the form page (the exception filter redirects to the Referer). */
  @Post(':id')
  async save(
    @Param('id', ParseIntPipe) id: number,
    @Body() body: CpProductFormDto,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const product = await this.products.save(id, body);
    addFlash(req, 'success', `${product.name} saved.`);
    res.redirect(303, `/${this.config.cpTrigger}/products/${id}`);
  }
}
