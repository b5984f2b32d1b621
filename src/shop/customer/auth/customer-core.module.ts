import { Module } from '@nestjs/common';
import { CustomerAccountsModule } from '../../../commerce/customers/customer-accounts.module';
import { CustomerLocalStrategy } from './customer-local.strategy';
import { CustomerLoginService } from './customer-login.service';
import { CustomerGuard } from './customer.guard';

/**
 * Shared by every account feature: the customer accounts of commerce, the login guard and the login service
 * (which social login uses too).
 */
@Module({
  imports: [CustomerAccountsModule],
  providers: [CustomerGuard, CustomerLoginService, CustomerLocalStrategy],
  exports: [CustomerAccountsModule, CustomerGuard, CustomerLoginService],
})
export class CustomerCoreModule {}
