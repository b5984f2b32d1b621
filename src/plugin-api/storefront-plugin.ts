import { DiscoveryService } from '@nestjs/core';
import type { OrderPageSectionSource } from '../commerce/orders/order-page-sections';
import type { PaymentGateway } from '../commerce/payments/payment-gateway';
import type { SiteEndpointHandler } from '../commerce/plugin-endpoints/site-endpoint.registry';
import type { ShipmentCarrier } from '../commerce/shipments/shipment-carrier.registry';
import type { ShippingProvider } from '../commerce/shipping/shipping-method.registry';
import type { PluginDashboard, PluginSettingsSection } from '../config/plugin-panels/plugin-panels';

/** An anonymous `GET /index.php?p=<route>` call the plugin answers, e.g. `carrier-b/api/options`. */
export interface SiteEndpoint {
  route: string;
  handler: SiteEndpointHandler;
}

/**
 * The plugin's CP pages, all behind `accessPlugin-<handle>`: declaring `cp` adds that permission to the catalogue
 * staff can be granted; the header link and the order-page sections are shown only to staff who hold it. The core
 * serves the dashboard, settings section and license panel declared here at `<cp>/<handle>/…`; any other page is the
 * plugin's own controller (`@CpPermission('accessPlugin-<handle>')`).
 */
export interface PluginCp {
  /** The CP header link, labelled with the plugin's name; `path` is relative to the CP trigger. */
  navigation?: { path: string };
  /** Sections the plugin adds to the CP order page (links and buttons to its own pages). */
  orderPageSections?: Array<OrderPageSectionSource['sectionFor']>;
  /** `<handle>/dashboard`, where `<handle>` leads; with a widget layout, `dashboard/save-layout`. */
  dashboard?: PluginDashboard;
  /** `<handle>/settings`: a form over the plugin's settings, saved all at once or not at all. */
  settings?: PluginSettingsSection;
  /** `<handle>/license`: the plugin's license, activated from a token or a purchase code, and revoked. */
  license?: boolean;
}

/**
 * What a plugin adds to the shop, read once by `PluginRegistrar` when `plugins-after-load` fires. A plugin
 * declares it with an injectable class marked `@PluginDeclaration()` among its module's providers, so the
 * gateways, providers and handlers it names are the module's own instances.
 */
export interface StorefrontPlugin {
  /** Lower-case and unique: its settings are `<handle>.<name>`, its CP permission `accessPlugin-<handle>`. */
  readonly handle: string;
  /** As staff read it, e.g. on its CP header link. */
  readonly name: string;
  readonly paymentGateways?: readonly PaymentGateway[];
  readonly shippingProviders?: readonly ShippingProvider[];
  readonly siteEndpoints?: readonly SiteEndpoint[];
  /** Carriers whose parcels the plugin reports to `ShipmentsService`: tracked and canceled through them. */
  readonly shipmentCarriers?: readonly ShipmentCarrier[];
  readonly cp?: PluginCp;
}

/** Marks the provider that declares a plugin (a `StorefrontPlugin`), so the registrar finds it. */
export const PluginDeclaration = DiscoveryService.createDecorator<void>();
