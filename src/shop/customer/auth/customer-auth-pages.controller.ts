import { Body, Controller, Get, Post, Query, Req } from '@nestjs/common';
import { SocialProviders } from '../social/social-providers';
import { PROVIDER_LABELS } from '../../../commerce/customers/social-identity';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { RequiresFeature } from '../../../common/decorators/requires-feature.decorator';
import { AppError } from '../../../common/errors/app-error';
import { SettingsService } from '../../../config/settings.service';
import { FormAnswer, PageView, Redirect } from '../../../web/answers/answers';
import { PageLanguage, PageText, PageTextFn } from '../../../web/i18n/page-text.decorator';
import { formMessage, validateForm } from './auth-forms';
import { LoginDto, newCustomer, RegisterDto } from './customer-auth.dto';
import { consentWording } from '../../../web/i18n/consent-wording';
import { CustomerLoginService } from './customer-login.service';
import { destroySession } from './customer-session';
import { sameSitePath } from '../../../common/back-url';

const ACCOUNT_PAGE = '/shop/account';

/**
 * The login and registration pages, their browser form posts (303 with a flash: onwards on success, back
 * to the form on failure), and logout. Form bodies are validated in the handlers for that reason.
 */
@ApiExcludeController()
@RequiresFeature('customerAccountsEnabled')
@Controller('shop')
export class CustomerAuthPagesController {
  constructor(
    private readonly login: CustomerLoginService,
    private readonly settings: SettingsService,
    private readonly socialProviders: SocialProviders,
  ) {}

  /** `return`: where to go after logging in; only a path on this site is kept. */
  @Get('login')
  loginPage(@Query('return') returnTo: unknown, @PageText() text: PageTextFn): PageView {
    const returnPath = sameSitePath(returnTo, '');
    const social = this.socialProviders.configured().map((provider) => ({
      provider,
      label: PROVIDER_LABELS[provider],
      href: `/shop/auth/social/${provider}${returnPath ? `?return=${encodeURIComponent(returnPath)}` : ''}`,
    }));
    return new PageView('shop/customer/login', { title: text('customer.login.title'), csrf: true, returnPath, social });
  }

  @Post(['login', 'authorize'])
  async authorize(
    @Body() form: Record<string, unknown>,
    @Req() req: Request,
    @PageText() text: PageTextFn,
    @PageLanguage() language: string,
  ): Promise<FormAnswer> {
    const returnPath = sameSitePath(form.return, '');
    try {
      const body = await validateForm(LoginDto, form, language);
      const customer = await this.login.logIn(req, body.rememberMe === true);
      return new FormAnswer(text('customer.login.welcomeBack', { name: customer.firstName }), {
        to: returnPath || ACCOUNT_PAGE,
      });
    } catch (error) {
      const page = returnPath ? `/shop/login?return=${encodeURIComponent(returnPath)}` : '/shop/login';
      return backToForm(error, page, language);
    }
  }

  @Get('register')
  registerPage(@PageText() text: PageTextFn): PageView {
    return new PageView('shop/customer/register', { title: text('customer.register.title'), csrf: true });
  }

  @Post('create-account')
  async createAccount(
    @Body() form: Record<string, unknown>,
    @Req() req: Request,
    @PageText() text: PageTextFn,
    @PageLanguage() language: string,
  ): Promise<FormAnswer | Redirect> {
    try {
      const account = await validateForm(RegisterDto, form, language);
      const customer = await this.login.registerAndLogIn(req, newCustomer(account, consentWording(text, 'marketing')));
      return new Redirect(ACCOUNT_PAGE, 303, [
        { type: 'success', message: text('customer.register.welcome', { name: customer.firstName }) },
        { type: 'info', message: text('customer.register.confirmSent', { email: customer.email }) },
      ]);
    } catch (error) {
      return backToForm(error, '/shop/register', language);
    }
  }

  @Post('logout')
  logout(@Req() req: Request, @PageText() text: PageTextFn): Promise<FormAnswer> {
    return this.logOut(req, text);
  }

  /** Logout by link: a GET logs out too. */
  @Get('logout')
  logoutLink(@Req() req: Request, @PageText() text: PageTextFn): Promise<FormAnswer> {
    return this.logOut(req, text);
  }

  private async logOut(req: Request, text: PageTextFn): Promise<FormAnswer> {
    await destroySession(req);
    const next = sameSitePath(this.settings.get('customerLogoutRedirect'), '/');
    return FormAnswer.note('info', text('customer.login.loggedOut'), { to: next });
  }
}

/** A refused form goes back to its page with the reason; anything unexpected goes on to the error handler. */
function backToForm(error: unknown, page: string, language: string): FormAnswer {
  if (!(error instanceof AppError)) throw error;
  return FormAnswer.note('error', formMessage(error, language), { to: page });
}
