import { IsNull } from 'typeorm';
import { Cart } from '../../src/commerce/carts/cart.entity';
import { productBySku } from '../support/catalog';
import { ADDRESS, addToCart } from '../support/checkout';
import { ShopClient } from '../support/shop-client';
import { TestApp } from '../support/test-app';

export const MINUTE = 60_000;
export const RECOVER = '/shop/marketing/abandoned-carts/recover';

/**
 * A shopper who put `items` (SKU → qty) in a cart and gave an e-mail at checkout, then went quiet; by default they
 * ticked the consent to marketing e-mail, without which no reminder goes out.
 */
export async function cartWithEmail(
  shop: TestApp,
  email: string,
  items: Record<string, number>,
  consent: { marketingConsent?: boolean; marketingOptOut?: boolean } = { marketingConsent: true },
) {
  const client = new ShopClient(shop.server);
  for (const [sku, qty] of Object.entries(items)) {
    await addToCart(client, (await productBySku(shop.dataSource, sku)).id, qty);
  }
  const saved = await client.post('/shop/checkout/save', { email, billingAddress: ADDRESS, ...consent });
  if (saved.status !== 200) throw new Error(`checkout save failed: ${saved.status} ${JSON.stringify(saved.body)}`);
  const cart = await shop.dataSource.getRepository(Cart).findOneByOrFail({ email, orderedAt: IsNull() });
  return { client, cart };
}

/** Moves the cart's last activity `minutes` into the past, as if the shopper had left then. */
export async function idleFor(shop: TestApp, cartId: number, minutes: number): Promise<void> {
  await shop.dataSource.getRepository(Cart).update({ id: cartId }, { lastActivityAt: Date.now() - minutes * MINUTE });
}
