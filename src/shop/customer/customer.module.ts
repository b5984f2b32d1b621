import { Module } from '@nestjs/common';
import { CustomerAccountsService } from './auth/customer-accounts.service';
import { CustomerAuthController } from './auth/customer-auth.controller';
import { CustomerGuard } from './auth/customer.guard';
import { CustomerSessionController } from './customer-session.controller';

/** Customer accounts. Account routes are gated by `customerAccountsEnabled`; the session routes are not. */
@Module({
  controllers: [CustomerSessionController, CustomerAuthController],
  providers: [CustomerAccountsService, CustomerGuard],
  exports: [CustomerAccountsService, CustomerGuard],
})
export class CustomerModule {}
