import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { SettingsService } from '../../config/settings.service';
import { pageLanguage, t } from '../../web/i18n/page-language';
import { CartSession } from './cart-session.service';
import { CartShareLinks } from './cart-share-links';
import { CartSummaries } from './cart-summaries.service';
import { cartView } from './cart-view';

/** The cart page: works without JavaScript (plain forms for quantity, removal, coupons and sharing). */
@ApiExcludeController()
@Controller('shop/cart')
export class CartPageController {
  constructor(
    private readonly session: CartSession,
    private readonly summaries: CartSummaries,
    private readonly settings: SettingsService,
    private readonly shareLinks: CartShareLinks,
  ) {}

  @Get()
  async page(@Req() req: Request, @Res() res: Response): Promise<void> {
    const [cart, currency] = await Promise.all([this.session.current(req), this.session.currency(req)]);
    const priced = await this.summaries.priced(cart?.id, currency.code);
    res.render('shop/cart/page', {
      title: t(res, 'cart.title'),
      csrf: true,
      cart: cartView(priced, pageLanguage(res)),
      couponsEnabled: this.settings.isOn('salesCouponsEnabled'),
      giftCardsEnabled: this.settings.isOn('salesGiftCardsEnabled'),
      shareUrl: cart?.shareToken ? this.shareLinks.url(cart.shareToken) : null,
    });
  }
}
