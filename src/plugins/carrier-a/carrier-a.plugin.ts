import { Injectable } from '@nestjs/common';
import { PluginCp, PluginDeclaration, ShipmentCarrier, SiteEndpoint, StorefrontPlugin } from '../../plugin-api';
import { CarrierAPickupPoints } from './carrier-a-pickup-points.service';
import { CarrierAShipmentCarrier } from './carrier-a-shipment-carrier';
import { CarrierAShippingProvider } from './carrier-a-shipping.provider';
import { CARRIER_A_DASHBOARD } from './carrier-a.settings';
import { CarrierADashboard } from './cp/carrier-a-dashboard';
import { CarrierAOrderSection } from './cp/carrier-a-order-section';
import { CARRIER_A_SETTINGS_FORM } from './cp/carrier-a-settings-form';

/**
 * What carrier A adds to the shop: its shipping methods, the tracking and cancel of its parcels (reported to the core as
 * the orders' shipments), the pickup-point search, and its CP pages (the dashboard, settings and license pages the
 * core serves; its shipment screens are its own, in `cp/`).
 */
@Injectable()
@PluginDeclaration()
export class CarrierAPlugin implements StorefrontPlugin {
  readonly handle = 'carrier-a';
  readonly name = 'Carrier A';
  readonly shippingProviders: CarrierAShippingProvider[];
  readonly siteEndpoints: SiteEndpoint[];
  readonly shipmentCarriers: ShipmentCarrier[];
  readonly cp: PluginCp;

  constructor(
    provider: CarrierAShippingProvider,
    pickupPoints: CarrierAPickupPoints,
    dashboard: CarrierADashboard,
    parcels: CarrierAShipmentCarrier,
    orderSection: CarrierAOrderSection,
  ) {
    this.shippingProviders = [provider];
    this.shipmentCarriers = [parcels];
    this.siteEndpoints = [
      {
        route: 'carrier-a/api/pickup-points',
        handler: ({ country, zipCode }) => pickupPoints.lookup(country, zipCode),
      },
    ];
    this.cp = {
      navigation: { path: 'carrier-a/dashboard' },
      orderPageSections: [(order) => orderSection.sectionFor(order)],
      dashboard: { layout: CARRIER_A_DASHBOARD, view: 'cp/carrier-a-dashboard', data: () => dashboard.figures() },
      // Its own view: the connection test sits below the form.
      settings: { form: CARRIER_A_SETTINGS_FORM, view: 'cp/carrier-a-settings' },
      license: true,
    };
  }
}
