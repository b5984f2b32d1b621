import { CACHE_MANAGER } from '@nestjs/cache-manager';
import { Inject, Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import type { Cache } from 'cache-manager';
import { CART_CHANGED } from '../../commerce/carts/cart.service';

const TTL_MS = 10 * 60 * 1000;

/**
 * Rendered cart fragments (`get-items`, `get-totals`), one cache entry per cart holding every variant
 * (fragment × store view × currency), so a cart change drops them all with a single delete.
 */
@Injectable()
export class CartFragmentCache {
  constructor(@Inject(CACHE_MANAGER) private readonly cache: Cache) {}

  async get(cartId: number, variant: string): Promise<string | undefined> {
    return (await this.cache.get<Record<string, string>>(this.key(cartId)))?.[variant];
  }

  async set(cartId: number, variant: string, html: string): Promise<void> {
    const entry = (await this.cache.get<Record<string, string>>(this.key(cartId))) ?? {};
    await this.cache.set(this.key(cartId), { ...entry, [variant]: html }, TTL_MS);
  }

  @OnEvent(CART_CHANGED)
  async forget({ cartId }: { cartId: number }): Promise<void> {
    await this.cache.del(this.key(cartId));
  }

  private key(cartId: number): string {
    return `cart-fragments:${cartId}`;
  }
}
