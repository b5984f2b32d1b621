import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { OrdersService } from '../../commerce/orders/orders.service';
import { PaymentService } from '../../commerce/payments/payment.service';
import { pageLanguage, t } from '../../web/i18n/page-language';
import { CheckoutPageService } from './checkout-page.service';
import { CheckoutPageQuery } from './dto/checkout.dto';
import { OrderPageService } from './order-page.service';

/** The checkout page, and the pages a shopper lands on after placing an order or returning from the gateway. */
@ApiExcludeController()
@Controller('shop/checkout')
export class CheckoutPagesController {
  constructor(
    private readonly orders: OrdersService,
    private readonly payments: PaymentService,
    private readonly pages: OrderPageService,
    private readonly checkoutPage: CheckoutPageService,
  ) {}

  /**
   * Details, shipping and payment on one page (public/js/checkout.js); an empty cart goes back to the cart.
   * `?billingAddressId=&shippingAddressId=` fill an address from the customer's address book: the picker's
   * answer without JavaScript.
   */
  @Get()
  async checkout(@Query() query: CheckoutPageQuery, @Req() req: Request, @Res() res: Response): Promise<void> {
    const checkout = await this.checkoutPage.view(req, pageLanguage(res), {
      billing: query.billingAddressId,
      shipping: query.shippingAddressId,
    });
    if (!checkout) return res.redirect(302, '/shop/cart');
    res.render('shop/checkout/page', { title: t(res, 'checkout.title'), csrf: true, checkout });
  }

  /** Needs the order this browser just placed; without one there is nothing to confirm. */
  @Get('success')
  async success(@Req() req: Request, @Res() res: Response): Promise<void> {
    const order = await this.orders.byNumber(req.session.lastOrderNumber);
    if (!order) return res.redirect(302, '/shop/cart');
    if ((await this.payments.nextStep(order.id)).kind === 'failed') return res.redirect(302, '/shop/checkout/failed');
    res.setHeader('Cache-Control', 'private, no-store');
    res.render('shop/checkout/success', {
      title: t(res, 'checkout.success.title'),
      order: await this.pages.view(order, pageLanguage(res)),
    });
  }

  /**
   * For the order this browser placed, while its payment failed or it was canceled, or (`?unconfirmed=1`) while
   * a return that could not be verified left it open; else the success page.
   */
  @Get('failed')
  async failed(
    @Query('unconfirmed') unconfirmedReturn: unknown,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const order = await this.orders.byNumber(req.session.lastOrderNumber);
    if (!order) return res.redirect(302, '/shop/cart');
    const step = await this.payments.nextStep(order.id);
    const unconfirmed = unconfirmedReturn === '1' && step.kind === 'redirect';
    if (step.kind !== 'failed' && !unconfirmed) return res.redirect(302, '/shop/checkout/success');
    res.setHeader('Cache-Control', 'private, no-store');
    res.render('shop/checkout/failed', {
      title: t(res, unconfirmed ? 'checkout.failed.unconfirmedTitle' : 'checkout.failed.title'),
      order: await this.pages.view(order, pageLanguage(res)),
      unconfirmed,
    });
  }
}
