import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import { OrdersService } from '../../commerce/orders/orders.service';
import { parseLineQuantities } from '../../commerce/refunds/refund-input';
import { ReturnService } from '../../commerce/returns/return.service';
import { AppError } from '../../common/errors/app-error';
import { ReturnRequestDto } from '../../common/return-request.dto';
import { ShopThrottlerGuard } from '../../common/throttling/throttling.module';
import { FormAnswer } from '../../web/answers/answers';
import { PageLanguage, PageText, PageTextFn } from '../../web/i18n/page-text.decorator';
import { FALLBACK_LANGUAGE, translations } from '../../web/i18n/translations';
import { GUEST_ORDER_LIMIT } from './guest-order.controller';

/** A guest's return request from the order page the order number opens (docs/shop.md, _Returns_). */
@ApiExcludeController()
@Controller('shop/order')
@UseGuards(ShopThrottlerGuard)
@Throttle({ default: { limit: GUEST_ORDER_LIMIT, ttl: 60_000 } })
export class GuestOrderReturnsController {
  constructor(
    private readonly orders: OrdersService,
    private readonly returns: ReturnService,
  ) {}

  @Post('returns')
  @HttpCode(200)
  async request(
    @Body() body: ReturnRequestDto,
    @PageText() text: PageTextFn,
    @PageLanguage() language: string,
  ): Promise<FormAnswer> {
    const order = await this.orders.byNumber(body.number);
    if (!order) throw AppError.notFound(text('order.notFound'));
    const ret = await this.returns.request({
      orderId: order.id,
      lines: parseLineQuantities(body.qty ?? {}),
      reason: body.reason,
      language,
      actor: 'guest',
    });
    return new FormAnswer({ key: 'returns.requested' }, { to: `/shop/order/view/${order.number}` }, () => ({
      success: true,
      message: translations().t(FALLBACK_LANGUAGE, 'returns.requested'),
      returnId: ret.id,
      status: ret.status,
    }));
  }
}
