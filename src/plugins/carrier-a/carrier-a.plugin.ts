import { Injectable } from '@nestjs/common';
import { PluginDeclaration, SiteEndpoint, StorefrontPlugin } from '../../plugin-api';
import { CarrierAPickupPoints } from './carrier-a-pickup-points.service';
import { CarrierAShippingProvider } from './carrier-a-shipping.provider';
import { carrierAOrderSection } from './cp/carrier-a-order-section';

/** What carrier A adds to the shop: its shipping methods, the pickup-point search and its CP pages. */
@Injectable()
@PluginDeclaration()
export class CarrierAPlugin implements StorefrontPlugin {
  readonly handle = 'carrier-a';
  readonly name = 'Carrier A';
  readonly shippingProviders: CarrierAShippingProvider[];
  readonly siteEndpoints: SiteEndpoint[];
  readonly cp = {
    navigation: { path: 'carrier-a/dashboard' },
    orderPageSections: [carrierAOrderSection],
  };

  constructor(provider: CarrierAShippingProvider, pickupPoints: CarrierAPickupPoints) {
    this.shippingProviders = [provider];
    this.siteEndpoints = [
      {
        route: 'carrier-a/api/pickup-points',
        handler: ({ country, zipCode }) => pickupPoints.lookup(country, zipCode),
      },
    ];
  }
}
