import { Body, Controller, Get, HttpCode, Post, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { CpPermission } from '../../common/decorators/cp-permission.decorator';
import { AppError } from '../../common/errors/app-error';
import { wantsHtml } from '../../common/session-data';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { CORE_SETTINGS_FORM, inSections } from '../../config/core-setting-groups';
import { settingLabel } from '../../config/setting-definition';
import { RefusedSubmission } from '../../config/settings-form';
import { SettingsService } from '../../config/settings.service';
import { FormAnswer, PageView } from '../../web/answers/answers';

/**
 * Every core setting and feature flag on one page, in sections. A save writes the settings that changed, each
 * audited, and every instance picks them up without a restart (SettingsService broadcasts the save).
 */
@ApiExcludeController()
@CpPermission('accessSettings')
@Controller('settings')
export class CpSettingsController {
  constructor(
    private readonly settings: SettingsService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get()
  page(): PageView {
    return this.view();
  }

  /** Saves every field or, when any is invalid, nothing: a browser gets the form again with the errors, 400. */
  @Post()
  @HttpCode(200)
  async save(@Body() body: Record<string, unknown>, @Req() req: Request): Promise<FormAnswer | PageView> {
    let changed: string[];
    try {
      changed = await CORE_SETTINGS_FORM.save(this.settings, body, `cp:${req.cpStaff!.email}`);
    } catch (error) {
      if (!(error instanceof AppError) || !wantsHtml(req)) throw error;
      return this.view({ body, errors: error.fields ?? {} }, error.message);
    }
    const page = { to: `/${this.config.cpTrigger}/settings` };
    if (changed.length === 0) {
      return new FormAnswer('Nothing changed.', page, () => ({ success: true, changed }), 'info');
    }
    return FormAnswer.done(`Settings saved: ${changed.map(settingLabel).join(', ')}.`, page, { changed });
  }

  /** The form with the stored values; refused, with what was posted and the field errors, answered 400. */
  private view(refused?: RefusedSubmission, problem?: string): PageView {
    return new PageView(
      'cp/settings',
      {
        layout: 'cp',
        title: 'Settings',
        sections: inSections(CORE_SETTINGS_FORM.fields(this.settings, refused)),
        problem,
      },
      { status: refused ? 400 : undefined },
    );
  }
}
