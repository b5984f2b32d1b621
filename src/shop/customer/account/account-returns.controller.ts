import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CustomerOrdersService } from '../../../commerce/customers/customer-orders.service';
import { parseLineQuantities } from '../../../commerce/refunds/refund-input';
import { ReturnService } from '../../../commerce/returns/return.service';
import { AppError } from '../../../common/errors/app-error';
import { ReturnRequestDto } from '../../../common/return-request.dto';
import { FormAnswer } from '../../../web/answers/answers';
import { PageLanguage } from '../../../web/i18n/page-text.decorator';
import { AccountRoute } from '../auth/account-route.decorator';
import { changeDone } from '../translated-answers';

/** A customer's return request from the account's order page (docs/shop.md, _Returns_). */
@ApiTags('customer')
@AccountRoute()
@Controller('shop/account')
export class AccountReturnsController {
  constructor(
    private readonly orders: CustomerOrdersService,
    private readonly returns: ReturnService,
  ) {}

  @Post('returns')
  @HttpCode(200)
  async request(
    @Body() body: ReturnRequestDto,
    @Req() req: Request,
    @PageLanguage() language: string,
  ): Promise<FormAnswer> {
    const order = await this.orders.own(req.customer!.id, body.number);
    if (!order) throw AppError.notFound('We could not find this order in your account.');
    const ret = await this.returns.request({
      orderId: order.id,
      lines: parseLineQuantities(body.qty ?? {}),
      reason: body.reason,
      language,
      actor: `customer:${req.customer!.id}`,
    });
    const page = `/shop/account/my-order?number=${order.number}`;
    return changeDone({ key: 'returns.requested' }, { to: page }, { returnId: ret.id, status: ret.status });
  }
}
