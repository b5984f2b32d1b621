import { Body, Controller, Get, Header, HttpCode, Post, Query, Req, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import type { Request } from 'express';
import { RequiresFeature } from '../../../common/decorators/requires-feature.decorator';
import { AppError } from '../../../common/errors/app-error';
import { wantsHtml } from '../../../common/session-data';
import { ShopThrottlerGuard } from '../../../common/throttling/throttling.module';
import { FormAnswer, PageView } from '../../../web/answers/answers';
import { PageText, PageTextFn } from '../../../web/i18n/page-text.decorator';
import { consentWording } from '../../../web/i18n/consent-wording';
import { linkConfirmPage } from '../../../web/link-confirm-page';
import { apiText } from '../translated-answers';
import { SubscribeDto } from './newsletter.dto';
import { NewsletterService, NewsletterStatus } from '../../../commerce/marketing/newsletter.service';

/** Subscribe requests per IP address in 10 minutes: every one may e-mail someone. */
export const SUBSCRIBE_LIMIT = 10;

/** A link's outcome as keys under `account.newsletterLink`. */
interface LinkResult {
  heading: string;
  message: string;
}

const CONFIRM_RESULTS: Record<NewsletterStatus, LinkResult> = {
  confirmed: { heading: 'confirmedHeading', message: 'confirmedMessage' },
  pending: { heading: 'pendingHeading', message: 'pendingMessage' },
  unsubscribed: { heading: 'notSubscribedHeading', message: 'unsubscribedMeanwhile' },
  none: { heading: 'notSubscribedHeading', message: 'notOnList' },
};

/** The newsletter without an account: subscribe, and the signed links of its e-mails (double opt-in). */
@ApiTags('customer')
@RequiresFeature('customerAccountsEnabled')
@Controller('shop')
export class NewsletterController {
  constructor(private readonly newsletter: NewsletterService) {}

  /** The same answer for new, pending and confirmed addresses: it reveals nobody's subscription. */
  @Post('subscribe')
  @HttpCode(200)
  @UseGuards(ShopThrottlerGuard)
  @Throttle({ default: { limit: SUBSCRIBE_LIMIT, ttl: 10 * 60_000 } })
  async subscribe(@Body() body: SubscribeDto): Promise<FormAnswer> {
    // The consent ticked here is recorded when the e-mail's link confirms the address is the subscriber's.
    await this.newsletter.subscribe(body.email, body.firstName, null);
    const message = { key: 'account.newsletterLink.thankYou', params: { email: body.email } };
    return new FormAnswer(message, { back: '/' }, () => ({ success: true, message: apiText(message) }));
  }

  /**
   * The confirm link from the e-mail: a page whose button confirms a pending subscription, or the address's
   * status. Opening it changes nothing: a mail scanner at someone's mailbox must not confirm a subscription a
   * stranger entered for them.
   */
  @Get('newsletter/confirm')
  confirmPage(@Query('email') email: unknown, @Query('sig') sig: unknown, @PageText() text: PageTextFn) {
    const link = { email: asText(email), sig: asText(sig) };
    return orInvalidLinkPage(text, async () => {
      const status = await this.newsletter.confirmLinkStatus(link.email, link.sig);
      if (status !== 'pending') return resultPage(text, CONFIRM_RESULTS[status]);
      return linkConfirmPage(text, {
        keys: 'account.newsletterLink',
        action: '/shop/newsletter/confirm',
        fields: link,
        // The consent the button records (confirm), in the words recorded.
        consent: consentWording(text, 'marketing').text,
      });
    });
  }

  /** The confirm page's button `{ email, sig }`: the outcome's page, or `{ success, status }` for JSON. */
  @Post('newsletter/confirm')
  @HttpCode(200)
  async confirm(@Body() body: Record<string, unknown>, @Req() req: Request, @PageText() text: PageTextFn) {
    const confirm = () =>
      this.newsletter.confirm(asText(body.email), asText(body.sig), consentWording(text, 'marketing'));
    if (!wantsHtml(req)) return { success: true, status: await confirm() };
    return orInvalidLinkPage(text, async () => resultPage(text, CONFIRM_RESULTS[await confirm()]));
  }
}

/**
 * The opt-out link of every marketing e-mail (newsletter, abandoned-cart reminder): one click unsubscribes and
 * withdraws the consent. It works whether or not accounts are on, as abandoned-cart reminders go out without them.
 */
@ApiTags('customer')
@Controller('shop/newsletter')
export class MarketingOptOutController {
  constructor(private readonly newsletter: NewsletterService) {}

  @Get('unsubscribe')
  @Header('Cache-Control', 'no-store')
  unsubscribe(@Query('email') email: unknown, @Query('sig') sig: unknown, @PageText() text: PageTextFn) {
    return orInvalidLinkPage(text, async () => {
      await this.newsletter.unsubscribeLink(asText(email), asText(sig), consentWording(text, 'optOutLink'));
      return resultPage(text, { heading: 'unsubscribedHeading', message: 'unsubscribedMessage' });
    });
  }
}

/** The page `page` makes; a link with a bad signature gets instead a 400 page that says so. */
async function orInvalidLinkPage(text: PageTextFn, page: () => Promise<PageView>): Promise<PageView> {
  try {
    return await page();
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return new PageView(
      'shop/newsletter/link-result',
      {
        title: text('account.newsletterLink.invalidTitle'),
        heading: text('account.newsletterLink.invalidHeading'),
        message: error.message,
      },
      { status: error.status },
    );
  }
}

/** A link's outcome. */
function resultPage(text: PageTextFn, result: LinkResult): PageView {
  const heading = text(`account.newsletterLink.${result.heading}`);
  return new PageView('shop/newsletter/link-result', {
    title: heading,
    heading,
    message: text(`account.newsletterLink.${result.message}`),
  });
}

function asText(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
