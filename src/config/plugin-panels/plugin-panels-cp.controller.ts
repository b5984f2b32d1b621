import { Body, Get, HttpCode, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { AppError } from '../../common/errors/app-error';
import { wantsHtml } from '../../common/session-data';
import { FormAnswer, PageView, Redirect } from '../../web/answers/answers';
import { RefusedGoesTo } from '../../web/answers/refused-form.decorator';
import { AppConfig } from '../app-config';
import { RefusedSubmission } from '../settings-form';
import { PluginPanelsService } from './plugin-panels.service';

/** The plugin whose panels these are: `handle` is the route prefix and names the views `cp/<handle>-…`. */
export interface PanelledPlugin {
  handle: string;
  name: string;
}

/** Where a refused layout goes: the post's own route, `/<cp>/<handle>/dashboard/save-layout`, less the action. */
const dashboardOfLayoutPost = (req: Request) => String(req.route.path).replace(/\/save-layout$/, '');

/**
 * A plugin's dashboard (with `dashboard/save-layout`) and settings form. Each
 * plugin's CP extends it with its `<handle>` route, its `accessPlugin-<handle>` permission (`@CpPermission`),
 * `plugin` and its panels service.
 */
export abstract class PluginPanelsCpController {
  protected abstract readonly plugin: PanelledPlugin;

  protected constructor(
    private readonly panels: PluginPanelsService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  landing(): Redirect {
    return new Redirect(this.url('dashboard'), 302);
  }

  @Get('dashboard')
  async dashboard(): Promise<PageView> {
    return new PageView(`cp/${this.plugin.handle}-dashboard`, {
      layout: 'cp',
      title: this.plugin.name,
      ...(await this.panels.dashboard()),
    });
  }

  /** JSON `{ widgets: [{ id, hidden }] }` in page order, or the dashboard's arrange form. */
  @Post('dashboard/save-layout')
  @HttpCode(200)
  @RefusedGoesTo(dashboardOfLayoutPost)
  async saveLayout(@Body() body: Record<string, unknown>): Promise<FormAnswer> {
    const widgets = await this.panels.saveLayout(body);
    return FormAnswer.done('Dashboard layout saved.', { to: this.url('dashboard') }, { widgets });
  }

  @Get('settings')
  settings(): PageView {
    return this.settingsView();
  }

  /** Saves every field or, when any is invalid, nothing: a browser gets the form again with the errors. */
  @Post('settings')
  @HttpCode(200)
  async saveSettings(@Body() body: Record<string, unknown>, @Req() req: Request): Promise<FormAnswer | PageView> {
    try {
      await this.panels.saveSettings(body);
    } catch (error) {
      if (!(error instanceof AppError) || !wantsHtml(req)) throw error;
      return this.settingsView({ body, errors: error.fields ?? {} }, error.message);
    }
    return FormAnswer.done(`${this.plugin.name} settings saved.`, { to: this.url('settings') });
  }

  protected url(page: string): string {
    return `/${this.config.cpTrigger}/${this.plugin.handle}/${page}`;
  }

  /** The settings form; refused, it shows what was posted with the field errors, answered 400. */
  private settingsView(refused?: RefusedSubmission, problem?: string): PageView {
    return new PageView(
      `cp/${this.plugin.handle}-settings`,
      {
        layout: 'cp',
        title: `${this.plugin.name} · Settings`,
        fields: this.panels.settingsFields(refused),
        problem,
      },
      { status: refused ? 400 : undefined },
    );
  }
}
