import { Module } from '@nestjs/common';
import { CustomerCoreModule } from '../auth/customer-core.module';

/** Named wishlists of customers. */
@Module({ imports: [CustomerCoreModule] })
export class WishlistModule {}
