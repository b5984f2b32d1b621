import { Module } from '@nestjs/common';
import { CarrierAPluginModule } from '../carrier-a.module';
import { CarrierAConnectionCpController } from './carrier-a-connection-cp.controller';
import { CarrierAShipmentsCpController } from './carrier-a-shipments-cp.controller';
import { CarrierAShipmentsCpService } from './carrier-a-shipments-cp.service';

/**
 * Carrier A's own CP pages, mounted under the CP trigger by the app module's router: the shipments and the connection
 * test. Its dashboard, settings and license pages are declared in `CarrierAPlugin` and served by the core.
 */
@Module({
  imports: [CarrierAPluginModule],
  controllers: [CarrierAShipmentsCpController, CarrierAConnectionCpController],
  providers: [CarrierAShipmentsCpService],
})
export class CarrierACpModule {}
