import { Module } from '@nestjs/common';
import { CustomerSubscriptionsModule } from '../../../commerce/marketing/customer-subscriptions.module';
import { CustomerCoreModule } from '../auth/customer-core.module';
import { AccountSubscriptionsController } from './account-subscriptions.controller';
import { MarketingOptOutController, NewsletterController } from './newsletter.controller';

/** Newsletter subscriptions with double opt-in, for guests and on the account's subscriptions page. */
@Module({
  imports: [CustomerCoreModule, CustomerSubscriptionsModule],
  controllers: [NewsletterController, MarketingOptOutController, AccountSubscriptionsController],
})
export class NewsletterModule {}
