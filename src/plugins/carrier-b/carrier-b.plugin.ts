import { Injectable } from '@nestjs/common';
import { PluginDeclaration, SiteEndpoint, StorefrontPlugin } from '../../plugin-api';
import { CarrierBOptions } from './carrier-b-options';
import { CarrierBShippingProvider } from './carrier-b-shipping.provider';

/** What carrier B adds to the shop: its pickup-point method, its widget's options and its CP pages. */
@Injectable()
@PluginDeclaration()
export class CarrierBPlugin implements StorefrontPlugin {
  readonly handle = 'carrier-b';
  readonly name = 'Carrier B';
  readonly shippingProviders: CarrierBShippingProvider[];
  readonly siteEndpoints: SiteEndpoint[];
  readonly cp = { navigation: { path: 'carrier-b/dashboard' } };

  constructor(provider: CarrierBShippingProvider, widgetOptions: CarrierBOptions) {
    this.shippingProviders = [provider];
    this.siteEndpoints = [{ route: 'carrier-b/api/options', handler: () => widgetOptions.options() }];
  }
}
