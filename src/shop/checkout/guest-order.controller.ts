import { Controller, Get, Param, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { OrdersService } from '../../commerce/orders/orders.service';
import { PaymentService } from '../../commerce/payments/payment.service';
import { AppError } from '../../common/errors/app-error';
import { addFlash } from '../../common/session-data';
import { ShopThrottlerGuard } from '../../common/throttling/throttling.module';
import { pageLanguage, t } from '../../web/i18n/page-language';
import { OrderPageService } from './order-page.service';
import { stepUrl } from './place-order.controller';

/** Requests per minute and IP: plenty for a shopper, too few to search the order-number space. */
export const GUEST_ORDER_LIMIT = 30;

/** A guest's order, reached with the order number alone (spec "Authentication" 5). */
@ApiExcludeController()
@Controller('shop/order')
@UseGuards(ShopThrottlerGuard)
@Throttle({ default: { limit: GUEST_ORDER_LIMIT, ttl: 60_000 } })
export class GuestOrderController {
  constructor(
    private readonly orders: OrdersService,
    private readonly payments: PaymentService,
    private readonly pages: OrderPageService,
  ) {}

  @Get('view/:orderNumber')
  async view(@Param('orderNumber') number: string, @Res() res: Response): Promise<void> {
    const order = await this.orders.byNumber(number);
    if (!order) throw AppError.notFound(t(res, 'order.notFound'));
    res.setHeader('Cache-Control', 'private, no-store');
    res.setHeader('X-Robots-Tag', 'noindex');
    res.render('shop/order/view', {
      title: t(res, 'order.title', { reference: order.reference }),
      order: await this.pages.view(order, pageLanguage(res)),
    });
  }

  /** Pays again while the order awaits an online payment; otherwise back to the order with a word why not. */
  @Get('pay/:orderNumber')
  async pay(@Param('orderNumber') number: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const order = await this.orders.byNumber(number);
    if (!order) throw AppError.notFound(t(res, 'order.notFound'));
    const step = await this.payments.retry(order, req.ip ?? '');
    if (!step) {
      addFlash(
        req,
        'info',
        t(res, order.status === 'pending_payment' ? 'order.payByTransfer' : 'order.notAwaitingPayment'),
      );
      return res.redirect(302, `/shop/order/view/${order.number}`);
    }
    req.session.lastOrderNumber = order.number;
    res.redirect(302, stepUrl(step));
  }
}
