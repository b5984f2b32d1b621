import { Module } from '@nestjs/common';
import { PluginSettingsModule } from '../../config/settings.module';
import { CARRIER_A_SETTINGS } from './carrier-a.settings';

/** Carrier A: parcels, labels, tracking and ParcelShop pickup points. */
@Module({ imports: [PluginSettingsModule.register(CARRIER_A_SETTINGS)] })
export class CarrierAPluginModule {}
