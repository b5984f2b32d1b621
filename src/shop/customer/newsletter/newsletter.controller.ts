import { Body, Controller, Get, HttpCode, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { backUrl } from '../../../common/back-url';
import { RequiresFeature } from '../../../common/decorators/requires-feature.decorator';
import { AppError } from '../../../common/errors/app-error';
import { ShopThrottlerGuard } from '../../../common/throttling/throttling.module';
import { t } from '../../../web/i18n/page-language';
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

  @Get('newsletter/confirm')
  confirm(@Query('email') email: unknown, @Query('sig') sig: unknown, @Res() res: Response): Promise<void> {
    return this.linkPage(res, async () => CONFIRM_RESULTS[await this.newsletter.confirm(text(email), text(sig))]);
  }

  @Get('newsletter/unsubscribe')
  unsubscribe(@Query('email') email: unknown, @Query('sig') sig: unknown, @Res() res: Response): Promise<void> {
    return this.linkPage(res, async () => {
      await this.newsletter.unsubscribeLink(text(email), text(sig));
      return { heading: 'unsubscribedHeading', message: 'unsubscribedMessage' };
    });
  }

  /** Renders a link's outcome; a bad signature is a 400 page that says so. */
  private async linkPage(res: Response, follow: () => Promise<LinkResult>): Promise<void> {
    try {
      const result = await follow();
      const heading = t(res, `account.newsletterLink.${result.heading}`);
      res.render('shop/newsletter/link-result', {
        title: heading,
        heading,
        message: t(res, `account.newsletterLink.${result.message}`),
      });
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

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
