import { Module } from '@nestjs/common';
import { CustomerCoreModule } from '../auth/customer-core.module';
import { BackInStockNotifier } from './back-in-stock.notifier';
import { WatchdogController } from './watchdog.controller';
import { WatchdogService } from './watchdog.service';

/** Back-in-stock alerts: customers ask to be told, a restock tells them once. */
@Module({
  imports: [CustomerCoreModule],
  controllers: [WatchdogController],
  providers: [WatchdogService, BackInStockNotifier],
})
export class WatchdogModule {}
