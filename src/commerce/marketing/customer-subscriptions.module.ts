import { Module } from '@nestjs/common';
import { BackInStockNotifier } from './back-in-stock.notifier';
import { NewsletterLinks } from './newsletter-links';
import { NewsletterService } from './newsletter.service';
import { WatchdogService } from './watchdog.service';

/** What customers may ask to be told: the newsletter (double opt-in) and back-in-stock alerts. */
@Module({
  providers: [NewsletterService, NewsletterLinks, WatchdogService, BackInStockNotifier],
  exports: [NewsletterService, NewsletterLinks, WatchdogService],
})
export class CustomerSubscriptionsModule {}
