import { Module } from '@nestjs/common';
import { CommerceAdminModule } from '../commerce/admin.module';
import { ReturnsModule } from '../commerce/returns/returns.module';
import { StaffModule } from '../commerce/staff/staff.module';
import { WithdrawalsModule } from '../commerce/withdrawals/withdrawals.module';
import { CpAuthController } from './cp-auth.controller';
import { CpDashboardController } from './cp-dashboard.controller';
import { CpJobsController } from './cp-jobs.controller';
import { CpOrderEditsController } from './cp-order-edits.controller';
import { CpOrdersController } from './cp-orders.controller';
import { CpPaymentTransactionsController } from './cp-payment-transactions.controller';
import { CpShipmentsController } from './cp-shipments.controller';
import { CpStoreController } from './cp-store.controller';

/**
 * The control panel shell, mounted under `/{CP_TRIGGER}` by the app module's router. It passes on the staff
 * accounts, which the CP guard, the demo seed and the CLI use.
 */
@Module({
  imports: [StaffModule, CommerceAdminModule, ReturnsModule, WithdrawalsModule],
  controllers: [
    CpAuthController,
    CpDashboardController,
    CpOrdersController,
    CpShipmentsController,
    CpOrderEditsController,
    CpJobsController,
    CpPaymentTransactionsController,
    CpStoreController,
  ],
  exports: [StaffModule],
})
export class CpModule {}
