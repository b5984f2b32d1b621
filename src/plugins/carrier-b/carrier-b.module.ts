import { Module } from '@nestjs/common';
import { PluginSettingsModule } from '../../plugin-api';
import { CarrierBOptions } from './carrier-b-options';
import { CarrierBRatesReader } from './carrier-b-rates';
import { CarrierBShippingProvider } from './carrier-b-shipping.provider';
import { CarrierBPlugin } from './carrier-b.plugin';
import { CARRIER_B_DASHBOARD, CARRIER_B_SETTINGS } from './carrier-b.settings';
import { CarrierBDashboard } from './cp/carrier-b-dashboard';

/** Carrier B: a pickup-point shipping method, the options of its checkout widget and its CP dashboard. */
@Module({
  imports: [PluginSettingsModule.register([...CARRIER_B_SETTINGS, CARRIER_B_DASHBOARD.setting])],
  providers: [CarrierBRatesReader, CarrierBOptions, CarrierBShippingProvider, CarrierBDashboard, CarrierBPlugin],
  exports: [CarrierBRatesReader],
})
export class CarrierBPluginModule {}
