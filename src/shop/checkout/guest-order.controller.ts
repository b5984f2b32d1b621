import { Controller, Get, Header, HttpCode, Param, ParseIntPipe, Post, Req, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import type { Request } from 'express';
import { SalesDocuments } from '../../commerce/invoices/sales-documents.service';
import { OrderEdits } from '../../commerce/orders/order-edits.service';
import { Order } from '../../commerce/orders/order.entity';
import { OrdersService } from '../../commerce/orders/orders.service';
import { ReturnService } from '../../commerce/returns/return.service';
import { PaymentService } from '../../commerce/payments/payment.service';
import { AppError } from '../../common/errors/app-error';
import { ShopThrottlerGuard } from '../../common/throttling/throttling.module';
import { FileAnswer, FormAnswer, PageView, Redirect } from '../../web/answers/answers';
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
    private readonly documents: SalesDocuments,
    private readonly edits: OrderEdits,
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
    const [view, customerSide] = await Promise.all([this.pages.view(order, language), this.edits.customerSide(order)]);
    return new PageView(
      'shop/order/view',
      {
        title: text('order.title', { reference: order.reference }),
        csrf: true,
        order: { ...view, ...customerSide, cancelUrl: `/shop/order/cancel/${order.number}` },
        ...(await this.returnSection(order, language)),
      },
      { headers: { 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex' } },
    );
  }

  /** The order's invoice, to whoever holds the order number (as the order page): 404 until it is invoiced. */
  @Get('view/:orderNumber/invoice')
  @Header('Cache-Control', 'private, no-store')
  async invoice(@Param('orderNumber') number: string, @PageText() text: PageTextFn): Promise<FileAnswer> {
    const order = await this.orders.byNumber(number);
    if (!order) throw AppError.notFound(text('order.notFound'));
    const invoice = await this.documents.invoiceToServe(order);
    if (!invoice) throw AppError.notFound('This order has no invoice yet.');
    return pdfAnswer(await this.documents.file(invoice));
  }

  /** One of the order's credit notes, by the id its link on the order page names. */
  @Get('view/:orderNumber/credit-notes/:id')
  @Header('Cache-Control', 'private, no-store')
  async creditNote(
    @Param('orderNumber') number: string,
    @Param('id', ParseIntPipe) id: number,
    @PageText() text: PageTextFn,
  ): Promise<FileAnswer> {
    const order = await this.orders.byNumber(number);
    if (!order) throw AppError.notFound(text('order.notFound'));
    const note = await this.documents.creditNoteOf(order.id, id);
    if (!note) throw AppError.notFound('We could not find this credit note.');
    return pdfAnswer(await this.documents.file(note));
  }

  /** The shopper cancels their unpaid order (`salesCustomerCancelEnabled`); the number is the guest's key. */
  @Post('cancel/:orderNumber')
  @HttpCode(200)
  async cancel(@Param('orderNumber') number: string, @PageText() text: PageTextFn): Promise<FormAnswer> {
    const order = await this.orders.byNumber(number);
    if (!order) throw AppError.notFound(text('order.notFound'));
    await this.edits.cancelByCustomer(order.id);
    return FormAnswer.done(text('order.canceled'), { to: `/shop/order/view/${order.number}` }, { status: 'canceled' });
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

function pdfAnswer({ filename, pdf }: { filename: string; pdf: Buffer }): FileAnswer {
  return new FileAnswer(pdf, { type: 'application/pdf', filename, disposition: 'attachment' });
}
