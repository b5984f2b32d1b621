import { Module } from '@nestjs/common';
import { PluginSettingsModule } from '../../../src/plugin-api';
import { ExampleCpController } from './example-cp.controller';
import { ExamplePlugin } from './example.plugin';
import { EXAMPLE_SETTINGS } from './example.settings';
import { InvoiceGateway } from './invoice.gateway';

/** A fourth plugin written from `src/plugin-api/` alone (its README), booted by `test/commerce/plugin-api.spec.ts`. */
@Module({
  imports: [PluginSettingsModule.register(EXAMPLE_SETTINGS)],
  controllers: [ExampleCpController],
  providers: [InvoiceGateway, ExamplePlugin],
})
export class ExamplePluginModule {}
