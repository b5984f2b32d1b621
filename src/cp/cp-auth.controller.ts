import { Body, Controller, Get, Post, Query, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { sameSitePath } from '../common/back-url';
import { CpPublic } from '../common/decorators/cp-permission.decorator';
import { AppError } from '../common/errors/app-error';
import { CpLogin, rotateSession, wantsHtml } from '../common/session-data';
import { CpUsersService } from '../commerce/staff/cp-users.service';
import { AppConfig } from '../config/app-config';
import { InjectConfig } from '../config/config.module';
import { FormAnswer, PageView, Redirect } from '../web/answers/answers';
import { CpLoginDto } from './cp-login.dto';

@ApiExcludeController()
@CpPublic()
@Controller()
export class CpAuthController {
  constructor(
    private readonly users: CpUsersService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get('login')
  loginPage(@Query('next') next: string | undefined): PageView {
    return new PageView('cp/login', { layout: 'cp', title: 'Log in', next: this.safeNext(next), bare: true });
  }

  /**
   * A refused login goes back to the form with the reason (a browser), or answers 401 `invalid_credentials`
   * or, when throttled, 429 with Retry-After (a script).
   */
  @Post('login')
  async login(@Body() body: CpLoginDto, @Req() req: Request): Promise<FormAnswer | Redirect> {
    let login: CpLogin;
    try {
      login = await this.users.authenticate(body.email, body.password, req.ip);
    } catch (error) {
      if (!(error instanceof AppError) || !wantsHtml(req)) throw error;
      const form = `/${this.config.cpTrigger}/login?next=${encodeURIComponent(this.safeNext(body.next))}`;
      return FormAnswer.note('error', error.message, { to: form });
    }
    await rotateSession(req);
    req.session.cpLogin = login;
    return new Redirect(this.safeNext(body.next));
  }

  @Post('logout')
  logout(@Req() req: Request): FormAnswer {
    delete req.session.cpLogin;
    return FormAnswer.note('info', 'You are logged out.', { to: `/${this.config.cpTrigger}/login` });
  }

  /** Only a path inside the CP, so the login form cannot be used to bounce users to another site. */
  private safeNext(next: string | undefined): string {
    const home = `/${this.config.cpTrigger}`;
    const path = sameSitePath(next, home);
    return path.startsWith(`${home}/`) ? path : home;
  }
}
