import { Body, Controller, Get, Header, HttpCode, Post, Query, Req } from '@nestjs/common';
import { AccountRoute } from '../auth/account-route.decorator';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { OrderStatus } from '../../../commerce/orders/order-status.machine';
import { AppError } from '../../../common/errors/app-error';
import { FileAnswer, PageView } from '../../../web/answers/answers';
import { PageLanguage, PageText, PageTextFn } from '../../../web/i18n/page-text.decorator';
import { AccountOrderViews } from './account-order-view.service';
import { CustomerOrdersService, INVOICED_STATUSES } from '../../../commerce/customers/customer-orders.service';
import { OrderNumberDto, PageQuery } from './dto/account.dto';
import { InvoicePdfService } from './invoice-pdf.service';
import { ReturnService } from '../../../commerce/returns/return.service';

/** The customer's orders and invoices: my-orders, my-order, my-invoices and download-invoice. */
@ApiTags('customer')
@AccountRoute()
@Controller('shop/account')
export class AccountOrdersController {
  constructor(
    private readonly orders: CustomerOrdersService,
    private readonly views: AccountOrderViews,
    private readonly invoices: InvoicePdfService,
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
        order: await this.views.detail(order, language),
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
      ...(await this.list(req, language, query, INVOICED_STATUSES)),
    });
  }

  /** The invoice PDF of an own order that is paid or further along; anything else is a 404. */
  @Post('download-invoice')
  @HttpCode(200)
  @Header('Cache-Control', 'private, no-store')
  async downloadInvoice(@Body() body: OrderNumberDto, @Req() req: Request): Promise<FileAnswer> {
    const order = await this.orders.ownInvoiced(req.customer!.id, body.number);
    if (!order) throw AppError.notFound('We could not find an invoice for this order.');
    const { filename, pdf } = await this.invoices.render(order);
    return new FileAnswer(pdf, { type: 'application/pdf', filename, disposition: 'attachment' });
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
