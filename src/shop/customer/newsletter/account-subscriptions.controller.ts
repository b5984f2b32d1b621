import { Body, Controller, Get, HttpCode, Post, Req } from '@nestjs/common';
import { AccountRoute } from '../auth/account-route.decorator';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Customer } from '../../../commerce/customers/customer.entity';
import { FormAnswer, PageView } from '../../../web/answers/answers';
import { PageText, PageTextFn } from '../../../web/i18n/page-text.decorator';
import { changeDone } from '../translated-answers';
import { SubscriptionsDto } from './newsletter.dto';
import { NewsletterService } from '../../../commerce/marketing/newsletter.service';

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
  async page(@Req() req: Request, @PageText() text: PageTextFn): Promise<PageView> {
    const customer = req.customer as Customer;
    const status = await this.newsletter.statusOf(customer.email);
    return new PageView('shop/account/subscriptions', {
      title: text('account.subscriptions.title'),
      email: customer.email,
      confirmed: status === 'confirmed',
      pending: status === 'pending',
      csrf: true,
    });
  }

  @Post('subscriptions/save')
  @HttpCode(200)
  async save(@Body() body: SubscriptionsDto, @Req() req: Request): Promise<FormAnswer> {
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
    return changeDone({ key, params: { email: customer.email } }, { to: PAGE }, { newsletter: status });
  }
}
