import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { CartRefill } from '../../commerce/checkout/cart-refill.service';
import { OrdersService } from '../../commerce/orders/orders.service';
import { PaymentService } from '../../commerce/payments/payment.service';
import { PageView, Redirect } from '../../web/answers/answers';
import { PageLanguage, PageText, PageTextFn } from '../../web/i18n/page-text.decorator';
import { CheckoutPageService } from './checkout-page.service';
import { CheckoutPageQuery } from './dto/checkout.dto';
import { OrderPageService } from './order-page.service';

/** What the pages about the order this browser placed send: nobody may keep them. */
const PRIVATE_PAGE = { headers: { 'Cache-Control': 'private, no-store' } };

/** The checkout page, and the pages a shopper lands on after placing an order or returning from the gateway. */
@ApiExcludeController()
@Controller('shop/checkout')
export class CheckoutPagesController {
  constructor(
    private readonly orders: OrdersService,
    private readonly payments: PaymentService,
    private readonly pages: OrderPageService,
    private readonly checkoutPage: CheckoutPageService,
    private readonly refill: CartRefill,
  ) {}

  /**
   * Details, shipping and payment on one page (public/js/checkout.js); an empty cart goes back to the cart.
   * `?billingAddressId=&shippingAddressId=` fill an address from the customer's address book: the picker's
   * answer without JavaScript.
   */
  @Get()
  async checkout(
    @Query() query: CheckoutPageQuery,
    @Req() req: Request,
    @PageText() text: PageTextFn,
    @PageLanguage() language: string,
  ): Promise<PageView | Redirect> {
    const checkout = await this.checkoutPage.view(req, language, {
      billing: query.billingAddressId,
      shipping: query.shippingAddressId,
    });
    if (!checkout) return new Redirect('/shop/cart', 302);
    return new PageView('shop/checkout/page', { title: text('checkout.title'), csrf: true, checkout });
  }

  /** Needs the order this browser just placed; without one there is nothing to confirm. */
  @Get('success')
  async success(
    @Req() req: Request,
    @PageText() text: PageTextFn,
    @PageLanguage() language: string,
  ): Promise<PageView | Redirect> {
    const order = await this.orders.byNumber(req.session.lastOrderNumber);
    if (!order) return new Redirect('/shop/cart', 302);
    if ((await this.payments.nextStep(order.id)).kind === 'failed') return new Redirect('/shop/checkout/failed', 302);
    return new PageView(
      'shop/checkout/success',
      { title: text('checkout.success.title'), order: await this.pages.view(order, language) },
      PRIVATE_PAGE,
    );
  }

  /**
   * For the order this browser placed, while its payment failed or it was canceled, or (`?unconfirmed=1`) while
   * a return that could not be verified left it open; else the success page. A canceled order this session
   * placed (or its customer's) offers "Try again": its items back in the cart (`POST try-again`).
   */
  @Get('failed')
  async failed(
    @Query('unconfirmed') unconfirmedReturn: unknown,
    @Req() req: Request,
    @PageText() text: PageTextFn,
    @PageLanguage() language: string,
  ): Promise<PageView | Redirect> {
    const order = await this.orders.byNumber(req.session.lastOrderNumber);
    if (!order) return new Redirect('/shop/cart', 302);
    const step = await this.payments.nextStep(order.id);
    const unconfirmed = unconfirmedReturn === '1' && step.kind === 'redirect';
    if (step.kind !== 'failed' && !unconfirmed) return new Redirect('/shop/checkout/success', 302);
    return new PageView(
      'shop/checkout/failed',
      {
        title: text(unconfirmed ? 'checkout.failed.unconfirmedTitle' : 'checkout.failed.title'),
        csrf: true,
        order: await this.pages.view(order, language),
        unconfirmed,
        tryAgain: await this.refill.offered(order, req.session),
      },
      PRIVATE_PAGE,
    );
  }
}
