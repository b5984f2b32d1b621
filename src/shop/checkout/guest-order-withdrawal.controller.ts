import { Body, Controller, Get, HttpCode, Param, ParseIntPipe, Post, Query, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import { IsNotEmpty, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { Order } from '../../commerce/orders/order.entity';
import { OrdersService } from '../../commerce/orders/orders.service';
import { parseLineQuantities } from '../../commerce/refunds/refund-input';
import { WithdrawalService } from '../../commerce/withdrawals/withdrawal.service';
import { AppError } from '../../common/errors/app-error';
import { SettingsService } from '../../config/settings.service';
import { ShopThrottlerGuard } from '../../common/throttling/throttling.module';
import { FormAnswer, PageView, Redirect } from '../../web/answers/answers';
import { RefusedGoesTo } from '../../web/answers/refused-form.decorator';
import { PageLanguage, PageText, PageTextFn } from '../../web/i18n/page-text.decorator';
import { FALLBACK_LANGUAGE, translations } from '../../web/i18n/translations';
import { GUEST_ORDER_LIMIT } from './guest-order.controller';

/** The footer form: the order as the shopper knows it (its reference or number) and its e-mail address. */
class FindOrderDto {
  @IsString({ message: 'is required' })
  @IsNotEmpty({ message: 'is required' })
  @MaxLength(64)
  order: string;

  @IsString({ message: 'is required' })
  @IsNotEmpty({ message: 'is required' })
  @MaxLength(191)
  email: string;
}

/** The confirmed withdrawal: the quantity of each line as `qty[line<ID>]` fields. */
class WithdrawDto {
  @IsOptional()
  @IsObject()
  qty?: Record<string, string>;
}

const PRIVATE_PAGE = { headers: { 'Cache-Control': 'private, no-store', 'X-Robots-Tag': 'noindex' } };

/**
 * The withdrawal function (docs/shop.md, _Withdrawal_), reachable without logging in: from the footer with the order
 * and its e-mail address, or from the order's pages by its number (the guest's key, so its URLs are redacted in logs
 * as the order page's are). Two steps without JavaScript: the lines and quantities (a GET form), then the
 * confirmation (a POST); then the receipt with its date and time, also sent by e-mail. Rate-limited like the guest
 * order page.
 */
@ApiExcludeController()
@Controller('shop')
@UseGuards(ShopThrottlerGuard)
@Throttle({ default: { limit: GUEST_ORDER_LIMIT, ttl: 60_000 } })
export class GuestOrderWithdrawalController {
  constructor(
    private readonly orders: OrdersService,
    private readonly withdrawals: WithdrawalService,
    private readonly settings: SettingsService,
  ) {}

  @Get('withdrawal')
  find(@PageText() text: PageTextFn): PageView {
    return new PageView('shop/withdrawal/find', {
      title: text('withdrawal.title'),
      csrf: true,
      days: this.settings.get('salesWithdrawalDays'),
    });
  }

  /** A wrong number and a wrong e-mail get the same answer: the form tells nobody which orders exist. */
  @Post('withdrawal')
  @HttpCode(200)
  @RefusedGoesTo(() => '/shop/withdrawal')
  async lookUp(@Body() body: FindOrderDto, @PageText() text: PageTextFn): Promise<Redirect> {
    const order = await this.withdrawals.find(body.order, body.email);
    if (!order) throw AppError.notFound(text('withdrawal.notFound'));
    return new Redirect(linesUrl(order));
  }

  /** Step 1: which items, every one left by default. */
  @Get('order/withdraw/:orderNumber')
  async lines(@Param('orderNumber') number: string, @PageText() text: PageTextFn): Promise<PageView> {
    const order = await this.order(number, text);
    const [form, earlier] = await Promise.all([this.withdrawals.form(order), this.withdrawals.forOrder(order.id)]);
    return new PageView(
      'shop/withdrawal/lines',
      {
        title: text('withdrawal.title'),
        order: { reference: order.reference, placedAt: order.dateCreated, viewUrl: `/shop/order/view/${order.number}` },
        action: `${linesUrl(order)}/confirm`,
        lastDay: form.lastDay,
        late: form.late,
        days: this.settings.get('salesWithdrawalDays'),
        open: form.open,
        lines: form.lines
          .filter(({ left }) => left > 0)
          .map(({ line, left }) => ({ id: line.id, name: line.name, qty: line.qty, left })),
        earlier: earlier.map((withdrawal) => ({
          dateCreated: withdrawal.dateCreated,
          url: receiptUrl(order, withdrawal.id),
        })),
      },
      PRIVATE_PAGE,
    );
  }

  /** Step 2: what will be withdrawn from, to confirm; a choice of nothing goes back to step 1. */
  @Get('order/withdraw/:orderNumber/confirm')
  async confirm(
    @Param('orderNumber') number: string,
    @Query() query: Record<string, unknown>,
    @PageText() text: PageTextFn,
  ): Promise<PageView | Redirect> {
    const order = await this.order(number, text);
    const asked = parseLineQuantities(queryQuantities(query));
    const form = await this.withdrawals.form(order);
    const chosen = asked.flatMap(({ orderLineId, qty }) => {
      const entry = form.lines.find(({ line }) => line.id === orderLineId);
      return entry && qty <= entry.left ? [{ id: orderLineId, name: entry.line.name, qty }] : [];
    });
    if (chosen.length === 0 || chosen.length !== asked.length)
      return new Redirect(linesUrl(order), 303, [{ type: 'error', message: text('withdrawal.chooseItems') }]);
    return new PageView(
      'shop/withdrawal/confirm',
      {
        title: text('withdrawal.confirmTitle'),
        csrf: true,
        order: { reference: order.reference },
        action: linesUrl(order),
        back: linesUrl(order),
        lines: chosen,
      },
      PRIVATE_PAGE,
    );
  }

  /** The confirmation: recorded (once), the receipt mailed, and the receipt page. */
  @Post('order/withdraw/:orderNumber')
  @HttpCode(200)
  @RefusedGoesTo((req) => `/shop/order/withdraw/${encodeURIComponent(String(req.params.orderNumber))}`)
  async withdraw(
    @Param('orderNumber') number: string,
    @Body() body: WithdrawDto,
    @PageText() text: PageTextFn,
    @PageLanguage() language: string,
  ): Promise<FormAnswer> {
    const order = await this.order(number, text);
    const { withdrawal, repeated } = await this.withdrawals.withdraw({
      orderId: order.id,
      lines: parseLineQuantities(body.qty ?? {}),
      language,
    });
    const key = repeated ? 'withdrawal.already' : 'withdrawal.received';
    return new FormAnswer({ key }, { to: receiptUrl(order, withdrawal.id) }, () => ({
      success: true,
      message: translations().t(FALLBACK_LANGUAGE, key),
      withdrawalId: withdrawal.id,
      receivedAt: withdrawal.dateCreated.toISOString(),
      deadline: withdrawal.deadline === null ? null : new Date(withdrawal.deadline).toISOString(),
      late: withdrawal.late,
      repeated,
    }));
  }

  /** The receipt: when the withdrawal was received and what it named. */
  @Get('order/withdraw/:orderNumber/received/:id')
  async receipt(
    @Param('orderNumber') number: string,
    @Param('id', ParseIntPipe) id: number,
    @PageText() text: PageTextFn,
  ): Promise<PageView> {
    const order = await this.order(number, text);
    const detail = await this.withdrawals.detail(id).catch(() => null);
    if (!detail || detail.withdrawal.orderId !== order.id) throw AppError.notFound(text('withdrawal.notFound'));
    const { withdrawal, lines } = detail;
    return new PageView(
      'shop/withdrawal/received',
      {
        title: text('withdrawal.receiptTitle'),
        order: { reference: order.reference, email: order.email, viewUrl: `/shop/order/view/${order.number}` },
        receivedAt: withdrawal.dateCreated.toISOString().replace('T', ' ').slice(0, 19),
        lastDay: detail.lastDay,
        late: withdrawal.late,
        lines: lines.map(({ line, qty }) => ({ name: line.name, qty })),
      },
      PRIVATE_PAGE,
    );
  }

  private async order(number: string, text: PageTextFn): Promise<Order> {
    const order = await this.orders.byNumber(number);
    if (!order) throw AppError.notFound(text('withdrawal.notFound'));
    return order;
  }
}

function linesUrl(order: Order): string {
  return `/shop/order/withdraw/${order.number}`;
}

function receiptUrl(order: Order, id: number): string {
  return `${linesUrl(order)}/received/${id}`;
}

/** The step 1 form's `qty[line<ID>]` fields as a query string gives them (flat keys), as `parseLineQuantities` takes them. */
function queryQuantities(query: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(query).flatMap(([key, value]) => {
      const field = /^qty\[(line\d{1,10})\]$/.exec(key)?.[1];
      return field && typeof value === 'string' ? [[field, value]] : [];
    }),
  );
}
