import { Body, Controller, Get, Header, HttpCode, Post, Query, Req } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { RequiresFeature } from '../../../common/decorators/requires-feature.decorator';
import { wantsHtml } from '../../../common/session-data';
import { PageView } from '../../../web/answers/answers';
import { PageText, PageTextFn } from '../../../web/i18n/page-text.decorator';
import { linkConfirmPage } from '../../../web/link-confirm-page';
import { apiText } from '../translated-answers';
import { EmailVerificationService, VerificationOutcome } from '../../../commerce/customers/email-verification.service';
import { customerErrors } from '../../../commerce/customers/customers-errors';

/** Each outcome's page: its status, and whether it offers the forgotten-password way to confirm instead. */
const PAGES: Record<VerificationOutcome, { status: number; heading: string; offerReset: boolean }> = {
  verified: { status: 200, heading: 'verifiedHeading', offerReset: false },
  alreadyVerified: { status: 200, heading: 'verifiedHeading', offerReset: false },
  invalid: { status: 400, heading: 'failedHeading', offerReset: true },
  expired: { status: 400, heading: 'failedHeading', offerReset: true },
  outdated: { status: 400, heading: 'failedHeading', offerReset: false },
};

/** The outcomes whose page is a 400: JSON gets them as `token_<outcome>`. */
type RefusedOutcome = Exclude<VerificationOutcome, 'verified' | 'alreadyVerified'>;

const VERIFY_PATH = '/shop/customer/verify-email';
const tokenText = (token: unknown) => (typeof token === 'string' ? token : '');

/**
 * The link in the address-confirmation e-mail. Opening it (GET) changes nothing: mail scanners open links too.
 * It shows a "Confirm my e-mail address" button, or why the link does not work; the button's POST confirms.
 * Pages are in the page language.
 */
@ApiTags('customer')
@RequiresFeature('customerAccountsEnabled')
@Controller('shop/customer')
export class EmailVerificationController {
  constructor(private readonly verifications: EmailVerificationService) {}

  @Get('verify-email')
  @Header('Cache-Control', 'no-store')
  @ApiOkResponse({ description: 'An HTML page: the button that confirms (200), or why the link does not work' })
  async confirmPage(@Query('token') token: unknown, @PageText() text: PageTextFn): Promise<PageView> {
    const value = tokenText(token);
    const state = await this.verifications.check(value);
    if (state !== 'confirmable') return outcomePage(text, state);
    return linkConfirmPage(text, { keys: 'customer.verifyEmail', action: VERIFY_PATH, fields: { token: value } });
  }

  /**
   * `{ token }`: confirms the address. A form gets the outcome's page; JSON `{ success, outcome, message }`, or
   * a 400 `token_invalid` / `token_expired` / `token_outdated`.
   */
  @Post('verify-email')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  async verify(@Body('token') token: unknown, @Req() req: Request, @PageText() text: PageTextFn) {
    const outcome = await this.verifications.verify(tokenText(token));
    if (wantsHtml(req)) return outcomePage(text, outcome);
    const message = apiText({ key: `customer.verifyEmail.${outcome}` });
    if (PAGES[outcome].status !== 200) {
      throw customerErrors[`token_${outcome as RefusedOutcome}`]({ explanation: message });
    }
    return { success: true, outcome, message };
  }
}

function outcomePage(text: PageTextFn, outcome: VerificationOutcome): PageView {
  const page = PAGES[outcome];
  const heading = text(`customer.verifyEmail.${page.heading}`);
  return new PageView(
    'shop/customer/email-verification',
    { title: heading, heading, message: text(`customer.verifyEmail.${outcome}`), offerReset: page.offerReset },
    { status: page.status },
  );
}
