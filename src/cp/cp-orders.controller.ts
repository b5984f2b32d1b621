import { randomUUID } from 'node:crypto';
import { Body, Controller, Get, Header, HttpCode, Param, ParseIntPipe, Post, Query, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsISO8601, IsNumberString, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import type { Request } from 'express';
import { CpPermission } from '../common/decorators/cp-permission.decorator';
import { IdempotencyKey } from '../common/decorators/idempotency-key.decorator';
import { AppError } from '../common/errors/app-error';
import { formatMoney } from '../common/money-format';
import { cpUserHolds } from '../common/session-data';
import { SalesDocuments } from '../commerce/invoices/sales-documents.service';
import { COUNTRY_CODES, countryOptions } from '../common/countries';
import { OrderAdmin } from '../commerce/orders/order-admin.service';
import { NEWEST_ORDERS_FIRST, OrderFilter, OrderList, ORDER_SORTS } from '../commerce/orders/order-list.service';
import { MethodNames, OrderMethodNames } from '../commerce/orders/order-method-names';
import { ORDER_STATUSES, OrderStatus } from '../commerce/orders/order-status.machine';
import { ORDER_STATUS_LABELS } from '../commerce/orders/order-summary';
import { RefundBalance } from '../commerce/refunds/refund-balance';
import { RefundService } from '../commerce/refunds/refund.service';
import { ReturnService } from '../commerce/returns/return.service';
import { WithdrawalService } from '../commerce/withdrawals/withdrawal.service';
import { CurrencyService, MoneyUnit } from '../commerce/stores/currency.service';
import { shipmentLifecycle } from '../commerce/shipments/shipment-lifecycle';
import { MANUAL_CARRIER } from '../commerce/shipments/shipment.entity';
import { ShipmentsService } from '../commerce/shipments/shipments.service';
import { AppConfig } from '../config/app-config';
import { InjectConfig } from '../config/config.module';
import { CpListQuery } from '../common/cp-list.query';
import { FileAnswer, FormAnswer, PageView } from '../web/answers/answers';
import { RefusedGoesTo } from '../web/answers/refused-form.decorator';
import { refundDone, RefundFormDto, refundRequest, TICKED } from './refund-form';

/** The form's "Any" options send an empty value. */
const emptyIsAbsent = Transform(({ value }: { value: unknown }) => (value === '' ? undefined : value));

/** The order list's GET form (`?status=&from=&to=&payment=&shipping=&country=&customer=&q=&sort=&page=`). */
class OrderListQuery extends CpListQuery {
  @emptyIsAbsent
  @IsOptional()
  @IsIn(ORDER_STATUSES)
  status?: OrderStatus;

  @emptyIsAbsent
  @IsOptional()
  @IsISO8601({ strict: true })
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'from must be a date, YYYY-MM-DD' })
  from?: string;

  @emptyIsAbsent
  @IsOptional()
  @IsISO8601({ strict: true })
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'to must be a date, YYYY-MM-DD' })
  to?: string;

  @emptyIsAbsent
  @IsOptional()
  @IsString()
  @MaxLength(64)
  payment?: string;

  @emptyIsAbsent
  @IsOptional()
  @IsString()
  @MaxLength(191)
  shipping?: string;

  @emptyIsAbsent
  @IsOptional()
  @IsIn(COUNTRY_CODES)
  country?: string;

  @emptyIsAbsent
  @IsOptional()
  @IsNumberString({ no_symbols: true })
  @MaxLength(10)
  customer?: string;

  get filter(): OrderFilter {
    return {
      status: this.status,
      q: this.q || undefined,
      from: this.from,
      to: this.to,
      paymentMethod: this.payment,
      shippingMethod: this.shipping,
      country: this.country,
      customer: this.customer ? Number(this.customer) : undefined,
      sort: this.sortBy(ORDER_SORTS, NEWEST_ORDERS_FIRST),
    };
  }
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
    private readonly orderList: OrderList,
    private readonly names: OrderMethodNames,
    private readonly refunds: RefundService,
    private readonly returns: ReturnService,
    private readonly withdrawals: WithdrawalService,
    private readonly currencies: CurrencyService,
    private readonly shipments: ShipmentsService,
    private readonly documents: SalesDocuments,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get()
  async list(@Query() query: OrderListQuery, @Req() req: Request): Promise<PageView> {
    const page = query.pageNumber;
    const result = await this.orderList.page(query.filter, page);
    // The exports take the list's filters and sort, not its page.
    const filters = new URL(req.originalUrl, 'http://list.invalid').searchParams;
    filters.delete('page');
    const exportQuery = filters.size > 0 ? `?${filters}` : '';
    return new PageView('cp/orders', {
      layout: 'cp',
      title: 'Orders',
      ...result,
      page,
      filter: query,
      ordersCsvUrl: `export.csv${exportQuery}`,
      linesCsvUrl: `lines.csv${exportQuery}`,
      statuses: ORDER_STATUSES.map((status) => ({ value: status, label: ORDER_STATUS_LABELS[status] })),
      paymentMethods: this.names.paymentChoices(),
      shippingMethods: await this.names.shippingChoices(),
      countries: countryOptions(),
    });
  }

  /** The whole filtered list (not a page of it) as CSV. */
  @Get('export.csv')
  async ordersCsv(@Query() query: OrderListQuery): Promise<FileAnswer> {
    return csvAnswer(await this.orderList.ordersCsv(query.filter), 'orders');
  }

  /** The lines of the filtered orders as CSV. */
  @Get('lines.csv')
  async linesCsv(@Query() query: OrderListQuery): Promise<FileAnswer> {
    return csvAnswer(await this.orderList.linesCsv(query.filter), 'order-lines');
  }

  @Get(':id')
  async detail(@Param('id', ParseIntPipe) id: number, @Req() req: Request): Promise<PageView> {
    const [detail, shipments] = await Promise.all([
      this.orders.detail(id, (permission) => cpUserHolds(req.cpStaff!, permission)),
      this.shipments.forOrder(id),
    ]);
    const currency = await this.currencies.recorded(detail.order.currency);
    const refunds = refundPanel(await this.refunds.balance(id), currency, await this.names.load());
    const [returns, withdrawals] = await Promise.all([this.returns.forOrder(id), this.withdrawals.forOrder(id)]);
    return new PageView('cp/order', {
      layout: 'cp',
      title: `Order ${detail.order.reference}`,
      ...detail,
      refunds,
      returns,
      withdrawals,
      shipments: shipments.map((shipment) => ({
        ...shipment,
        events: [...shipment.events].reverse(),
        cancelable: shipmentLifecycle.next(shipment.status).includes('canceled'),
        // A carrier's parcel reports its delivery itself.
        deliverable: shipment.carrier === MANUAL_CARRIER && shipment.status === 'in_transit',
      })),
    });
  }

  /**
   * Refunds money of the order (docs/shop.md, _Refunds_): through the gateway where it can, else recorded with the
   * staff member's bank reference. The same idempotency key again answers with the refund it made.
   */
  @Post(':id/refunds')
  @HttpCode(200)
  @RefusedGoesTo('orders/:id')
  async refund(
    @Param('id', ParseIntPipe) id: number,
    @Body() body: RefundFormDto,
    @IdempotencyKey() headerKey: string | undefined,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    const result = await this.refunds.refund({
      orderId: id,
      ...refundRequest(body, `cp:${req.cpStaff!.email}`),
      idempotencyKey: headerKey ?? body.idempotencyKey ?? randomUUID(),
      full: TICKED.includes(body.full ?? false),
    });
    const { message, report } = await refundDone(result, this.refunds, this.currencies);
    return FormAnswer.done(message, { to: `/${this.config.cpTrigger}/orders/${id}` }, { refund: report });
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
    const change = await this.orders.changeStatus(id, body.status, `cp:${req.cpStaff!.email}`, body.note);
    const order = { to: `/${this.config.cpTrigger}/orders/${id}` };
    if (change) return FormAnswer.note('success', `Status changed to ${body.status}.`, order);
    return FormAnswer.note('info', 'The status was already set.', order);
  }
}

/** The order page's refund section: paid, refunded and balance, each line's quantity left, the refunds so far. */
function refundPanel(state: RefundBalance, currency: MoneyUnit, names: MethodNames) {
  const money = (minor: number) => formatMoney(minor, currency);
  const held = state.pending;
  return {
    paid: money(state.paid),
    refunded: money(state.refunded),
    pending: held > 0 ? money(held) : null,
    balance: money(state.balance),
    open: state.balance - held > 0,
    // Shown with the form, so a post repeated by the browser is recognised as the same refund.
    key: randomUUID(),
    payments: state.payments.map(({ transaction, paid, refunded }) => ({
      id: transaction.id,
      method: names.paymentCode(transaction.code),
      paid: money(paid),
      refunded: money(refunded),
    })),
    lines: state.lines.map(({ line, refunded }) => ({
      id: line.id,
      name: line.name,
      sku: line.sku,
      qty: line.qty,
      refunded,
      left: line.qty - refunded,
    })),
    list: state.refunds.map((refund) => ({
      ...refund,
      // Only a gateway refund waits: for the gateway's answer, or, when it gave none, for the reconciliation job.
      status: refund.status === 'pending' ? 'pending, waiting for the bank' : refund.status,
      amount: money(refund.amount),
      giftCardAmount: refund.giftCardAmount > 0 ? money(refund.giftCardAmount) : null,
    })),
  };
}

function csvAnswer(csv: string, name: string): FileAnswer {
  return new FileAnswer(csv, {
    type: 'text/csv; charset=utf-8',
    filename: `${name}-${new Date().toISOString().slice(0, 10)}.csv`,
    disposition: 'attachment',
    headers: { 'Cache-Control': 'private, no-store' },
  });
}

function pdfAnswer({ filename, pdf }: { filename: string; pdf: Buffer }): FileAnswer {
  return new FileAnswer(pdf, { type: 'application/pdf', filename, disposition: 'inline' });
}
