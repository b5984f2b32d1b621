import { Module } from '@nestjs/common';
import { WishlistsModule } from '../../../commerce/wishlists/wishlists.module';
import { CustomerCoreModule } from '../auth/customer-core.module';
import { CustomerThrottlerGuard } from '../auth/customer-throttler.guard';
import { WishlistAccountController } from './wishlist-account.controller';
import { WishlistAdoption } from './wishlist-adoption.listener';
import { WishlistShareController } from './wishlist-share.controller';
import { WishlistSharing } from './wishlist-sharing.service';
import { WishlistViews } from './wishlist-views.service';
import { WishlistController } from './wishlist.controller';

/** Named wishlists of customers, a guest's session list, sharing, and moving items to the cart. */
@Module({
  imports: [CustomerCoreModule, WishlistsModule],
  controllers: [WishlistController, WishlistAccountController, WishlistShareController],
  providers: [WishlistViews, WishlistSharing, WishlistAdoption, CustomerThrottlerGuard],
})
export class WishlistModule {}
