import { Module } from '@nestjs/common';
import { LicensesModule } from '../../../plugin-api';
import { CarrierBPluginModule } from '../carrier-b.module';
import { CarrierBCpController } from './carrier-b-cp.controller';
import { CarrierBCpService } from './carrier-b-cp.service';
import { CarrierBLicenseCpController } from './carrier-b-license-cp.controller';

/** Carrier B's CP pages, mounted under the CP trigger by the app module's router. */
@Module({
  imports: [CarrierBPluginModule, LicensesModule],
  controllers: [CarrierBLicenseCpController, CarrierBCpController],
  providers: [CarrierBCpService],
})
export class CarrierBCpModule {}
