import { Module, OnModuleInit } from '@nestjs/common';
import { CpPermissionCatalogue } from '../../../common/cp-permissions';
import { LicensesModule } from '../../../config/licenses/licenses.module';
import { CpNavigation } from '../../../web/cp-navigation';
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
export class CarrierBCpModule implements OnModuleInit {
  constructor(
    private readonly permissions: CpPermissionCatalogue,
    private readonly navigation: CpNavigation,
  ) {}

  onModuleInit(): void {
    this.permissions.add('accessPlugin-carrier-b');
    this.navigation.add({ label: 'Carrier B', path: 'carrier-b/dashboard', permission: 'accessPlugin-carrier-b' });
  }
}
