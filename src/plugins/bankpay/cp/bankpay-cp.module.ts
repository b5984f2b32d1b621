import { Module, OnModuleInit } from '@nestjs/common';
import { CpPermissionCatalogue } from '../../../common/cp-permissions';
import { CpNavigation } from '../../../web/cp-navigation';
import { BankpayPluginModule } from '../bankpay.module';
import { BankpayCpController } from './bankpay-cp.controller';
import { BankpayCpService } from './bankpay-cp.service';

/** The gateway's CP pages, mounted under the CP trigger by the app module's router. */
@Module({
  imports: [BankpayPluginModule],
  controllers: [BankpayCpController],
  providers: [BankpayCpService],
})
export class BankpayCpModule implements OnModuleInit {
  constructor(
    private readonly permissions: CpPermissionCatalogue,
    private readonly navigation: CpNavigation,
  ) {}

  onModuleInit(): void {
    this.permissions.add('accessPlugin-bankpay');
    this.navigation.add({ label: 'Bank payments', path: 'bankpay/dashboard', permission: 'accessPlugin-bankpay' });
  }
}
