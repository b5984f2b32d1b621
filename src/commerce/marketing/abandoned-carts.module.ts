import { Module } from '@nestjs/common';
import { AbandonedCartRecoveryService } from './abandoned-cart-recovery.service';
import { AbandonedCartReminders } from './abandoned-cart-reminders.service';
import { AbandonedCartScanner } from './abandoned-cart-scanner.service';
import { CustomerSubscriptionsModule } from './customer-subscriptions.module';

/**
 * Abandoned carts (only while `salesAbandonedCartsEnabled`): the scan, the reminder e-mails and the
 * recovery of a cart from a reminder's link. Imported by the storefront and the CP.
 */
@Module({
  imports: [CustomerSubscriptionsModule],
  providers: [AbandonedCartScanner, AbandonedCartReminders, AbandonedCartRecoveryService],
  exports: [AbandonedCartScanner, AbandonedCartRecoveryService],
})
export class AbandonedCartsModule {}
