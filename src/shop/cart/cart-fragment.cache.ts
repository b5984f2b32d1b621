import { CACHE_MANAGER } from '@nestjs/cache-manager';
import { Inject, Injectable } from '@nestjs/common';
import type { Cache } from 'cache-manager';
import { CART_CHANGED } from '../../commerce/carts/cart.service';
import { OnDomainEvent } from '../../common/domain-events';
import { CartView } from './cart-view';

const TTL_MS = 10 * 60 * 1000;

/**
 * What the cart fragments (`get-items`, `get-totals`) show, priced and formatted: pricing is the cost, the template
 * is cheap to fill again. One cache entry per cart holds every variant (fragment × store view × language × currency),
 * so a cart change drops them all with a single delete.
 */
@Injectable()
export class CartFragmentCache {
  constructor(@Inject(CACHE_MANAGER) private readonly cache: Cache) {}

  async get(cartId: number, variant: string): Promise<CartView | undefined> {
    return (await this.cache.get<Record<string, CartView>>(this.key(cartId)))?.[variant];
  }

  async set(cartId: number, variant: string, view: CartView): Promise<void> {
    const entry = (await this.cache.get<Record<string, CartView>>(this.key(cartId))) ?? {};
    await this.cache.set(this.key(cartId), { ...entry, [variant]: view }, TTL_MS);
  }

  @OnDomainEvent(CART_CHANGED)
  async forget({ cartId }: { cartId: number }): Promise<void> {
    await this.cache.del(this.key(cartId));
  }

  private key(cartId: number): string {
    // Not `cart-fragments:`, whose entries held rendered HTML before.
    return `cart-fragment-views:${cartId}`;
  }
}
