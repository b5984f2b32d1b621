import { Controller, Get, Header, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { DataSource } from 'typeorm';
import { toMajor } from '../../common/money';
import { Product } from '../../commerce/products/product.entity';

/** The shop's front page: a handful of products to start from. */
@ApiExcludeController()
@Controller()
export class HomeController {
  constructor(private readonly dataSource: DataSource) {}

  @Get()
  @Header('Cache-Control', 'public, max-age=60')
  async home(@Res() res: Response): Promise<void> {
    const products = await this.dataSource.getRepository(Product).find({
      where: { visible: true, enabled: true },
      select: { id: true, name: true, slug: true, price: true, stock: true, images: true },
      order: { id: 'ASC' },
      take: 12,
    });
    res.render('shop/home', {
      title: 'Welcome',
      products: products.map((product) => ({
        ...product,
        price: toMajor(product.price).toFixed(2),
        image: product.images[0] ?? null,
        inStock: product.stock > 0,
      })),
    });
  }
}
