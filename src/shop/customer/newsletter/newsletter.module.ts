import { Module } from '@nestjs/common';
import { CustomerCoreModule } from '../auth/customer-core.module';
import { AccountSubscriptionsController } from './account-subscriptions.controller';
import { NewsletterLinks } from './newsletter-links';
import { NewsletterController } from './newsletter.controller';
import { NewsletterService } from './newsletter.service';

/** Newsletter subscriptions with double opt-in, for guests and on the account's subscriptions page. */
@Module({
  imports: [CustomerCoreModule],
  controllers: [NewsletterController, AccountSubscriptionsController],
  providers: [NewsletterService, NewsletterLinks],
})
export class NewsletterModule {}
