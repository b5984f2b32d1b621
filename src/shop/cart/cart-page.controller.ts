import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { StoreService } from '../../commerce/stores/store.service';
import { CartSession } from './cart-session.service';
import { CartSummaries } from './cart-summaries.service';
import { cartView } from './cart-view';

/** The cart page: works without JavaScript (plain forms for quantity, removal and coupons). */
@ApiExcludeController()
@Controller('shop/cart')
export class CartPageController {
  constructor(
    private readonly session: CartSession,
    private readonly summaries: CartSummaries,
    private readonly stores: StoreService,
  ) {}

  @Get()
  async page(@Req() req: Request, @Res() res: Response): Promise<void> {
    const [cart, currency, store] = await Promise.all([
      this.session.current(req),
      this.session.currency(req),
      this.stores.default(),
    ]);
    const priced = await this.summaries.priced(cart?.id, currency.code);
    res.render('shop/cart/page', { title: 'Your cart', csrf: true, cart: cartView(priced, store.language) });
  }
}
