import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { notePlacedOrder } from '../../commerce/checkout/cart-refill.service';
import { PlaceOrderService } from '../../commerce/checkout/place-order.service';
import { SessionCarts } from '../../commerce/carts/session-carts.service';
import { SessionCustomers } from '../../commerce/customers/session-customers.service';
import { OrdersService } from '../../commerce/orders/orders.service';
import { PaymentService, PaymentStep } from '../../commerce/payments/payment.service';
import { IdempotencyKey } from '../../common/decorators/idempotency-key.decorator';
import { SkipCsrf } from '../../common/decorators/skip-csrf.decorator';
import { AppError } from '../../common/errors/app-error';
import { wantsHtml } from '../../common/session-data';
import { Redirect } from '../../web/answers/answers';
import { PageLanguage } from '../../web/i18n/page-text.decorator';
import { PlaceOrderDto } from './dto/checkout.dto';

/** Where each payment step sends the shopper. */
export function stepUrl(step: PaymentStep): string {
  if (step.kind === 'redirect') return step.url;
  if (step.kind === 'unconfirmed') return '/shop/checkout/failed?unconfirmed=1';
  return step.kind === 'success' ? '/shop/checkout/success' : '/shop/checkout/failed';
}

/** Placing the order and the shopper's return from the payment gateway. */
@ApiTags('checkout')
@Controller('shop/checkout')
export class PlaceOrderController {
  constructor(
    private readonly placeOrder: PlaceOrderService,
    private readonly orders: OrdersService,
    private readonly payments: PaymentService,
    private readonly customers: SessionCustomers,
    private readonly sessionCarts: SessionCarts,
  ) {}

  /**
   * AJAX and API clients get `{ success, orderNumber, redirect }`, a form post a 302 to `redirect`. The same
   * cart, or the same `Idempotency-Key`, always answers with the same order.
   */
  @Post('place-order')
  @HttpCode(200)
  async place(
    @Body() body: PlaceOrderDto,
    @IdempotencyKey() idempotencyKey: string | undefined,
    @Req() req: Request,
    @PageLanguage() language: string,
  ): Promise<Redirect | { success: true; orderNumber: string; redirect: string }> {
    const { order, created } = await this.placeOrder.place({
      cartId: await this.sessionCarts.placeable(req.session),
      idempotencyKey,
      customerId: await this.customers.currentId(req.session),
      expectedTotal: body.expectedTotal,
      saveAddresses: body.saveToAddressBook === true,
      acceptedTerms: body.acceptTerms === true,
      termsVersion: body.termsVersion,
      language,
    });
    const step = created ? await this.payments.start(order, req.ip ?? '') : await this.payments.nextStep(order.id);
    req.session.lastOrderNumber = order.number;
    notePlacedOrder(req.session, order.number);
    const redirect = stepUrl(step);
    if (wantsHtml(req)) return new Redirect(redirect, 302);
    return { success: true, orderNumber: order.number, redirect };
  }

  /** The gateway's redirect back (GET): the order comes from `order` / `order_number`, else this browser's last order. */
  @Get('process-payment')
  returnFromGateway(@Query() query: Record<string, unknown>, @Req() req: Request): Promise<Redirect> {
    const number = query.order ?? query.order_number ?? req.session.lastOrderNumber;
    return this.process(number, query, req);
  }

  /** The gateway's return as a cross-site form post: no session cookie comes along, so the number is in the path. */
  @Post('process-payment/:orderNumber')
  @SkipCsrf()
  async postFromGateway(
    @Param('orderNumber') orderNumber: string,
    @Query() query: Record<string, unknown>,
    @Body() body: Record<string, unknown>,
    @Req() req: Request,
  ): Promise<Redirect> {
    return this.process(orderNumber, { ...query, ...body }, req);
  }

  private async process(number: unknown, params: Record<string, unknown>, req: Request): Promise<Redirect> {
    const order = await this.orders.byNumber(number);
    if (!order) throw AppError.notFound('We could not find that order.');
    const step = await this.payments.handleReturn(order, textParams(params));
    req.session.lastOrderNumber = order.number;
    return new Redirect(stepUrl(step));
  }
}

/** The gateway's parameters as text; anything nested is not a gateway parameter. */
function textParams(params: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(params).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}
