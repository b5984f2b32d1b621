import { Module } from '@nestjs/common';
import { CustomerAccountsService } from './customer-accounts.service';
import { CustomerGuard } from './customer.guard';

/** Shared by every account feature: the accounts service and the login guard. */
@Module({
  providers: [CustomerAccountsService, CustomerGuard],
  exports: [CustomerAccountsService, CustomerGuard],
})
export class CustomerCoreModule {}
