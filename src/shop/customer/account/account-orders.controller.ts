import { Body, Controller, Get, Header, HttpCode, Post, Query, Req } from '@nestjs/common';
import { AccountRoute } from '../auth/account-route.decorator';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { OrderEdits } from '../../../commerce/orders/order-edits.service';
import { OrderStatus } from '../../../commerce/orders/order-status.machine';
import { AppError } from '../../../common/errors/app-error';
import { FileAnswer, FormAnswer, PageView } from '../../../web/answers/answers';
import { PageLanguage, PageText, PageTextFn } from '../../../web/i18n/page-text.decorator';
import { AccountOrderViews } from './account-order-view.service';
import { CustomerOrdersService } from '../../../commerce/customers/customer-orders.service';
import { SalesDocuments } from '../../../commerce/invoices/sales-documents.service';
import { CreditNoteDto, OrderNumberDto, PageQuery } from './dto/account.dto';
import { changeDone } from '../translated-answers';
import { ReturnService } from '../../../commerce/returns/return.service';

/**
 * The customer's orders and invoices: my-orders, my-order, cancel-order, my-invoices, download-invoice and
 * download-credit-note.
 */
@ApiTags('customer')
@AccountRoute()
@Controller('shop/account')
export class AccountOrdersController {
  constructor(
    private readonly orders: CustomerOrdersService,
    private readonly views: AccountOrderViews,
    private readonly documents: SalesDocuments,
    private readonly edits: OrderEdits,
    private readonly returns: ReturnService,
  ) {}

  @Get('my-orders')
  async myOrders(
    @Query() query: PageQuery,
    @Req() req: Request,
    @PageText() text: PageTextFn,
    @PageLanguage() language: string,
  ): Promise<PageView> {
    return new PageView('shop/account/my-orders', {
      title: text('account.orders.title'),
      csrf: true,
      ...(await this.list(req, language, query)),
    });
  }

  @Get('my-order')
  async myOrder(
    @Query() query: OrderNumberDto,
    @Req() req: Request,
    @PageText() text: PageTextFn,
    @PageLanguage() language: string,
  ): Promise<PageView> {
    const order = await this.orders.own(req.customer!.id, query.number);
    if (!order) throw orderNotFound();
    return new PageView(
      'shop/account/my-order',
      {
        title: text('account.order.title', { reference: order.reference }),
        csrf: true,
        order: {
          ...(await this.views.detail(order, language)),
          ...(await this.edits.customerSide(order)),
          cancelUrl: '/shop/account/cancel-order',
        },
        returns: await this.returns.shopperSection(order, language),
        returnsAction: '/shop/account/returns',
      },
      { headers: { 'X-Robots-Tag': 'noindex' } },
    );
  }

  @Get('my-invoices')
  async myInvoices(
    @Query() query: PageQuery,
    @Req() req: Request,
    @PageText() text: PageTextFn,
    @PageLanguage() language: string,
  ): Promise<PageView> {
    return new PageView('shop/account/my-invoices', {
      title: text('account.invoices.title'),
      csrf: true,
      ...(await this.list(req, language, query, this.documents.invoicedStatuses())),
    });
  }

  /**
   * The invoice PDF of an own order that is invoiced (paid or further along; shipped, when invoices are issued at
   * shipping): the stored document, the same bytes every time. Anything else is a 404.
   */
  @Post('download-invoice')
  @HttpCode(200)
  @Header('Cache-Control', 'private, no-store')
  async downloadInvoice(@Body() body: OrderNumberDto, @Req() req: Request): Promise<FileAnswer> {
    const order = await this.orders.own(req.customer!.id, body.number);
    const invoice = order && (await this.documents.invoiceToServe(order));
    if (!invoice) throw AppError.notFound('We could not find an invoice for this order.');
    const { filename, pdf } = await this.documents.file(invoice);
    return new FileAnswer(pdf, { type: 'application/pdf', filename, disposition: 'attachment' });
  }

  /** A credit note of an own order, by its id on the order page; anything else is a 404. */
  @Post('download-credit-note')
  @HttpCode(200)
  @Header('Cache-Control', 'private, no-store')
  async downloadCreditNote(@Body() body: CreditNoteDto, @Req() req: Request): Promise<FileAnswer> {
    const order = await this.orders.own(req.customer!.id, body.number);
    const note = order && (await this.documents.creditNoteOf(order.id, body.creditNote));
    if (!note) throw AppError.notFound('We could not find this credit note.');
    const { filename, pdf } = await this.documents.file(note);
    return new FileAnswer(pdf, { type: 'application/pdf', filename, disposition: 'attachment' });
  }

  /** The customer cancels their own unpaid order (`salesCustomerCancelEnabled`); another's order is a 404. */
  @Post('cancel-order')
  @HttpCode(200)
  async cancelOrder(@Body() body: OrderNumberDto, @Req() req: Request): Promise<FormAnswer> {
    const order = await this.orders.own(req.customer!.id, body.number);
    if (!order) throw orderNotFound();
    await this.edits.cancelByCustomer(order.id);
    return changeDone(
      { key: 'order.canceled' },
      { to: `/shop/account/my-order?number=${order.number}` },
      { status: 'canceled' },
    );
  }

  private async list(req: Request, language: string, query: PageQuery, statuses?: readonly OrderStatus[]) {
    const page = await this.orders.page(req.customer!.id, query.page ?? 1, statuses);
    const path = req.path;
    return {
      orders: await this.views.rows(page.orders, language),
      total: page.total,
      pager:
        page.pages > 1
          ? {
              page: page.page,
              pages: page.pages,
              previous: page.page > 1 ? `${path}?page=${page.page - 1}` : null,
              next: page.page < page.pages ? `${path}?page=${page.page + 1}` : null,
            }
          : null,
    };
  }
}

function orderNotFound(): AppError {
  return AppError.notFound('We could not find this order in your account.');
}
