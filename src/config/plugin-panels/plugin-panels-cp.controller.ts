import { Body, Get, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { answerCpPost } from '../../common/cp-form-post';
import { AppConfig } from '../app-config';
import { RefusedSubmission } from '../settings-form';
import { PluginPanelsService } from './plugin-panels.service';

/** The plugin whose panels these are: `handle` is the route prefix and names the views `cp/<handle>-…`. */
export interface PanelledPlugin {
  handle: string;
  name: string;
}

/**
 * A plugin's dashboard (with `dashboard/save-layout`) and settings form (spec "Control-panel routes"). Each
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
  landing(@Res() res: Response): void {
    res.redirect(302, this.url('dashboard'));
  }

  @Get('dashboard')
  async dashboard(@Res() res: Response): Promise<void> {
    res.render(`cp/${this.plugin.handle}-dashboard`, {
      layout: 'cp',
      title: this.plugin.name,
      ...(await this.panels.dashboard()),
    });
  }

  /** JSON `{ widgets: [{ id, hidden }] }` in page order, or the dashboard's arrange form. */
  @Post('dashboard/save-layout')
  saveLayout(@Body() body: Record<string, unknown>, @Req() req: Request, @Res() res: Response): Promise<void> {
    return answerCpPost(req, res, {
      page: this.url('dashboard'),
      action: async () => ({ message: 'Dashboard layout saved.', widgets: await this.panels.saveLayout(body) }),
    });
  }

  @Get('settings')
  settings(@Res() res: Response): void {
    this.renderSettings(res);
  }

  /** Saves every field or, when any is invalid, nothing: a browser gets the form again with the errors. */
  @Post('settings')
  saveSettings(@Body() body: Record<string, unknown>, @Req() req: Request, @Res() res: Response): Promise<void> {
    return answerCpPost(req, res, {
      page: this.url('settings'),
      action: async () => {
        await this.panels.saveSettings(body);
        return { message: `${this.plugin.name} settings saved.` };
      },
      refused: (error) => this.renderSettings(res.status(400), { body, errors: error.fields ?? {} }, error.message),
    });
  }

  protected url(page: string): string {
    return `/${this.config.cpTrigger}/${this.plugin.handle}/${page}`;
  }

  private renderSettings(res: Response, refused?: RefusedSubmission, problem?: string): void {
    res.render(`cp/${this.plugin.handle}-settings`, {
      layout: 'cp',
      title: `${this.plugin.name} · Settings`,
      fields: this.panels.settingsFields(refused),
      problem,
    });
  }
}
