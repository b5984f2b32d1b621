import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CartService } from '../../commerce/carts/cart.service';
import { CurrencyService } from '../../commerce/stores/currency.service';
import { t } from '../../web/i18n/page-language';
import { CartSession } from './cart-session.service';
import { answerCartChange } from './cart-response';
import { CartSummaries } from './cart-summaries.service';
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
  async set(@Body() body: SetCurrencyDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    const currency = await this.currencies.require(body.currency);
    req.session.currency = currency.code;
    const cart = await this.session.current(req);
    if (cart) await this.carts.setCurrency(cart.id, currency.code);
    const message = t(res, 'cart.messages.currency', { code: currency.code });
    await answerCartChange(req, res, message, () => this.summaries.summary(cart?.id, currency.code));
  }
}
