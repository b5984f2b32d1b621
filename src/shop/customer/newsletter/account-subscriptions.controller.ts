import { Body, Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { AccountRoute } from '../auth/account-route.decorator';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Customer } from '../../../commerce/customers/customer.entity';
import { t } from '../../../web/i18n/page-language';
import { answerDone } from '../form-answer';
import { SubscriptionsDto } from './newsletter.dto';
import { NewsletterService } from './newsletter.service';

const PAGE = '/shop/account/subscriptions';

/**
 * The account's subscriptions page. Ticking the newsletter goes through the same double opt-in as a guest:
 * nothing has proven that the account's e-mail address belongs to whoever registered it.
 */
@ApiTags('customer')
// Guards run in the order applied, bottom up: the feature flag (404) before the login check.
@AccountRoute()
@Controller('shop/account')
export class AccountSubscriptionsController {
  constructor(private readonly newsletter: NewsletterService) {}

  @Get('subscriptions')
  async page(@Req() req: Request, @Res() res: Response): Promise<void> {
    const customer = req.customer as Customer;
    const status = await this.newsletter.statusOf(customer.email);
    res.render('shop/account/subscriptions', {
      title: t(res, 'account.subscriptions.title'),
      email: customer.email,
      confirmed: status === 'confirmed',
      pending: status === 'pending',
      csrf: true,
    });
  }

  @Post('subscriptions/save')
  @HttpCode(200)
  async save(@Body() body: SubscriptionsDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    const customer = req.customer as Customer;
    const status =
      body.newsletter === true
        ? await this.newsletter.subscribe(customer.email, customer.firstName)
        : await this.newsletter.unsubscribe(customer.email);
    const key =
      status === 'confirmed'
        ? 'account.subscriptions.subscribed'
        : status === 'pending'
          ? 'account.subscriptions.almostDone'
          : 'account.subscriptions.unsubscribed';
    const message = { key, params: { email: customer.email } };
    answerDone(req, res, message, PAGE, { newsletter: status });
  }
}
