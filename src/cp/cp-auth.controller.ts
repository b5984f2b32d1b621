import { Body, Controller, Get, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { sameSitePath } from '../common/back-url';
import { addFlash, rotateSession } from '../common/session-data';
import { AppConfig } from '../config/app-config';
import { InjectConfig } from '../config/config.module';
import { CpLoginDto } from './cp-login.dto';
import { CpUsersService } from './cp-users.service';

@ApiExcludeController()
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

  @Post('login')
  async login(@Body() body: CpLoginDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    const user = await this.users.authenticate(body.email, body.password);
    if (!user) {
      addFlash(req, 'error', 'Wrong e-mail or password.');
      return res.redirect(303, `/${this.config.cpTrigger}/login?next=${encodeURIComponent(this.safeNext(body.next))}`);
    }
    await rotateSession(req);
    req.session.cpUser = user;
    res.redirect(303, this.safeNext(body.next));
  }

  @Post('logout')
  logout(@Req() req: Request, @Res() res: Response): void {
    delete req.session.cpUser;
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
