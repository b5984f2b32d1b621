import { Body, Controller, Get, HttpCode, Post, Req } from '@nestjs/common';
import { AccountRoute } from '../auth/account-route.decorator';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Customer } from '../../../commerce/customers/customer.entity';
import { MarketingConsents } from '../../../commerce/marketing/marketing-consents.service';
import { FormAnswer, PageView } from '../../../web/answers/answers';
import { consentWording } from '../../../web/i18n/consent-wording';
import { PageText, PageTextFn } from '../../../web/i18n/page-text.decorator';
import { changeDone } from '../translated-answers';
import { SubscriptionsDto } from './newsletter.dto';
import { NewsletterService } from '../../../commerce/marketing/newsletter.service';

const PAGE = '/shop/account/subscriptions';

/**
 * The account's subscriptions page: the consent to marketing e-mail as recorded (when, where) with its checkbox,
 * and the newsletter. Ticking the newsletter goes through the same double opt-in as a guest: nothing has proven
 * that the account's e-mail address belongs to whoever registered it.
 */
@ApiTags('customer')
// Guards run in the order applied, bottom up: the feature flag (404) before the login check.
@AccountRoute()
@Controller('shop/account')
export class AccountSubscriptionsController {
  constructor(
    private readonly newsletter: NewsletterService,
    private readonly consents: MarketingConsents,
  ) {}

  @Get('subscriptions')
  async page(@Req() req: Request, @PageText() text: PageTextFn): Promise<PageView> {
    const customer = req.customer as Customer;
    const [status, { basis, record }] = await Promise.all([
      this.newsletter.statusOf(customer.email),
      this.consents.standing(customer.email),
    ]);
    return new PageView('shop/account/subscriptions', {
      title: text('account.subscriptions.title'),
      email: customer.email,
      confirmed: status === 'confirmed',
      pending: status === 'pending',
      consent: {
        basis,
        given: basis === 'consent',
        softOptIn: basis === 'soft_opt_in',
        withdrawn: basis === 'withdrawn',
        date: record?.dateCreated,
        source: record && text(`consent.sources.${record.source}`),
      },
      csrf: true,
    });
  }

  @Post('subscriptions/save')
  @HttpCode(200)
  async save(@Body() body: SubscriptionsDto, @Req() req: Request, @PageText() text: PageTextFn): Promise<FormAnswer> {
    const customer = req.customer as Customer;
    const saved = await this.newsletter.saveAccountChoices(
      customer,
      { marketing: body.marketing === true, newsletter: body.newsletter === true },
      consentWording(text, 'marketing'),
    );
    const key =
      saved.newsletter === 'confirmed'
        ? 'account.subscriptions.subscribed'
        : saved.newsletter === 'pending'
          ? 'account.subscriptions.almostDone'
          : saved.marketing
            ? 'consent.account.given'
            : 'consent.account.refused';
    return changeDone({ key, params: { email: customer.email } }, { to: PAGE }, { ...saved });
  }
}
