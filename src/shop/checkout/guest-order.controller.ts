import { Controller, Get, Param, Req, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import type { Request } from 'express';
import { Order } from '../../commerce/orders/order.entity';
import { OrdersService } from '../../commerce/orders/orders.service';
import { ReturnService } from '../../commerce/returns/return.service';
import { PaymentService } from '../../commerce/payments/payment.service';
import { AppError } from '../../common/errors/app-error';
import { ShopThrottlerGuard } from '../../common/throttling/throttling.module';
import { PageView, Redirect } from '../../web/answers/answers';
import { PageLanguage, PageText, PageTextFn } from '../../web/i18n/page-text.decorator';
import { OrderPageService } from './order-page.service';
import { stepUrl } from './place-order.controller';

/** Requests per minute and IP: plenty for a shopper, too few to search the order-number space. */
export const GUEST_ORDER_LIMIT = 30;

/** A guest's order, reached with the order number alone (a long random value nobody can guess). */
@ApiExcludeController()
@Controller('shop/order')
@UseGuards(ShopThrottlerGuard)
@Throttle({ default: { limit: GUEST_ORDER_LIMIT, ttl: 60_000 } })
export class GuestOrderController {
  constructor(
    private readonly orders: OrdersService,
    private readonly payments: PaymentService,
    private readonly pages: OrderPageService,
    private readonly returns: ReturnService,
  ) {}

  @Get('view/:orderNumber')
  async view(
    @Param('orderNumber') number: string,
    @PageText() text: PageTextFn,
    @PageLanguage() language: string,
  ): Promise<PageView> {
    const order = await this.orders.byNumber(number);
    if (!order) throw AppError.notFound(text('order.notFound'));
    return new PageView(
      'shop/order/view',
      {
        title: text('order.title', { reference: order.reference }),
        order: await this.pages.view(order, language),
        ...(await this.returnSection(order, language)),
      },
      { headers: { 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex' } },
    );
  }

  /** The returns section (docs/shop.md, _Returns_), with the CSRF token its form needs when there is one. */
  private async returnSection(order: Order, language: string) {
    const returns = await this.returns.shopperSection(order, language);
    return returns ? { returns, returnsAction: '/shop/order/returns', csrf: true } : {};
  }

  /** Pays again while the order awaits an online payment; otherwise back to the order with a word why not. */
  @Get('pay/:orderNumber')
  async pay(
    @Param('orderNumber') number: string,
    @Req() req: Request,
    @PageText() text: PageTextFn,
  ): Promise<Redirect> {
    const order = await this.orders.byNumber(number);
    if (!order) throw AppError.notFound(text('order.notFound'));
    const step = await this.payments.retry(order, req.ip ?? '');
    if (!step) {
      const why = text(order.status === 'pending_payment' ? 'order.payByTransfer' : 'order.notAwaitingPayment');
      return new Redirect(`/shop/order/view/${order.number}`, 302, [{ type: 'info', message: why }]);
    }
    req.session.lastOrderNumber = order.number;
    return new Redirect(stepUrl(step), 302);
  }
}
