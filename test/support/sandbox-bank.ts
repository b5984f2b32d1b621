import request from 'supertest';
import { Order } from '../../src/commerce/orders/order.entity';
import { productBySku } from './catalog';
import { addToCart, fillCheckout, placeOrder } from './checkout';
import { ShopClient } from './shop-client';
import { TestApp } from './test-app';

/** The sandbox bank's test switches (src/sandbox/bankpay). */
export const BANK_CONTROL = '/_sandbox/bankpay/_control';

/** A shopper who placed an order paid with `code`; `redirect` is where place-order sends them. */
export async function placeBankOrder(
  shop: TestApp,
  shippingMethod: string,
  code: string,
  sku = 'DEMO-HEADLAMP',
  qty = 1,
) {
  const client = new ShopClient(shop.server);
  await addToCart(client, (await productBySku(shop.dataSource, sku)).id, qty);
  await fillCheckout(client, { shippingMethod, paymentMethod: code });
  const answer = await placeOrder(client);
  expect(answer.status).toBe(200);
  const order = await shop.dataSource.getRepository(Order).findOneByOrFail({ number: answer.body.orderNumber });
  return { client, order, redirect: answer.body.redirect as string };
}

/** The shopper opens the sandbox bank's page and picks an outcome; the bank's 303 back to the shop. */
export async function chooseAtBank(shop: TestApp, redirect: string, outcome: string): Promise<string> {
  const page = new URL(redirect).pathname;
  await request(shop.server).get(page).expect(200);
  const answer = await request(shop.server).post(page).type('form').send({ outcome });
  expect(answer.status).toBe(303);
  return answer.headers.location as string;
}

/** The shopper's browser follows the bank back into the shop; where the shop sends them next. */
export async function comeBackFromBank(client: ShopClient, location: string): Promise<string> {
  const url = new URL(location);
  const answer = await client.get(url.pathname + url.search).set('Accept', 'text/html');
  expect(answer.status).toBe(303);
  return answer.headers.location as string;
}

/** The shopper presses a button on the sandbox CardPay page; the bank's signed 303 back to the shop. */
export async function payOnCardPage(shop: TestApp, redirect: URL, result: 'OK' | 'FAIL' | 'TOUT'): Promise<URL> {
  const page = await request(shop.server).get(redirect.pathname + redirect.search);
  expect(page.status).toBe(200);
  const fields = Object.fromEntries(redirect.searchParams);
  const answer = await request(shop.server)
    .post(redirect.pathname)
    .type('form')
    .send({ ...fields, result });
  expect(answer.status).toBe(303);
  return new URL(answer.headers.location as string);
}
