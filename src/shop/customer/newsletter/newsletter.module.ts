import { Module } from '@nestjs/common';
import { CustomerCoreModule } from '../auth/customer-core.module';

/** Newsletter subscriptions with double opt-in. */
@Module({ imports: [CustomerCoreModule] })
export class NewsletterModule {}
