import { Module } from '@nestjs/common';
import { WishlistProducts } from './wishlist-products.service';
import { WishlistToCart } from './wishlist-to-cart.service';

/**
 * What the wishlist pages need beyond `WishlistService` (in the commerce module, as the cart saves for later
 * too): the products behind the items, and moving an item to the cart.
 */
@Module({
  providers: [WishlistProducts, WishlistToCart],
  exports: [WishlistProducts, WishlistToCart],
})
export class WishlistsModule {}
