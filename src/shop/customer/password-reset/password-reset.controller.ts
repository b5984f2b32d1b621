import { Body, Controller, Get, HttpCode, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { PasswordReset } from '../../../commerce/customers/password-reset.entity';
import { RequiresFeature } from '../../../common/decorators/requires-feature.decorator';
import { AppError } from '../../../common/errors/app-error';
import { ShopThrottlerGuard } from '../../../common/throttling/throttling.module';
import { t } from '../../../web/i18n/page-language';
import { MIN_PASSWORD_LENGTH } from '../auth/password-policy';
import { answerDone } from '../form-answer';
import { NewPasswordDto, ResetRequestDto, ResetTokenDto, VerifyOtpDto } from './password-reset.dto';
import { OTP_TTL_MS, PasswordResetService } from './password-reset.service';

/** Reset requests per IP address in 10 minutes: enough for typos, too few to mail-bomb through us. */
export const RESET_REQUEST_LIMIT = 10;
/** Code, resend and new-password submits per IP address and minute; each link also limits its own codes. */
export const RESET_STEP_LIMIT = 30;

const FORGOTTEN_PAGE = '/shop/forgotten-password';
const verifyPage = (token: string) => `/shop/verify-otp?token=${token}`;
const newPasswordPage = (token: string) => `/shop/create-new-password?token=${token}`;

/**
 * Forgotten password (docs/shop.md): request → e-mailed link and code →
 * `verify-otp` → `create-new-password`. Every POST answers JSON, or a flash and a redirect for a form.
 */
@ApiTags('customer')
@RequiresFeature('customerAccountsEnabled')
@Controller('shop')
export class PasswordResetController {
  constructor(private readonly resets: PasswordResetService) {}

  @Get('forgotten-password')
  forgottenPage(@Res() res: Response): void {
    res.render('shop/customer/password-forgotten', { title: t(res, 'customer.forgotten.title'), csrf: true });
  }

  /** The JSON and the form variant of one request; the answer never says whether the address has an account. */
  @Post(['forgotten-password', 'request-new-password'])
  @HttpCode(200)
  @UseGuards(ShopThrottlerGuard)
  @Throttle({ default: { limit: RESET_REQUEST_LIMIT, ttl: 10 * 60_000 } })
  async request(@Body() body: ResetRequestDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    await this.resets.request(body.email);
    answerDone(req, res, { key: 'customer.forgotten.sent', params: { email: body.email } }, FORGOTTEN_PAGE);
  }

  @Get('verify-otp')
  async verifyPage(@Query('token') token: string, @Res() res: Response): Promise<void> {
    const reset = await this.openForPage(token, res);
    if (!reset) return;
    if (reset.verifiedAt) return res.redirect(302, newPasswordPage(token));
    res.render('shop/customer/verify-otp', {
      title: t(res, 'customer.otp.title'),
      token,
      codeMinutes: OTP_TTL_MS / 60_000,
      csrf: true,
    });
  }

  @Post('verify-otp-post')
  @HttpCode(200)
  @UseGuards(ShopThrottlerGuard)
  @Throttle({ default: { limit: RESET_STEP_LIMIT, ttl: 60_000 } })
  async verify(@Body() body: VerifyOtpDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    await this.resets.verify(body.token, body.code);
    const next = newPasswordPage(body.token);
    answerDone(req, res, { key: 'customer.otp.confirmed' }, next, { redirect: next });
  }

  @Post('resend-otp')
  @HttpCode(200)
  @UseGuards(ShopThrottlerGuard)
  @Throttle({ default: { limit: RESET_STEP_LIMIT, ttl: 60_000 } })
  async resend(@Body() body: ResetTokenDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    await this.resets.resend(body.token);
    answerDone(req, res, { key: 'customer.otp.resent' }, verifyPage(body.token));
  }

  /** The new-password form, once the code from the e-mail was confirmed. */
  @Get('create-new-password')
  async newPasswordForm(@Query('token') token: string, @Res() res: Response): Promise<void> {
    const reset = await this.openForPage(token, res);
    if (!reset) return;
    if (!reset.verifiedAt) return res.redirect(302, verifyPage(token));
    res.render('shop/customer/password-create', {
      title: t(res, 'customer.newPassword.title'),
      token,
      minLength: MIN_PASSWORD_LENGTH,
      csrf: true,
    });
  }

  /** Sets the password and sends the browser to the login: signing in stays in one place (and its events). */
  @Post('create-new-password-post')
  @HttpCode(200)
  @UseGuards(ShopThrottlerGuard)
  @Throttle({ default: { limit: RESET_STEP_LIMIT, ttl: 60_000 } })
  async create(@Body() body: NewPasswordDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    await this.resets.complete(body.token, body.password);
    answerDone(req, res, { key: 'customer.newPassword.changed' }, '/shop/login', { redirect: '/shop/login' });
  }

  /** The reset behind a page's link, or null after rendering why the link no longer works (400). */
  private async openForPage(token: unknown, res: Response): Promise<PasswordReset | null> {
    try {
      return await this.resets.open(typeof token === 'string' ? token : '');
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      res.status(error.status).render('shop/customer/password-link-invalid', {
        title: t(res, 'customer.linkInvalid.title'),
        message: error.message,
      });
      return null;
    }
  }
}
