import { Module, OnModuleInit } from '@nestjs/common';
import { OrderPageSections } from '../../../commerce/orders/order-page-sections';
import { CpPermissionCatalogue } from '../../../common/cp-permissions';
import { LicensesModule } from '../../../config/licenses/licenses.module';
import { CpNavigation } from '../../../web/cp-navigation';
import { CarrierAPluginModule } from '../carrier-a.module';
import { CarrierALicenseCpController } from './carrier-a-license-cp.controller';
import { carrierAOrderSection } from './carrier-a-order-section';
import { CarrierAPanelsCpController } from './carrier-a-panels-cp.controller';
import { CarrierAPanelsCpService } from './carrier-a-panels-cp.service';
import { CarrierAShipmentsCpController } from './carrier-a-shipments-cp.controller';
import { CarrierAShipmentsCpService } from './carrier-a-shipments-cp.service';

const PERMISSION = 'accessPlugin-carrier-a' as const;

/**
 * Carrier A's CP pages, mounted under the CP trigger by the app module's router, with their link in the CP
 * header and a section on the order page.
 */
@Module({
  imports: [CarrierAPluginModule, LicensesModule],
  controllers: [CarrierALicenseCpController, CarrierAShipmentsCpController, CarrierAPanelsCpController],
  providers: [CarrierAShipmentsCpService, CarrierAPanelsCpService],
})
export class CarrierACpModule implements OnModuleInit {
  constructor(
    private readonly permissions: CpPermissionCatalogue,
    private readonly navigation: CpNavigation,
    private readonly orderPage: OrderPageSections,
  ) {}

  onModuleInit(): void {
    this.permissions.add(PERMISSION);
    this.navigation.add({ label: 'Carrier A', path: 'carrier-a/dashboard', permission: PERMISSION });
    this.orderPage.add({ permission: PERMISSION, sectionFor: carrierAOrderSection });
  }
}
