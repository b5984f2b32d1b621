import { Controller, Get, Header, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { CatalogService } from './catalog.service';

/** The shop's front page: a handful of products to start from. */
@ApiExcludeController()
@Controller()
export class HomeController {
  constructor(private readonly catalog: CatalogService) {}

  @Get()
  @Header('Cache-Control', 'public, max-age=60')
  async home(@Res() res: Response): Promise<void> {
    res.render('shop/home', { title: 'Welcome', products: await this.catalog.featured() });
  }
}
