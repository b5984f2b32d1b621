import { Injectable } from '@nestjs/common';
import { PluginCp, PluginDeclaration, SettingsService, SiteEndpoint, StorefrontPlugin } from '../../../src/plugin-api';
import { EXAMPLE_DASHBOARD, EXAMPLE_SETTINGS_FORM } from './example.settings';
import { InvoiceGateway } from './invoice.gateway';

/**
 * Everything the example adds: a payment method, a storefront endpoint, and CP pages the core serves from this
 * declaration alone (a dashboard shown in the core's view, a settings section) with their header link.
 */
@Injectable()
@PluginDeclaration()
export class ExamplePlugin implements StorefrontPlugin {
  readonly handle = 'example';
  readonly name = 'Example';
  readonly paymentGateways: InvoiceGateway[];
  readonly siteEndpoints: SiteEndpoint[];
  readonly cp: PluginCp;

  constructor(invoices: InvoiceGateway, settings: SettingsService) {
    this.paymentGateways = [invoices];
    this.siteEndpoints = [
      {
        route: 'example/api/greeting',
        handler: ({ name }) => ({ success: true, greeting: `${settings.get('example.greeting')}, ${name}` }),
      },
    ];
    this.cp = {
      navigation: { path: 'example/dashboard' },
      // No view of its own: the core's shows each widget's facts.
      dashboard: {
        layout: EXAMPLE_DASHBOARD,
        data: async () => ({
          facts: {
            greeting: { 'Shoppers are greeted with': settings.get('example.greeting') },
            invoices: { 'Pay by invoice': settings.isOn('example.invoiceEnabled') ? 'offered' : 'off' },
          },
        }),
      },
      settings: { form: EXAMPLE_SETTINGS_FORM },
    };
  }
}
