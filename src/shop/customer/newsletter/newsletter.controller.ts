import { Body, Controller, Get, HttpCode, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { backUrl } from '../../../common/back-url';
import { RequiresFeature } from '../../../common/decorators/requires-feature.decorator';
import { AppError } from '../../../common/errors/app-error';
import { ShopThrottlerGuard } from '../../../common/throttling/throttling.module';
import { answerDone } from '../form-answer';
import { SubscribeDto } from './newsletter.dto';
import { NewsletterService, NewsletterStatus } from './newsletter.service';

/** Subscribe requests per IP address in 10 minutes: every one may e-mail someone. */
export const SUBSCRIBE_LIMIT = 10;

const CONFIRM_RESULTS: Record<NewsletterStatus, { heading: string; message: string }> = {
  confirmed: { heading: 'Subscription confirmed', message: 'Thank you: you will receive our newsletter.' },
  pending: { heading: 'Subscription pending', message: 'Follow the link in the confirmation e-mail.' },
  unsubscribed: {
    heading: 'Not subscribed',
    message: 'This address was unsubscribed after the link was sent. Subscribe again to get the newsletter.',
  },
  none: {
    heading: 'Not subscribed',
    message: 'This address is not on our list. Subscribe again to get the newsletter.',
  },
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
    const message = `Thank you! Unless ${body.email} is subscribed already, we have e-mailed it a link to confirm the subscription.`;
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
      return { heading: 'Unsubscribed', message: 'You will get no more newsletters at this address.' };
    });
  }

  /** Renders a link's outcome; a bad signature is a 400 page that says so. */
  private async linkPage(res: Response, follow: () => Promise<{ heading: string; message: string }>): Promise<void> {
    try {
      const result = await follow();
      res.render('shop/newsletter/link-result', { title: result.heading, ...result });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      res.status(error.status).render('shop/newsletter/link-result', {
        title: 'Link not valid',
        heading: 'This link does not work',
        message: error.message,
      });
    }
  }
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
