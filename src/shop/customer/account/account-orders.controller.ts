import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { AccountRoute } from '../auth/account-route.decorator';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { OrderStatus } from '../../../commerce/orders/order-status.machine';
import { AppError } from '../../../common/errors/app-error';
import { pageLanguage, t } from '../../../web/i18n/page-language';
import { AccountOrderViews } from './account-order-view.service';
import { CustomerOrdersService, INVOICED_STATUSES } from './customer-orders.service';
import { OrderNumberDto, PageQuery } from './dto/account.dto';
import { InvoicePdfService } from './invoice-pdf.service';

/** The customer's orders and invoices (spec "Customer and authentication": my-orders … download-invoice). */
@ApiTags('customer')
@AccountRoute()
@Controller('shop/account')
export class AccountOrdersController {
  constructor(
    private readonly orders: CustomerOrdersService,
    private readonly views: AccountOrderViews,
    private readonly invoices: InvoicePdfService,
  ) {}

  @Get('my-orders')
  async myOrders(@Query() query: PageQuery, @Req() req: Request, @Res() res: Response): Promise<void> {
    res.render('shop/account/my-orders', {
      title: t(res, 'account.orders.title'),
      csrf: true,
      ...(await this.list(req, res, query)),
    });
  }

  @Get('my-order')
  async myOrder(@Query() query: OrderNumberDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    const order = await this.orders.own(req.customer!.id, query.number);
    if (!order) throw orderNotFound();
    res.setHeader('X-Robots-Tag', 'noindex');
    res.render('shop/account/my-order', {
      title: t(res, 'account.order.title', { reference: order.reference }),
      csrf: true,
      order: await this.views.detail(order, pageLanguage(res)),
    });
  }

  @Get('my-invoices')
  async myInvoices(@Query() query: PageQuery, @Req() req: Request, @Res() res: Response): Promise<void> {
    res.render('shop/account/my-invoices', {
      title: t(res, 'account.invoices.title'),
      csrf: true,
      ...(await this.list(req, res, query, INVOICED_STATUSES)),
    });
  }

  /** The invoice PDF of an own order that is paid or further along; anything else is a 404. */
  @Post('download-invoice')
  @HttpCode(200)
  async downloadInvoice(@Body() body: OrderNumberDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    const order = await this.orders.ownInvoiced(req.customer!.id, body.number);
    if (!order) throw AppError.notFound('We could not find an invoice for this order.');
    const { filename, pdf } = await this.invoices.render(order);
    res.setHeader('Cache-Control', 'private, no-store');
    res.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
    res.type('application/pdf').send(pdf);
  }

  private async list(req: Request, res: Response, query: PageQuery, statuses?: readonly OrderStatus[]) {
    const page = await this.orders.page(req.customer!.id, query.page ?? 1, statuses);
    const path = req.path;
    return {
      orders: await this.views.rows(page.orders, pageLanguage(res)),
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
