import { Module, OnModuleInit } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { PLUGINS_AFTER_LOAD } from '../../commerce/events';
import { SiteEndpointRegistry } from '../../commerce/plugin-endpoints/site-endpoint.registry';
import { SiteEndpointsModule } from '../../commerce/plugin-endpoints/site-endpoints.module';
import { ShippingMethodRegistry } from '../../commerce/shipping/shipping-method.registry';
import { PluginSettingsModule } from '../../config/settings.module';
import { CarrierAAutoShipments } from './carrier-a-auto-shipments.service';
import { CarrierAPickupPoints } from './carrier-a-pickup-points.service';
import { CarrierAShipments } from './carrier-a-shipments.service';
import { CarrierAShippingProvider } from './carrier-a-shipping.provider';
import { CarrierAClient } from './carrier-a.client';
import { CARRIER_A_SETTINGS } from './carrier-a.settings';

/** Carrier A: parcels, labels, tracking and ParcelShop pickup points. */
@Module({
  imports: [PluginSettingsModule.register(CARRIER_A_SETTINGS), SiteEndpointsModule],
  providers: [CarrierAClient, CarrierAPickupPoints, CarrierAShippingProvider, CarrierAShipments, CarrierAAutoShipments],
  exports: [CarrierAClient, CarrierAShipments],
})
export class CarrierAPluginModule implements OnModuleInit {
  constructor(
    private readonly events: EventEmitter2,
    private readonly endpoints: SiteEndpointRegistry,
    private readonly shipping: ShippingMethodRegistry,
    private readonly provider: CarrierAShippingProvider,
    private readonly pickupPoints: CarrierAPickupPoints,
  ) {}

  /** Registers once every plugin has loaded (spec "Events": plugins-after-load). */
  onModuleInit(): void {
    this.events.on(PLUGINS_AFTER_LOAD, () => {
      this.shipping.register(this.provider);
      this.endpoints.register('carrier-a/api/pickup-points', ({ country, zipCode }) =>
        this.pickupPoints.lookup(country, zipCode),
      );
    });
  }
}
