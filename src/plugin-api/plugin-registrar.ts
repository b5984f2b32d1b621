import { Injectable, OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { DomainEvents } from '../common/domain-events';
import { CpPermissionCatalogue } from '../common/cp-permissions';
import { PLUGINS_AFTER_LOAD } from '../commerce/events';
import { OrderPageSections } from '../commerce/orders/order-page-sections';
import { PaymentMethodRegistry } from '../commerce/payments/payment-method.registry';
import { SiteEndpointRegistry } from '../commerce/plugin-endpoints/site-endpoint.registry';
import { ShipmentCarrierRegistry } from '../commerce/shipments/shipment-carrier.registry';
import { ShippingMethodRegistry } from '../commerce/shipping/shipping-method.registry';
import { PluginPanels } from '../config/plugin-panels/plugin-panels';
import { CpNavigation } from '../web/cp-navigation';
import { PluginDeclaration, StorefrontPlugin } from './storefront-plugin';

/**
 * The one place plugins reach the core's registries: on `plugins-after-load` it reads every declared plugin
 * (`@PluginDeclaration()`) and registers what each declares. Plugins come in module import order, the core's
 * built-in methods first, so a payment method's position (its `id`) stays put.
 */
@Injectable()
export class PluginRegistrar implements OnModuleInit {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly events: DomainEvents,
    private readonly payments: PaymentMethodRegistry,
    private readonly shipping: ShippingMethodRegistry,
    private readonly shipmentCarriers: ShipmentCarrierRegistry,
    private readonly siteEndpoints: SiteEndpointRegistry,
    private readonly permissions: CpPermissionCatalogue,
    private readonly navigation: CpNavigation,
    private readonly orderPage: OrderPageSections,
    private readonly panels: PluginPanels,
  ) {}

  onModuleInit(): void {
    this.events.on(PLUGINS_AFTER_LOAD, () => this.declaredPlugins().forEach((plugin) => this.register(plugin)));
  }

  private declaredPlugins(): StorefrontPlugin[] {
    return this.discovery
      .getProviders({ metadataKey: PluginDeclaration.KEY })
      .map((wrapper) => wrapper.instance as StorefrontPlugin | undefined)
      .filter((plugin): plugin is StorefrontPlugin => plugin !== undefined);
  }

  private register(plugin: StorefrontPlugin): void {
    for (const gateway of plugin.paymentGateways ?? []) this.payments.register(gateway);
    for (const provider of plugin.shippingProviders ?? []) this.shipping.register(provider);
    for (const carrier of plugin.shipmentCarriers ?? []) this.shipmentCarriers.register(carrier);
    for (const { route, handler } of plugin.siteEndpoints ?? []) this.siteEndpoints.register(route, handler);
    if (!plugin.cp) return;
    const permission = `accessPlugin-${plugin.handle}` as const;
    this.permissions.add(permission);
    if (plugin.cp.navigation) this.navigation.add({ label: plugin.name, path: plugin.cp.navigation.path, permission });
    for (const sectionFor of plugin.cp.orderPageSections ?? []) this.orderPage.add({ permission, sectionFor });
    const { dashboard, settings, license } = plugin.cp;
    if (dashboard || settings || license) {
      this.panels.add({ handle: plugin.handle, name: plugin.name, dashboard, settings, license });
    }
  }
}
