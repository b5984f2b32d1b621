import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CartService } from '../../commerce/carts/cart.service';
import { CurrencyService } from '../../commerce/stores/currency.service';
import { PageText, PageTextFn } from '../../web/i18n/page-text.decorator';
import { CartSession } from './cart-session.service';
import { cartChanged, CartSummaries } from './cart-summaries.service';
import { SetCurrencyDto } from './dto/cart.dto';

@ApiTags('cart')
@Controller('shop/currency')
export class CurrencyController {
  constructor(
    private readonly currencies: CurrencyService,
    private readonly carts: CartService,
    private readonly session: CartSession,
    private readonly summaries: CartSummaries,
  ) {}

  /** Switches prices and the cart to one of the shop's currencies (400 for any other code). */
  @Post('set')
  @HttpCode(200)
  async set(@Body() body: SetCurrencyDto, @Req() req: Request, @PageText() text: PageTextFn) {
    const currency = await this.currencies.require(body.currency);
    req.session.currency = currency.code;
    const cart = await this.session.current(req);
    if (cart) await this.carts.setCurrency(cart.id, currency.code);
    const message = text('cart.messages.currency', { code: currency.code });
    return cartChanged(message, () => this.summaries.summary(cart?.id, currency.code));
  }
}
