import { Module, OnModuleInit } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { PLUGINS_AFTER_LOAD } from '../../commerce/events';
import { SiteEndpointRegistry } from '../../commerce/plugin-endpoints/site-endpoint.registry';
import { SiteEndpointsModule } from '../../commerce/plugin-endpoints/site-endpoints.module';
import { ShippingMethodRegistry } from '../../commerce/shipping/shipping-method.registry';
import { PluginSettingsModule } from '../../config/settings.module';
import { CarrierBOptions } from './carrier-b-options';
import { CarrierBRatesReader } from './carrier-b-rates';
import { CarrierBShippingProvider } from './carrier-b-shipping.provider';
import { CARRIER_B_SETTINGS } from './carrier-b.settings';

/** Carrier B: a pickup-point shipping method and the options of its checkout widget. */
@Module({
  imports: [PluginSettingsModule.register(CARRIER_B_SETTINGS), SiteEndpointsModule],
  providers: [CarrierBRatesReader, CarrierBOptions, CarrierBShippingProvider],
  exports: [CarrierBRatesReader],
})
export class CarrierBPluginModule implements OnModuleInit {
  constructor(
    private readonly events: EventEmitter2,
    private readonly endpoints: SiteEndpointRegistry,
    private readonly shipping: ShippingMethodRegistry,
    private readonly provider: CarrierBShippingProvider,
    private readonly widgetOptions: CarrierBOptions,
  ) {}

  /** Registers once every plugin has loaded (spec "Events": plugins-after-load). */
  onModuleInit(): void {
    this.events.on(PLUGINS_AFTER_LOAD, () => {
      this.shipping.register(this.provider);
      this.endpoints.register('carrier-b/api/options', () => this.widgetOptions.options());
    });
  }
}
