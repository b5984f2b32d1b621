import { Body, Controller, Get, Post, Query, Req, Res } from '@nestjs/common';
import { SocialProviders } from '../social/social-providers';
import { PROVIDER_LABELS } from '../social/social.settings';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { RequiresFeature } from '../../../common/decorators/requires-feature.decorator';
import { AppError } from '../../../common/errors/app-error';
import { addFlash } from '../../../common/session-data';
import { SettingsService } from '../../../config/settings.service';
import { pageLanguage, t } from '../../../web/i18n/page-language';
import { formMessage, validateForm } from './auth-forms';
import { LoginDto, RegisterDto } from './customer-auth.dto';
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
  loginPage(@Query('return') returnTo: unknown, @Res() res: Response): void {
    const returnPath = sameSitePath(returnTo, '');
    const social = this.socialProviders.configured().map((provider) => ({
      provider,
      label: PROVIDER_LABELS[provider],
      href: `/shop/auth/social/${provider}${returnPath ? `?return=${encodeURIComponent(returnPath)}` : ''}`,
    }));
    res.render('shop/customer/login', { title: t(res, 'customer.login.title'), csrf: true, returnPath, social });
  }

  @Post(['login', 'authorize'])
  async authorize(@Body() form: Record<string, unknown>, @Req() req: Request, @Res() res: Response): Promise<void> {
    const returnPath = sameSitePath(form.return, '');
    try {
      const body = await validateForm(LoginDto, form, pageLanguage(res));
      const customer = await this.login.logIn(req, body.rememberMe === true);
      addFlash(req, 'success', t(res, 'customer.login.welcomeBack', { name: customer.firstName }));
      res.redirect(303, returnPath || ACCOUNT_PAGE);
    } catch (error) {
      const page = returnPath ? `/shop/login?return=${encodeURIComponent(returnPath)}` : '/shop/login';
      backToForm(req, res, error, page);
    }
  }

  @Get('register')
  registerPage(@Res() res: Response): void {
    res.render('shop/customer/register', { title: t(res, 'customer.register.title'), csrf: true });
  }

  @Post('create-account')
  async createAccount(@Body() form: Record<string, unknown>, @Req() req: Request, @Res() res: Response): Promise<void> {
    try {
      const customer = await this.login.registerAndLogIn(req, await validateForm(RegisterDto, form, pageLanguage(res)));
      addFlash(req, 'success', t(res, 'customer.register.welcome', { name: customer.firstName }));
      addFlash(req, 'info', t(res, 'customer.register.confirmSent', { email: customer.email }));
      res.redirect(303, ACCOUNT_PAGE);
    } catch (error) {
      backToForm(req, res, error, '/shop/register');
    }
  }

  @Post('logout')
  logout(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.logOut(req, res);
  }

  /** Logout by link, as the spec allows GET too. */
  @Get('logout')
  logoutLink(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.logOut(req, res);
  }

  private async logOut(req: Request, res: Response): Promise<void> {
    await destroySession(req);
    addFlash(req, 'info', t(res, 'customer.login.loggedOut'));
    res.redirect(303, sameSitePath(this.settings.get<string>('customerLogoutRedirect'), '/'));
  }
}

/** A refused form goes back to its page with the reason; anything unexpected goes on to the error handler. */
function backToForm(req: Request, res: Response, error: unknown, page: string): void {
  if (!(error instanceof AppError)) throw error;
  addFlash(req, 'error', formMessage(error, pageLanguage(res)));
  res.redirect(303, page);
}
