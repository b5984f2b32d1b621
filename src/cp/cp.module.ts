import { Module } from '@nestjs/common';
import { CpAuthController } from './cp-auth.controller';
import { CpDashboardController } from './cp-dashboard.controller';
import { CpJobsController } from './cp-jobs.controller';
import { CpOrdersController } from './cp-orders.controller';
import { CpOrdersService } from './cp-orders.service';
import { CpPaymentTransactionsController } from './cp-payment-transactions.controller';
import { CpUsersService } from './cp-users.service';

/** The control panel shell, mounted under `/{CP_TRIGGER}` by the app module's router. */
@Module({
  controllers: [
    CpAuthController,
    CpDashboardController,
    CpOrdersController,
    CpJobsController,
    CpPaymentTransactionsController,
  ],
  providers: [CpUsersService, CpOrdersService],
  exports: [CpUsersService],
})
export class CpModule {}
