import { Body, Controller, Get, Header, Param, ParseIntPipe, Post, Query, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import type { Request } from 'express';
import { CpPermission } from '../common/decorators/cp-permission.decorator';
import { cpUserHolds } from '../common/session-data';
import { SalesDocuments } from '../commerce/invoices/sales-documents.service';
import { OrderAdmin } from '../commerce/orders/order-admin.service';
import { ORDER_STATUSES, OrderStatus } from '../commerce/orders/order-status.machine';
import { OrderStatusService } from '../commerce/orders/order-status.service';
import { AppConfig } from '../config/app-config';
import { InjectConfig } from '../config/config.module';
import { CpListQuery } from '../common/cp-list.query';
import { AppError } from '../common/errors/app-error';
import { FileAnswer, FormAnswer, PageView } from '../web/answers/answers';

class OrderListQuery extends CpListQuery {
  @IsOptional()
  @IsIn(ORDER_STATUSES)
  status?: OrderStatus;
}

class ChangeStatusDto {
  @IsIn(ORDER_STATUSES)
  status: OrderStatus;

  @IsOptional()
  @IsString()
  @MaxLength(1000)
  note?: string;
}

@ApiExcludeController()
@CpPermission('accessOrders')
@Controller('orders')
export class CpOrdersController {
  constructor(
    private readonly orders: OrderAdmin,
    private readonly statuses: OrderStatusService,
    private readonly documents: SalesDocuments,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get()
  async list(@Query() query: OrderListQuery): Promise<PageView> {
    const page = query.pageNumber;
    const result = await this.orders.list({ status: query.status, q: query.q, page });
    return new PageView('cp/orders', {
      layout: 'cp',
      title: 'Orders',
      ...result,
      page,
      filter: query,
      statuses: ORDER_STATUSES,
    });
  }

  @Get(':id')
  async detail(@Param('id', ParseIntPipe) id: number, @Req() req: Request): Promise<PageView> {
    const detail = await this.orders.detail(id, (permission) => cpUserHolds(req.cpStaff!, permission));
    return new PageView('cp/order', { layout: 'cp', title: 'Order', ...detail });
  }

  /** The order's invoice as issued (one is issued now for an invoiced order from before invoices were kept). */
  @Get(':id/invoice')
  @Header('Cache-Control', 'private, no-store')
  async invoice(@Param('id', ParseIntPipe) id: number): Promise<FileAnswer> {
    const order = await this.orders.byId(id);
    const invoice = order && (await this.documents.invoiceToServe(order));
    if (!invoice) throw AppError.notFound('This order has no invoice.');
    return pdfAnswer(await this.documents.file(invoice));
  }

  @Get(':id/credit-notes/:noteId')
  @Header('Cache-Control', 'private, no-store')
  async creditNote(
    @Param('id', ParseIntPipe) id: number,
    @Param('noteId', ParseIntPipe) noteId: number,
  ): Promise<FileAnswer> {
    const note = await this.documents.creditNoteOf(id, noteId);
    if (!note) throw AppError.notFound('This order has no such credit note.');
    return pdfAnswer(await this.documents.file(note));
  }

  /**
   * Changes the status through the order machine, which fires `order-status-change`. A status already set is
   * told in an info flash.
   */
  @Post(':id/status')
  async changeStatus(
    @Param('id', ParseIntPipe) id: number,
    @Body() body: ChangeStatusDto,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    const change = await this.statuses.change(id, body.status, `cp:${req.cpStaff!.email}`, body.note);
    const order = { to: `/${this.config.cpTrigger}/orders/${id}` };
    if (change) return FormAnswer.note('success', `Status changed to ${body.status}.`, order);
    return FormAnswer.note('info', 'The status was already set.', order);
  }
}

function pdfAnswer({ filename, pdf }: { filename: string; pdf: Buffer }): FileAnswer {
  return new FileAnswer(pdf, { type: 'application/pdf', filename, disposition: 'inline' });
}
