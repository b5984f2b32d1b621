import { Body, Controller, Get, HttpCode, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { backUrl } from '../../../common/back-url';
import { RequiresFeature } from '../../../common/decorators/requires-feature.decorator';
import { AppError } from '../../../common/errors/app-error';
import { wantsHtml } from '../../../common/session-data';
import { ShopThrottlerGuard } from '../../../common/throttling/throttling.module';
import { t } from '../../../web/i18n/page-language';
import { renderLinkConfirmPage } from '../../../web/link-confirm-page';
import { answerDone } from '../form-answer';
import { SubscribeDto } from './newsletter.dto';
import { NewsletterService, NewsletterStatus } from './newsletter.service';

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
  async subscribe(@Body() body: SubscribeDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    await this.newsletter.subscribe(body.email, body.firstName);
    const message = { key: 'account.newsletterLink.thankYou', params: { email: body.email } };
    answerDone(req, res, message, backUrl(req, '/'));
  }

  /**
   * The confirm link from the e-mail: a page whose button confirms a pending subscription, or the address's
   * status. Opening it changes nothing: a mail scanner at someone's mailbox must not confirm a subscription a
   * stranger entered for them.
   */
  @Get('newsletter/confirm')
  confirmPage(@Query('email') email: unknown, @Query('sig') sig: unknown, @Res() res: Response): Promise<void> {
    const link = { email: text(email), sig: text(sig) };
    return this.orInvalidLinkPage(res, async () => {
      const status = await this.newsletter.confirmLinkStatus(link.email, link.sig);
      if (status !== 'pending') return renderResult(res, CONFIRM_RESULTS[status]);
      renderLinkConfirmPage(res, { keys: 'account.newsletterLink', action: '/shop/newsletter/confirm', fields: link });
    });
  }

  /** The confirm page's button `{ email, sig }`: the outcome's page, or `{ success, status }` for JSON. */
  @Post('newsletter/confirm')
  @HttpCode(200)
  async confirm(@Body() body: Record<string, unknown>, @Req() req: Request, @Res() res: Response): Promise<void> {
    const confirm = () => this.newsletter.confirm(text(body.email), text(body.sig));
    if (!wantsHtml(req)) {
      res.json({ success: true, status: await confirm() });
      return;
    }
    return this.orInvalidLinkPage(res, async () => renderResult(res, CONFIRM_RESULTS[await confirm()]));
  }

  @Get('newsletter/unsubscribe')
  unsubscribe(@Query('email') email: unknown, @Query('sig') sig: unknown, @Res() res: Response): Promise<void> {
    return this.orInvalidLinkPage(res, async () => {
      await this.newsletter.unsubscribeLink(text(email), text(sig));
      renderResult(res, { heading: 'unsubscribedHeading', message: 'unsubscribedMessage' });
    });
  }

  /** Runs `page`; a link with a bad signature gets instead a 400 page that says so. */
  private async orInvalidLinkPage(res: Response, page: () => Promise<void>): Promise<void> {
    try {
      await page();
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      res.status(error.status).render('shop/newsletter/link-result', {
        title: t(res, 'account.newsletterLink.invalidTitle'),
        heading: t(res, 'account.newsletterLink.invalidHeading'),
        message: error.message,
      });
    }
  }
}

/** Renders a link's outcome. */
function renderResult(res: Response, result: LinkResult): void {
  const heading = t(res, `account.newsletterLink.${result.heading}`);
  res.render('shop/newsletter/link-result', {
    title: heading,
    heading,
    message: t(res, `account.newsletterLink.${result.message}`),
  });
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
