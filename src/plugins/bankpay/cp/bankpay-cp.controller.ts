import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import {
  AppConfig,
  AppError,
  BrowserTarget,
  CpPermission,
  FormAnswer,
  InjectConfig,
  PageView,
  Redirect,
  RefusedGoesTo,
  wantsHtml,
} from '../../../plugin-api';
import { PayPlusClient } from '../pay-plus/pay-plus.client';
import { BankpayCpService } from './bankpay-cp.service';

/** Loan amounts the Pricing section previews when none is asked for (EUR). */
const PREVIEW_LOAN_AMOUNT = 500;

/**
 * The gateway's settings pages, in sections, behind `accessPlugin-bankpay`. (Its dashboard is declared in
 * `BankpayPlugin` and served by the core.)
 */
@ApiExcludeController()
@CpPermission('accessPlugin-bankpay')
@Controller('bankpay')
export class BankpayCpController {
  constructor(
    private readonly cp: BankpayCpService,
    private readonly payPlus: PayPlusClient,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get('settings')
  settingsLanding(): Redirect {
    return new Redirect(`/${this.config.cpTrigger}/bankpay/settings/general`, 302);
  }

  /** Requests a token with the stored credentials, and says in a flash how it went. */
  @Post('settings/test')
  @HttpCode(200)
  @RefusedGoesTo('bankpay/settings/credentials')
  async test(): Promise<FormAnswer> {
    const page = this.settingsPage('credentials');
    if (await this.payPlus.getAccessToken('BANKPAYPLUS')) {
      return FormAnswer.done('The bank accepted the credentials.', page);
    }
    const refusal = 'The bank did not issue a token: check the API key, client secret and base URL.';
    // Not an error of the request: a script gets it as `success: false`, a browser as an error flash.
    return new FormAnswer(refusal, page, () => ({ success: false, message: refusal }), 'error');
  }

  /**
   * The one save action shared by every section; the form says which section it is. A refused save goes back to
   * its section with the error as a flash; an unknown section is a 404 page (hence no `@RefusedGoesTo`, which would
   * flash it too).
   */
  @Post('settings/save')
  @HttpCode(200)
  async save(@Body() body: Record<string, unknown>, @Req() req: Request): Promise<FormAnswer> {
    const section = this.cp.section(String(body.section ?? ''));
    const page = this.settingsPage(section.handle);
    try {
      await this.cp.save(section, body, `cp:${req.cpStaff!.email}`);
    } catch (error) {
      if (!(error instanceof AppError) || !wantsHtml(req)) throw error;
      return FormAnswer.note('error', error.message, page);
    }
    return FormAnswer.done(`${section.title} settings saved.`, page);
  }

  @Get('settings/:section')
  async settings(@Param('section') handle: string, @Query('amount') amount: unknown): Promise<PageView> {
    const section = this.cp.section(handle);
    const loanAmount = previewAmount(amount);
    const loanOffers = section.handle === 'pricing' ? await this.payPlus.getLoanPrecalculation(loanAmount) : [];
    return new PageView('cp/bankpay-settings', {
      layout: 'cp',
      title: `Bank payments · ${section.title}`,
      ...this.cp.form(section),
      pricing: section.handle === 'pricing',
      testCards: section.handle === 'test-cards',
      credentials: section.handle === 'credentials',
      loanAmount,
      loanOffers,
    });
  }

  private settingsPage(handle: string): BrowserTarget {
    return { to: `/${this.config.cpTrigger}/bankpay/settings/${handle}` };
  }
}

/** The `amount` to preview: a positive number of EUR, else (blank, garbage, repeated) the default. */
function previewAmount(raw: unknown): number {
  const amount = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  return Number.isFinite(amount) && amount > 0 ? amount : PREVIEW_LOAN_AMOUNT;
}
