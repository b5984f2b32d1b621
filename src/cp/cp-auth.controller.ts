import { Body, Controller, Get, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { sameSitePath } from '../common/back-url';
import { CpPublic } from '../common/decorators/cp-permission.decorator';
import { AppError } from '../common/errors/app-error';
import { addFlash, CpLogin, rotateSession, wantsHtml } from '../common/session-data';
import { AppConfig } from '../config/app-config';
import { InjectConfig } from '../config/config.module';
import { CpLoginDto } from './cp-login.dto';
import { CpUsersService } from './cp-users.service';

@ApiExcludeController()
@CpPublic()
@Controller()
export class CpAuthController {
  constructor(
    private readonly users: CpUsersService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get('login')
  loginPage(@Query('next') next: string | undefined, @Res() res: Response): void {
    res.render('cp/login', { layout: 'cp', title: 'Log in', next: this.safeNext(next), bare: true });
  }

  /**
   * A refused login goes back to the form with the reason (a browser), or answers 401 `invalid_credentials`
   * or, when throttled, 429 with Retry-After (a script).
   */
  @Post('login')
  async login(@Body() body: CpLoginDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    let login: CpLogin;
    try {
      login = await this.users.authenticate(body.email, body.password, req.ip);
    } catch (error) {
      if (!(error instanceof AppError) || !wantsHtml(req)) throw error;
      addFlash(req, 'error', error.message);
      return res.redirect(303, `/${this.config.cpTrigger}/login?next=${encodeURIComponent(this.safeNext(body.next))}`);
    }
    await rotateSession(req);
    req.session.cpLogin = login;
    res.redirect(303, this.safeNext(body.next));
  }

  @Post('logout')
  logout(@Req() req: Request, @Res() res: Response): void {
    delete req.session.cpLogin;
    addFlash(req, 'info', 'You are logged out.');
    res.redirect(303, `/${this.config.cpTrigger}/login`);
  }

  /** Only a path inside the CP, so the login form cannot be used to bounce users to another site. */
  private safeNext(next: string | undefined): string {
    const home = `/${this.config.cpTrigger}`;
    const path = sameSitePath(next, home);
    return path.startsWith(`${home}/`) ? path : home;
  }
}
