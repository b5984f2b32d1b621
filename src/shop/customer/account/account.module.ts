import { Module } from '@nestjs/common';
import { CustomerCoreModule } from '../auth/customer-core.module';

/** Account pages: dashboard, login details, deletion, subscriptions, orders, invoices, address book. */
@Module({ imports: [CustomerCoreModule] })
export class AccountModule {}
