import { Injectable } from '@nestjs/common';
import { Cart } from '../carts/cart.entity';
import { CartService } from '../carts/cart.service';
import { WishlistItem } from './wishlist-item.entity';
import { CurrencyService } from '../stores/currency.service';
import { StoreService } from '../stores/store.service';
import { TransactionRunner } from '../../database/transaction-runner';
import { WishlistService } from './wishlist.service';

/** The session's cart as the cart area keeps it (`cartId`, `currency`). */
export interface SessionCart {
  cartId?: number;
  currency?: string;
}

export interface MovedToCart {
  cartId: number;
  wishlistId: number;
  productName: string;
}

/** Moves wishlist items into the shopper's cart. */
@Injectable()
export class WishlistToCart {
  constructor(
    private readonly runner: TransactionRunner,
    private readonly wishlists: WishlistService,
    private readonly carts: CartService,
    private readonly stores: StoreService,
    private readonly currencies: CurrencyService,
  ) {}

  /**
   * One transaction (the cart's own runs join it): when the cart refuses the item (out of stock, options
   * still to choose) nothing changes and the item stays on the list. Opens a cart when the session has none;
   * the caller keeps the returned `cartId` in the session.
   */
  async move(customerId: number, itemId: number, session: SessionCart): Promise<MovedToCart> {
    return this.runner.run(async (tx) => {
      const item = await this.wishlists.ownItem(tx.manager, customerId, itemId);
      const cart = (await this.carts.findOpen(session.cartId)) ?? (await this.openCart(customerId, session.currency));
      const added = await this.carts.add(cart.id, {
        productId: item.productId,
        qty: item.qty,
        configuration: item.configuration ?? undefined,
      });
      await tx.manager.delete(WishlistItem, { id: item.id });
      return { cartId: cart.id, wishlistId: item.wishlistId, productName: added.product.name };
    });
  }

  /** A new cart of the customer in the default store and the session's currency, as the cart area opens one. */
  private async openCart(customerId: number, currencyCode?: string): Promise<Cart> {
    const [store, currency] = await Promise.all([this.stores.default(), this.currencies.chosenOrBase(currencyCode)]);
    return this.carts.create(store.id, currency.code, customerId);
  }
}
