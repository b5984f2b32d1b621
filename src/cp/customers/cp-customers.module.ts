import { Module } from '@nestjs/common';
import { CustomerAccountsModule } from '../../commerce/customers/customer-accounts.module';
import { CpCustomersController } from './cp-customers.controller';

/** CP customer screens, mounted under `/{CP_TRIGGER}/customers`; they need the `accessCustomers` permission. */
@Module({
  imports: [CustomerAccountsModule],
  controllers: [CpCustomersController],
})
export class CpCustomersModule {}
