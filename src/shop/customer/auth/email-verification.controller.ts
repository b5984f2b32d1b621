import { Controller, Get, Header, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { RequiresFeature } from '../../../common/decorators/requires-feature.decorator';
import { t } from '../../../web/i18n/page-language';
import { EmailVerificationService, VerificationOutcome } from './email-verification.service';

/** Each outcome's page: its status, and whether it offers the forgotten-password way to confirm instead. */
const PAGES: Record<VerificationOutcome, { status: number; heading: string; offerReset: boolean }> = {
  verified: { status: 200, heading: 'verifiedHeading', offerReset: false },
  alreadyVerified: { status: 200, heading: 'verifiedHeading', offerReset: false },
  invalid: { status: 400, heading: 'failedHeading', offerReset: true },
  expired: { status: 400, heading: 'failedHeading', offerReset: true },
  outdated: { status: 400, heading: 'failedHeading', offerReset: false },
};

/** The link in the address-confirmation e-mail: a page that says what following it did, in the page language. */
@ApiTags('customer')
@RequiresFeature('customerAccountsEnabled')
@Controller('shop/customer')
export class EmailVerificationController {
  constructor(private readonly verifications: EmailVerificationService) {}

  @Get('verify-email')
  @Header('Cache-Control', 'no-store')
  @ApiOkResponse({ description: 'An HTML page: the address is confirmed (200), or why the link does not work (400)' })
  async verifyEmail(@Query('token') token: unknown, @Res() res: Response): Promise<void> {
    const outcome = await this.verifications.verify(typeof token === 'string' ? token : '');
    const page = PAGES[outcome];
    const heading = t(res, `customer.verifyEmail.${page.heading}`);
    res.status(page.status).render('shop/customer/email-verification', {
      title: heading,
      heading,
      message: t(res, `customer.verifyEmail.${outcome}`),
      offerReset: page.offerReset,
    });
  }
}
