import { DataSource } from 'typeorm';
import { ShippingMethod } from '../../src/commerce/shipping/shipping-method.entity';
import { ShopClient } from './shop-client';

export const AJAX = { 'X-Requested-With': 'XMLHttpRequest' };

export const ADDRESS = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  street: 'Hlavná 1',
  city: 'Bratislava',
  zipCode: '811 01',
  country: 'SK',
  phone: '+421 900 123 456',
};

/** `core:flat-rate:<id>` and friends, as get-shipping-methods offers them. */
export async function shippingValue(dataSource: DataSource, handle: string, type = 'core'): Promise<string> {
  const method = await dataSource.getRepository(ShippingMethod).findOneByOrFail({ type, handle });
  return `${type}:${handle}:${method.id}`;
}

/** An AJAX add-to-cart that must succeed. */
export async function addToCart(client: ShopClient, product: number, qty = 1, extra: object = {}) {
  const token = await client.csrfToken();
  const res = await client.agent
    .post('/shop/cart/add')
    .set('X-CSRF-Token', token)
    .set(AJAX)
    .send({ product, qty, ...extra });
  if (res.status !== 200) throw new Error(`add to cart failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res;
}

export interface CheckoutChoices {
  email?: string;
  address?: typeof ADDRESS;
  shippingMethod: string;
  paymentMethod: string;
  extra?: Record<string, unknown>;
}

/** Saves details, shipping and payment the way the checkout page's scripts do; each save must succeed. */
export async function fillCheckout(client: ShopClient, choices: CheckoutChoices) {
  const saves: Array<[string, object]> = [
    [
      '/shop/checkout/save',
      { email: choices.email ?? 'ada@example.com', billingAddress: choices.address ?? ADDRESS, ...choices.extra },
    ],
    ['/shop/checkout/save-shipping-method', { shippingMethod: choices.shippingMethod }],
    ['/shop/checkout/save-payment-method', { paymentMethod: choices.paymentMethod }],
  ];
  let last;
  for (const [path, body] of saves) {
    last = await client.post(path, body);
    if (last.status !== 200) throw new Error(`${path} failed: ${last.status} ${JSON.stringify(last.body)}`);
  }
  return last!;
}

/** place-order as the checkout page's script sends it. */
export async function placeOrder(client: ShopClient, body: object = {}, headers: Record<string, string> = {}) {
  const token = await client.csrfToken();
  return client.agent.post('/shop/checkout/place-order').set('X-CSRF-Token', token).set(AJAX).set(headers).send(body);
}
