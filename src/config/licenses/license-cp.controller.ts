import { Body, Controller, Get, Param, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { CpPluginPermission } from '../../common/decorators/cp-permission.decorator';
import { BrowserTarget, FormAnswer, PageView } from '../../web/answers/answers';
import { RefusedGoesTo } from '../../web/answers/refused-form.decorator';
import { AppConfig } from '../app-config';
import { InjectConfig } from '../config.module';
import { panelPageModel, PluginPanels, PluginWith } from '../plugin-panels/plugin-panels';
import { LicenseRefused } from './license.errors';
import { LicenseService, LicenseStatus } from './license.service';

type LicenseForm = Record<string, unknown>;

const STATUS_LABELS: Record<LicenseStatus, string> = {
  none: 'No license',
  active: 'Active',
  expired: 'Expired',
  invalid: 'Invalid',
  revoked: 'Revoked',
};

/**
 * A plugin's license panel (activate, redeem, revoke, copy the token), served for every plugin that declares one
 * (`StorefrontPlugin.cp.license`), behind its `accessPlugin-<handle>`. The handle is the license's `plugin` claim. Form
 * posts answer with a flash on the panel (scripts too, unless refused).
 */
@ApiExcludeController()
@CpPluginPermission()
@Controller(':handle/license')
export class LicenseCpController {
  constructor(
    private readonly panels: PluginPanels,
    private readonly licenses: LicenseService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get()
  async panel(@Param('handle') handle: string): Promise<PageView> {
    const plugin = this.panels.declaring(handle, 'license');
    const state = await this.licenses.state(plugin.handle);
    const kept = state.license !== null && state.status !== 'revoked';
    return new PageView('cp/license', {
      ...panelPageModel(plugin, `${plugin.name} · License`),
      ...state,
      statusLabel: STATUS_LABELS[state.status],
      // Copied to move the license or to show support; a revoked license is not offered for copying.
      token: kept ? state.license?.token : null,
      revocable: kept,
    });
  }

  @Post('activate')
  @RefusedGoesTo(':handle/license')
  async activate(@Param('handle') handle: string, @Body() form: LicenseForm): Promise<FormAnswer> {
    const plugin = this.panels.declaring(handle, 'license');
    const claims = await this.licenses.activate(plugin.handle, field(form, 'token'));
    const message = `License ${claims.licenseId} activated for ${claims.licensee}.`;
    return FormAnswer.note('success', message, this.panelPage(plugin));
  }

  @Post('redeem')
  @RefusedGoesTo(':handle/license')
  async redeem(@Param('handle') handle: string, @Body() form: LicenseForm): Promise<FormAnswer> {
    const plugin = this.panels.declaring(handle, 'license');
    const claims = await this.licenses.redeem(plugin.handle, field(form, 'code'));
    const message = `Purchase code redeemed: license ${claims.licenseId} activated for ${claims.licensee}.`;
    return FormAnswer.note('success', message, this.panelPage(plugin));
  }

  @Post('revoke')
  @RefusedGoesTo(':handle/license')
  async revoke(@Param('handle') handle: string, @Body() form: LicenseForm): Promise<FormAnswer> {
    const plugin = this.panels.declaring(handle, 'license');
    if (field(form, 'confirm') !== 'yes') throw new LicenseRefused('Tick the box to confirm the revocation.');
    await this.licenses.revoke(plugin.handle);
    return FormAnswer.note('success', 'License revoked.', this.panelPage(plugin));
  }

  private panelPage(plugin: PluginWith<'license'>): BrowserTarget {
    return { to: `/${this.config.cpTrigger}/${plugin.handle}/license` };
  }
}

function field(form: LicenseForm, name: string): string {
  const value = form[name];
  return typeof value === 'string' ? value : '';
}
