import { Body, Controller, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { answerCpPost, AppConfig, CpPermission, InjectConfig } from '../../../plugin-api';
import { PayPlusClient } from '../pay-plus/pay-plus.client';
import { BankpayCpService } from './bankpay-cp.service';

/** Loan amounts the Pricing section previews when none is asked for (EUR). */
const PREVIEW_LOAN_AMOUNT = 500;

/** The gateway's CP pages (spec "Control-panel routes"), all behind `accessPlugin-bankpay`. */
@ApiExcludeController()
@CpPermission('accessPlugin-bankpay')
@Controller('bankpay')
export class BankpayCpController {
  constructor(
    private readonly cp: BankpayCpService,
    private readonly payPlus: PayPlusClient,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get()
  landing(@Res() res: Response): void {
    res.redirect(302, `/${this.config.cpTrigger}/bankpay/dashboard`);
  }

  @Get('dashboard')
  async dashboard(@Res() res: Response): Promise<void> {
    res.render('cp/bankpay-dashboard', { layout: 'cp', title: 'Bank payments', ...(await this.cp.dashboard()) });
  }

  @Get('settings')
  settingsLanding(@Res() res: Response): void {
    res.redirect(302, `/${this.config.cpTrigger}/bankpay/settings/general`);
  }

  /** Requests a token with the stored credentials (spec: bankpay/settings/test → flash). */
  @Post('settings/test')
  test(@Req() req: Request, @Res() res: Response): Promise<void> {
    return answerCpPost(req, res, {
      page: `/${this.config.cpTrigger}/bankpay/settings/credentials`,
      action: async () =>
        (await this.payPlus.getAccessToken('BANKPAYPLUS'))
          ? { message: 'The bank accepted the credentials.' }
          : {
              success: false,
              message: 'The bank did not issue a token: check the API key, client secret and base URL.',
            },
    });
  }

  /** The one save action shared by every section; the form says which section it is. */
  @Post('settings/save')
  save(@Body() body: Record<string, unknown>, @Req() req: Request, @Res() res: Response): Promise<void> {
    const section = this.cp.section(String(body.section ?? ''));
    return answerCpPost(req, res, {
      page: `/${this.config.cpTrigger}/bankpay/settings/${section.handle}`,
      action: async () => {
        await this.cp.save(section, body);
        return { message: `${section.title} settings saved.` };
      },
    });
  }

  @Get('settings/:section')
  async settings(
    @Param('section') handle: string,
    @Query('amount') amount: unknown,
    @Res() res: Response,
  ): Promise<void> {
    const section = this.cp.section(handle);
    const loanAmount = previewAmount(amount);
    const loanOffers = section.handle === 'pricing' ? await this.payPlus.getLoanPrecalculation(loanAmount) : [];
    res.render('cp/bankpay-settings', {
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
}

/** The `amount` to preview: a positive number of EUR, else (blank, garbage, repeated) the default. */
function previewAmount(raw: unknown): number {
  const amount = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  return Number.isFinite(amount) && amount > 0 ? amount : PREVIEW_LOAN_AMOUNT;
}
