import { Module } from '@nestjs/common';
import { PluginSettingsModule } from '../../config/settings.module';
import { CARRIER_B_SETTINGS } from './carrier-b.settings';

/** Carrier B: pickup-point widget options. */
@Module({ imports: [PluginSettingsModule.register(CARRIER_B_SETTINGS)] })
export class CarrierBPluginModule {}
