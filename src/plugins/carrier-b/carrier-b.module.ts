import { Module } from '@nestjs/common';
import { PluginSettingsModule } from '../../plugin-api';
import { CarrierBOptions } from './carrier-b-options';
import { CarrierBRatesReader } from './carrier-b-rates';
import { CarrierBShippingProvider } from './carrier-b-shipping.provider';
import { CarrierBPlugin } from './carrier-b.plugin';
import { CARRIER_B_DASHBOARD, CARRIER_B_SETTINGS } from './carrier-b.settings';

/** Carrier B: a pickup-point shipping method and the options of its checkout widget. */
@Module({
  imports: [PluginSettingsModule.register([...CARRIER_B_SETTINGS, CARRIER_B_DASHBOARD.setting])],
  providers: [CarrierBRatesReader, CarrierBOptions, CarrierBShippingProvider, CarrierBPlugin],
  exports: [CarrierBRatesReader],
})
export class CarrierBPluginModule {}
