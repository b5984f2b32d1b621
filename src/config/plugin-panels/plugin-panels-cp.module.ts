import { Module } from '@nestjs/common';
import { LicenseCpController } from '../licenses/license-cp.controller';
import { LicensesModule } from '../licenses/licenses.module';
import { PluginPanelsCpController } from './plugin-panels-cp.controller';

/**
 * The CP pages the core serves for every plugin that declares them: dashboard, settings section, license panel, at
 * `<cp>/<handle>/…`. The app module mounts it under the CP trigger and imports it after every other module, so its
 * `:handle` routes are matched only when no fixed route (the core's, a plugin's own) matches first.
 */
@Module({
  imports: [LicensesModule],
  controllers: [LicenseCpController, PluginPanelsCpController],
})
export class PluginPanelsCpModule {}
