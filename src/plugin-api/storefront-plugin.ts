import { DiscoveryService } from '@nestjs/core';
import type { OrderPageSectionSource } from '../commerce/orders/order-page-sections';
import type { PaymentGateway } from '../commerce/payments/payment-gateway';
import type { SiteEndpointHandler } from '../commerce/plugin-endpoints/site-endpoint.registry';
import type { ShippingProvider } from '../commerce/shipping/shipping-method.registry';

/** An anonymous `GET /index.php?p=<route>` call the plugin answers, e.g. `carrier-b/api/options`. */
export interface SiteEndpoint {
  route: string;
  handler: SiteEndpointHandler;
}

/**
 * The plugin's CP pages, all behind `accessPlugin-<handle>`: declaring them adds that permission to the
 * catalogue staff can be granted, the header link and the order-page sections, each shown only to staff who
 * hold it. The pages themselves are the plugin's controllers (`@CpPermission('accessPlugin-<handle>')`).
 */
export interface PluginCp {
  /** The CP header link, labelled with the plugin's name; `path` is relative to the CP trigger. */
  navigation?: { path: string };
  /** Sections the plugin adds to the CP order page (links and buttons to its own pages). */
  orderPageSections?: Array<OrderPageSectionSource['sectionFor']>;
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
  readonly cp?: PluginCp;
}

/** Marks the provider that declares a plugin (a `StorefrontPlugin`), so the registrar finds it. */
export const PluginDeclaration = DiscoveryService.createDecorator<void>();
