import { DynamicModule, Global, Module } from '@nestjs/common';
import { LoosenedSwitches } from './loosened-switches';
import { SettingDefinition } from './setting-definition';
import { SettingsService } from './settings.service';

@Global()
@Module({
  providers: [SettingsService, LoosenedSwitches],
  exports: [SettingsService, LoosenedSwitches],
})
export class SettingsModule {}

/** A plugin's own settings (`<handle>.<name>`), defined when the plugin module loads. */
@Module({})
export class PluginSettingsModule {
  static register(definitions: readonly SettingDefinition[]): DynamicModule {
    return {
      module: PluginSettingsModule,
      providers: [
        {
          provide: `settings:${definitions[0]?.key.split('.')[0]}`,
          inject: [SettingsService],
          useFactory: (settings: SettingsService) => settings.define(definitions),
        },
      ],
    };
  }
}
