import { Body, Controller, Get, HttpCode, Post, Query, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import { PasswordReset } from '../../../commerce/customers/password-reset.entity';
import { RequiresFeature } from '../../../common/decorators/requires-feature.decorator';
import { AppError } from '../../../common/errors/app-error';
import { ShopThrottlerGuard } from '../../../common/throttling/throttling.module';
import { FormAnswer, PageView, Redirect } from '../../../web/answers/answers';
import { PageText, PageTextFn } from '../../../web/i18n/page-text.decorator';
import { MIN_PASSWORD_LENGTH } from '../../../commerce/customers/password-policy';
import { changeDone } from '../translated-answers';
import { NewPasswordDto, ResetRequestDto, ResetTokenDto, VerifyOtpDto } from './password-reset.dto';
import { OTP_TTL_MS, PasswordResetService } from '../../../commerce/customers/password-reset.service';

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
  forgottenPage(@PageText() text: PageTextFn): PageView {
    return new PageView('shop/customer/password-forgotten', { title: text('customer.forgotten.title'), csrf: true });
  }

  /** The JSON and the form variant of one request; the answer never says whether the address has an account. */
  @Post(['forgotten-password', 'request-new-password'])
  @HttpCode(200)
  @UseGuards(ShopThrottlerGuard)
  @Throttle({ default: { limit: RESET_REQUEST_LIMIT, ttl: 10 * 60_000 } })
  async request(@Body() body: ResetRequestDto): Promise<FormAnswer> {
    await this.resets.request(body.email);
    return changeDone({ key: 'customer.forgotten.sent', params: { email: body.email } }, { to: FORGOTTEN_PAGE });
  }

  @Get('verify-otp')
  async verifyPage(@Query('token') token: string, @PageText() text: PageTextFn): Promise<PageView | Redirect> {
    const reset = await this.openForPage(token, text);
    if (reset instanceof PageView) return reset;
    if (reset.verifiedAt) return new Redirect(newPasswordPage(token), 302);
    return new PageView('shop/customer/verify-otp', {
      title: text('customer.otp.title'),
      token,
      codeMinutes: OTP_TTL_MS / 60_000,
      csrf: true,
    });
  }

  @Post('verify-otp-post')
  @HttpCode(200)
  @UseGuards(ShopThrottlerGuard)
  @Throttle({ default: { limit: RESET_STEP_LIMIT, ttl: 60_000 } })
  async verify(@Body() body: VerifyOtpDto): Promise<FormAnswer> {
    await this.resets.verify(body.token, body.code);
    const next = newPasswordPage(body.token);
    return changeDone({ key: 'customer.otp.confirmed' }, { to: next }, { redirect: next });
  }

  @Post('resend-otp')
  @HttpCode(200)
  @UseGuards(ShopThrottlerGuard)
  @Throttle({ default: { limit: RESET_STEP_LIMIT, ttl: 60_000 } })
  async resend(@Body() body: ResetTokenDto): Promise<FormAnswer> {
    await this.resets.resend(body.token);
    return changeDone({ key: 'customer.otp.resent' }, { to: verifyPage(body.token) });
  }

  /** The new-password form, once the code from the e-mail was confirmed. */
  @Get('create-new-password')
  async newPasswordForm(@Query('token') token: string, @PageText() text: PageTextFn): Promise<PageView | Redirect> {
    const reset = await this.openForPage(token, text);
    if (reset instanceof PageView) return reset;
    if (!reset.verifiedAt) return new Redirect(verifyPage(token), 302);
    return new PageView('shop/customer/password-create', {
      title: text('customer.newPassword.title'),
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
  async create(@Body() body: NewPasswordDto): Promise<FormAnswer> {
    await this.resets.complete(body.token, body.password);
    return changeDone({ key: 'customer.newPassword.changed' }, { to: '/shop/login' }, { redirect: '/shop/login' });
  }

  /** The reset behind a page's link, or the page that says why the link no longer works (400). */
  private async openForPage(token: unknown, text: PageTextFn): Promise<PasswordReset | PageView> {
    try {
      return await this.resets.open(typeof token === 'string' ? token : '');
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return new PageView(
        'shop/customer/password-link-invalid',
        { title: text('customer.linkInvalid.title'), message: error.message },
        { status: error.status },
      );
    }
  }
}
