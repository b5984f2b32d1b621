import { Body, Controller, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { CpPasswordLinks } from '../../commerce/staff/cp-password-links.service';
import { MIN_STAFF_PASSWORD_LENGTH } from '../../commerce/staff/staff-credentials';
import { CpPublic } from '../../common/decorators/cp-permission.decorator';
import { AppError } from '../../common/errors/app-error';
import { rotateSession } from '../../common/session-data';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { FormAnswer, PageView } from '../../web/answers/answers';
import { CpSetPasswordDto } from './cp-staff-forms';

/** Where an invited user, or one whose password an admin reset, chooses a password from the e-mailed link. */
@ApiExcludeController()
@CpPublic()
@Controller('set-password')
export class CpSetPasswordController {
  constructor(
    private readonly links: CpPasswordLinks,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /** A dead link (unknown, used, expired) is a 400 page saying so. */
  @Get(':token')
  async form(@Param('token') token: string): Promise<PageView> {
    const { user, purpose } = await this.links.open(token);
    return new PageView('cp/set-password', {
      layout: 'cp',
      bare: true,
      title: 'Choose your password',
      email: user.email,
      name: user.name,
      invite: purpose === 'invite',
      token,
      minLength: MIN_STAFF_PASSWORD_LENGTH,
    });
  }

  /** The password set, the browser is logged in with it (a new session id) and goes to the dashboard. */
  @Post(':token')
  @HttpCode(200)
  async submit(
    @Param('token') token: string,
    @Body() body: CpSetPasswordDto,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    if (body.password !== body.passwordConfirmation) {
      throw AppError.invalid({ passwordConfirmation: ['must repeat the password'] }, 'The two passwords differ.');
    }
    const login = await this.links.setPassword(token, body.password);
    await rotateSession(req);
    req.session.cpLogin = login;
    return FormAnswer.done('Your password is set. Welcome to the control panel.', { to: `/${this.config.cpTrigger}` });
  }
}
