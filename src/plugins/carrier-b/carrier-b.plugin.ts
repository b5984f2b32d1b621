import { Injectable } from '@nestjs/common';
import { PluginCp, PluginDeclaration, SiteEndpoint, StorefrontPlugin } from '../../plugin-api';
import { CarrierBOptions } from './carrier-b-options';
import { CarrierBShippingProvider } from './carrier-b-shipping.provider';
import { CARRIER_B_DASHBOARD } from './carrier-b.settings';
import { CarrierBDashboard } from './cp/carrier-b-dashboard';
import { CARRIER_B_SETTINGS_FORM } from './cp/carrier-b-settings-form';

/**
 * What carrier B adds to the shop: its pickup-point method, its widget's options and its CP pages (dashboard,
 * settings and license, all served by the core).
 */
@Injectable()
@PluginDeclaration()
export class CarrierBPlugin implements StorefrontPlugin {
  readonly handle = 'carrier-b';
  readonly name = 'Carrier B';
  readonly shippingProviders: CarrierBShippingProvider[];
  readonly siteEndpoints: SiteEndpoint[];
  readonly cp: PluginCp;

  constructor(provider: CarrierBShippingProvider, widgetOptions: CarrierBOptions, dashboard: CarrierBDashboard) {
    this.shippingProviders = [provider];
    this.siteEndpoints = [{ route: 'carrier-b/api/options', handler: () => widgetOptions.options() }];
    this.cp = {
      navigation: { path: 'carrier-b/dashboard' },
      dashboard: { layout: CARRIER_B_DASHBOARD, view: 'cp/carrier-b-dashboard', data: () => dashboard.figures() },
      settings: { form: CARRIER_B_SETTINGS_FORM },
      license: true,
    };
  }
}
