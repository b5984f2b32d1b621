import { Body, Controller, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { CpPluginPermission } from '../../common/decorators/cp-permission.decorator';
import { AppError } from '../../common/errors/app-error';
import { wantsHtml } from '../../common/session-data';
import { FormAnswer, PageView, Redirect } from '../../web/answers/answers';
import { RefusedGoesTo } from '../../web/answers/refused-form.decorator';
import { AppConfig } from '../app-config';
import { InjectConfig } from '../config.module';
import { RefusedSubmission } from '../settings-form';
import { SettingsService } from '../settings.service';
import { PanelledPlugin, panelPageModel, PluginPanels, PluginWith } from './plugin-panels';

/**
 * A plugin's dashboard (with `dashboard/save-layout`) and settings section, served for every plugin that declares them
 * (`StorefrontPlugin.cp`), behind its `accessPlugin-<handle>`.
 */
@ApiExcludeController()
@CpPluginPermission()
@Controller(':handle')
export class PluginPanelsCpController {
  constructor(
    private readonly panels: PluginPanels,
    private readonly settings: SettingsService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get()
  landing(@Param('handle') handle: string): Redirect {
    return new Redirect(this.url(this.panels.declaring(handle, 'dashboard'), 'dashboard'), 302);
  }

  @Get('dashboard')
  async dashboard(@Param('handle') handle: string): Promise<PageView> {
    const plugin = this.panels.declaring(handle, 'dashboard');
    const { layout, view } = plugin.dashboard;
    return new PageView(view ?? 'cp/plugin-dashboard', {
      ...panelPageModel(plugin, plugin.name),
      ...(await plugin.dashboard.data()),
      ...(layout && { widgets: layout.current(this.settings) }),
    });
  }

  /** JSON `{ widgets: [{ id, hidden }] }` in page order, or the dashboard's arrange form. */
  @Post('dashboard/save-layout')
  @HttpCode(200)
  @RefusedGoesTo(':handle/dashboard')
  async saveLayout(
    @Param('handle') handle: string,
    @Body() body: Record<string, unknown>,
    @Req() req: Request,
  ): Promise<FormAnswer> {
    const plugin = this.panels.declaring(handle, 'dashboard');
    const { layout } = plugin.dashboard;
    if (!layout) throw AppError.notFound(`The ${plugin.name} dashboard has no widgets to arrange.`);
    const widgets = await layout.save(this.settings, body, `cp:${req.cpStaff!.email}`);
    return FormAnswer.done('Dashboard layout saved.', { to: this.url(plugin, 'dashboard') }, { widgets });
  }

  @Get('settings')
  settingsPage(@Param('handle') handle: string): PageView {
    return this.settingsView(this.panels.declaring(handle, 'settings'));
  }

  /** Saves every field or, when any is invalid, nothing: a browser gets the form again with the errors. */
  @Post('settings')
  @HttpCode(200)
  async saveSettings(
    @Param('handle') handle: string,
    @Body() body: Record<string, unknown>,
    @Req() req: Request,
  ): Promise<FormAnswer | PageView> {
    const plugin = this.panels.declaring(handle, 'settings');
    try {
      await plugin.settings.form.save(this.settings, body, `cp:${req.cpStaff!.email}`);
    } catch (error) {
      if (!(error instanceof AppError) || !wantsHtml(req)) throw error;
      return this.settingsView(plugin, { body, errors: error.fields ?? {} }, error.message);
    }
    return FormAnswer.done(`${plugin.name} settings saved.`, { to: this.url(plugin, 'settings') });
  }

  private url(plugin: PanelledPlugin, page: string): string {
    return `/${this.config.cpTrigger}/${plugin.handle}/${page}`;
  }

  /** The settings form; refused, it shows what was posted with the field errors, answered 400. */
  private settingsView(plugin: PluginWith<'settings'>, refused?: RefusedSubmission, problem?: string): PageView {
    return new PageView(
      plugin.settings.view ?? 'cp/plugin-settings',
      {
        ...panelPageModel(plugin, `${plugin.name} · Settings`),
        fields: plugin.settings.form.fields(this.settings, refused),
        problem,
      },
      { status: refused ? 400 : undefined },
    );
  }
}
