import { Module } from '@nestjs/common';
import { CustomerSubscriptionsModule } from '../../../commerce/marketing/customer-subscriptions.module';
import { CustomerCoreModule } from '../auth/customer-core.module';
import { WatchdogController } from './watchdog.controller';

/** Back-in-stock alerts: customers ask to be told, a restock tells them once. */
@Module({
  imports: [CustomerCoreModule, CustomerSubscriptionsModule],
  controllers: [WatchdogController],
})
export class WatchdogModule {}
