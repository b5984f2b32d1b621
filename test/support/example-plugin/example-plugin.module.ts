import { Module } from '@nestjs/common';
import { PluginSettingsModule } from '../../../src/plugin-api';
import { ExamplePlugin } from './example.plugin';
import { EXAMPLE_DASHBOARD, EXAMPLE_SETTINGS } from './example.settings';
import { InvoiceGateway } from './invoice.gateway';

/**
 * A fourth plugin written from `src/plugin-api/` alone (its README), booted by `test/commerce/plugin-api.spec.ts`. Its
 * CP pages are declared, not written: it has no controller.
 */
@Module({
  imports: [PluginSettingsModule.register([...EXAMPLE_SETTINGS, EXAMPLE_DASHBOARD.setting])],
  providers: [InvoiceGateway, ExamplePlugin],
})
export class ExamplePluginModule {}
