import { Module } from '@nestjs/common';
import { LicensesModule } from '../../../plugin-api';
import { CarrierAPluginModule } from '../carrier-a.module';
import { CarrierALicenseCpController } from './carrier-a-license-cp.controller';
import { CarrierAPanelsCpController } from './carrier-a-panels-cp.controller';
import { CarrierAPanelsCpService } from './carrier-a-panels-cp.service';
import { CarrierAShipmentsCpController } from './carrier-a-shipments-cp.controller';
import { CarrierAShipmentsCpService } from './carrier-a-shipments-cp.service';

/** Carrier A's CP pages, mounted under the CP trigger by the app module's router. */
@Module({
  imports: [CarrierAPluginModule, LicensesModule],
  controllers: [CarrierALicenseCpController, CarrierAShipmentsCpController, CarrierAPanelsCpController],
  providers: [CarrierAShipmentsCpService, CarrierAPanelsCpService],
})
export class CarrierACpModule {}
