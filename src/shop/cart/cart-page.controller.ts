import { Controller, Get, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { SettingsService } from '../../config/settings.service';
import { PageView } from '../../web/answers/answers';
import { PageLanguage, PageText, PageTextFn } from '../../web/i18n/page-text.decorator';
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
  async page(@Req() req: Request, @PageText() text: PageTextFn, @PageLanguage() language: string): Promise<PageView> {
    const [cart, currency] = await Promise.all([this.session.current(req), this.session.currency(req)]);
    const priced = await this.summaries.priced(cart?.id, currency.code);
    return new PageView('shop/cart/page', {
      title: text('cart.title'),
      csrf: true,
      cart: cartView(priced, language),
      couponsEnabled: this.settings.isOn('salesCouponsEnabled'),
      giftCardsEnabled: this.settings.isOn('salesGiftCardsEnabled'),
      shareUrl: cart?.shareToken ? this.shareLinks.url(cart.shareToken) : null,
    });
  }
}
