import { Body, Get, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppError } from '../../common/errors/app-error';
import { addFlash, wantsHtml } from '../../common/session-data';
import { AppConfig } from '../app-config';
import { InjectConfig } from '../config.module';
import { LicenseRefused } from './license.errors';
import { LicenseService, LicenseStatus } from './license.service';

/** The plugin a license panel belongs to. */
export interface LicensedPlugin {
  /** The plugin handle: the license's `plugin` claim and the panel's path, `<handle>/license`. */
  handle: string;
  name: string;
}

type LicenseForm = Record<string, unknown>;

const STATUS_LABELS: Record<LicenseStatus, string> = {
  none: 'No license',
  active: 'Active',
  expired: 'Expired',
  invalid: 'Invalid',
  revoked: 'Revoked',
};

/**
 * A plugin's license panel (spec "Control-panel routes": activate, redeem, revoke, copy token). Each plugin's
 * CP extends it with its `<handle>/license` route, its `accessPlugin-<handle>` permission (`@CpPermission`)
 * and `plugin`. Form posts answer with a flash on the panel.
 */
export abstract class LicenseCpController {
  protected abstract readonly plugin: LicensedPlugin;

  constructor(
    private readonly licenses: LicenseService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get()
  async panel(@Res() res: Response): Promise<void> {
    const state = await this.licenses.state(this.plugin.handle);
    const kept = state.license !== null && state.status !== 'revoked';
    res.render('cp/license', {
      layout: 'cp',
      title: `${this.plugin.name} · License`,
      plugin: this.plugin,
      ...state,
      statusLabel: STATUS_LABELS[state.status],
      // Copied to move the license or to show support; a revoked license is not offered for copying.
      token: kept ? state.license?.token : null,
      revocable: kept,
    });
  }

  @Post('activate')
  activate(@Body() form: LicenseForm, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.answer(req, res, async () => {
      const claims = await this.licenses.activate(this.plugin.handle, field(form, 'token'));
      return `License ${claims.licenseId} activated for ${claims.licensee}.`;
    });
  }

  @Post('redeem')
  redeem(@Body() form: LicenseForm, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.answer(req, res, async () => {
      const claims = await this.licenses.redeem(this.plugin.handle, field(form, 'code'));
      return `Purchase code redeemed: license ${claims.licenseId} activated for ${claims.licensee}.`;
    });
  }

  @Post('revoke')
  revoke(@Body() form: LicenseForm, @Req() req: Request, @Res() res: Response): Promise<void> {
    return this.answer(req, res, async () => {
      if (field(form, 'confirm') !== 'yes') throw new LicenseRefused('Tick the box to confirm the revocation.');
      await this.licenses.revoke(this.plugin.handle);
      return 'License revoked.';
    });
  }

  /** Runs a form's action and goes back to the panel with its outcome as a flash. */
  private async answer(req: Request, res: Response, action: () => Promise<string>): Promise<void> {
    try {
      addFlash(req, 'success', await action());
    } catch (error) {
      // Not left to the exception filter: it goes back by the Referer, which browsers may leave out.
      if (!(error instanceof AppError) || !wantsHtml(req)) throw error;
      addFlash(req, 'error', error.message);
    }
    res.redirect(303, `/${this.config.cpTrigger}/${this.plugin.handle}/license`);
  }
}

function field(form: LicenseForm, name: string): string {
  const value = form[name];
  return typeof value === 'string' ? value : '';
}
