import { Body, Get, Post } from '@nestjs/common';
import type { Request } from 'express';
import { BrowserTarget, FormAnswer, PageView } from '../../web/answers/answers';
import { RefusedGoesTo } from '../../web/answers/refused-form.decorator';
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

/**
 * Where a refused form goes: the panel, its post's own route (`/<cp>/<handle>/license/activate`) less the action; the
 * handle differs per plugin, so no CP-relative path can say it.
 */
const panelOfPost = (req: Request) => String(req.route.path).replace(/\/[^/]+$/, '');

const STATUS_LABELS: Record<LicenseStatus, string> = {
  none: 'No license',
  active: 'Active',
  expired: 'Expired',
  invalid: 'Invalid',
  revoked: 'Revoked',
};

/**
 * A plugin's license panel (activate, redeem, revoke, copy the token). Each plugin's
 * CP extends it with its `<handle>/license` route, its `accessPlugin-<handle>` permission (`@CpPermission`)
 * and `plugin`. Form posts answer with a flash on the panel (scripts too, unless refused).
 */
export abstract class LicenseCpController {
  protected abstract readonly plugin: LicensedPlugin;

  constructor(
    private readonly licenses: LicenseService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get()
  async panel(): Promise<PageView> {
    const state = await this.licenses.state(this.plugin.handle);
    const kept = state.license !== null && state.status !== 'revoked';
    return new PageView('cp/license', {
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
  @RefusedGoesTo(panelOfPost)
  async activate(@Body() form: LicenseForm): Promise<FormAnswer> {
    const claims = await this.licenses.activate(this.plugin.handle, field(form, 'token'));
    return FormAnswer.note(
      'success',
      `License ${claims.licenseId} activated for ${claims.licensee}.`,
      this.panelPage(),
    );
  }

  @Post('redeem')
  @RefusedGoesTo(panelOfPost)
  async redeem(@Body() form: LicenseForm): Promise<FormAnswer> {
    const claims = await this.licenses.redeem(this.plugin.handle, field(form, 'code'));
    const message = `Purchase code redeemed: license ${claims.licenseId} activated for ${claims.licensee}.`;
    return FormAnswer.note('success', message, this.panelPage());
  }

  @Post('revoke')
  @RefusedGoesTo(panelOfPost)
  async revoke(@Body() form: LicenseForm): Promise<FormAnswer> {
    if (field(form, 'confirm') !== 'yes') throw new LicenseRefused('Tick the box to confirm the revocation.');
    await this.licenses.revoke(this.plugin.handle);
    return FormAnswer.note('success', 'License revoked.', this.panelPage());
  }

  private panelPage(): BrowserTarget {
    return { to: `/${this.config.cpTrigger}/${this.plugin.handle}/license` };
  }
}

function field(form: LicenseForm, name: string): string {
  const value = form[name];
  return typeof value === 'string' ? value : '';
}
