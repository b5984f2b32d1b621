import { Module } from '@nestjs/common';
import { CpSettingsController } from './cp-settings.controller';

/** The shop's settings screen, `/{CP_TRIGGER}/settings`, behind `accessSettings`. */
@Module({ controllers: [CpSettingsController] })
export class CpSettingsModule {}
