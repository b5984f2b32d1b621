import { Injectable } from '@nestjs/common';
import { PluginDeclaration, SettingsService, SiteEndpoint, StorefrontPlugin } from '../../../src/plugin-api';
import { InvoiceGateway } from './invoice.gateway';

/** Everything the example adds: a payment method, a storefront endpoint and a CP page with its header link. */
@Injectable()
@PluginDeclaration()
export class ExamplePlugin implements StorefrontPlugin {
  readonly handle = 'example';
  readonly name = 'Example';
  readonly paymentGateways: InvoiceGateway[];
  readonly siteEndpoints: SiteEndpoint[];
  readonly cp = { navigation: { path: 'example/dashboard' } };

  constructor(invoices: InvoiceGateway, settings: SettingsService) {
    this.paymentGateways = [invoices];
    this.siteEndpoints = [
      {
        route: 'example/api/greeting',
        handler: ({ name }) => ({ success: true, greeting: `${settings.get('example.greeting')}, ${name}` }),
      },
    ];
  }
}
