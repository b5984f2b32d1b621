import { Module } from '@nestjs/common';
import { CartCouponController } from './cart-coupon.controller';
import { CartFragmentCache } from './cart-fragment.cache';
import { CartFragmentsController } from './cart-fragments.controller';
import { CartGiftCardController } from './cart-gift-card.controller';
import { CartPageController } from './cart-page.controller';
import { CartSession } from './cart-session.service';
import { CartShareLinks } from './cart-share-links';
import { CartShareController } from './cart-share.controller';
import { CartSummaries } from './cart-summaries.service';
import { CartWishlistController } from './cart-wishlist.controller';
import { CartController } from './cart.controller';
import { CurrencyController } from './currency.controller';

/** Storefront cart: every /shop/cart endpoint, the cart page and the currency switch. */
@Module({
  controllers: [
    CartController,
    CartFragmentsController,
    CartCouponController,
    CartGiftCardController,
    CartShareController,
    CartWishlistController,
    CartPageController,
    CurrencyController,
  ],
  providers: [CartSession, CartSummaries, CartFragmentCache, CartShareLinks],
})
export class CartModule {}
