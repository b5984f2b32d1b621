import request from 'supertest';
import { sandboxMerchantKey } from '../../src/common/sandbox-merchant-key';
import { OrderHistory } from '../../src/commerce/orders/order-history.entity';
import { Order } from '../../src/commerce/orders/order.entity';
import { PaymentTransaction } from '../../src/commerce/payments/payment-transaction.entity';
import { SettingsService } from '../../src/config/settings.service';
import {
  cardPayHmac,
  RETURN_SIGNED_FIELDS,
  signingString,
} from '../../src/plugins/bankpay/card-pay/card-pay-signature';
import { cardPayTimestamp } from '../../src/plugins/bankpay/card-pay/card-pay.service';
import { productBySku } from '../support/catalog';
import { addToCart, fillCheckout, placeOrder, shippingValue } from '../support/checkout';
import { payOnCardPage } from '../support/sandbox-bank';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp, usingMysql } from '../support/test-app';

/**
 * The card redirect (`bankCardPay`): a signed request to the sandbox card page and a signed return that is
 * honoured only when it verifies and is about this order's amount; forgeries leave the order waiting.
 */
describe(`bankpay card redirect (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let flatRate: string;
  /** The sandbox bank's key for MID `demo`, which the demo shop is configured with: this install's own. */
  let demoKey: string;
  beforeAll(async () => {
    shop = await startTestApp({ listen: true });
    demoKey = sandboxMerchantKey(shop.config.sessionSecret);
    flatRate = await shippingValue(shop.dataSource, 'flat-rate');
    await shop.app.get(SettingsService).save({ 'bankpay.paymentType': 'bankCardPay' });
  });
  afterAll(() => shop.close());

  const reload = (id: number) => shop.dataSource.getRepository(Order).findOneByOrFail({ id });
  const attempts = (orderId: number) =>
    shop.dataSource.getRepository(PaymentTransaction).find({ where: { orderId }, order: { id: 'ASC' } });

  async function placed() {
    const client = new ShopClient(shop.server);
    await addToCart(client, (await productBySku(shop.dataSource, 'DEMO-HEADLAMP')).id, 2);
    await fillCheckout(client, { shippingMethod: flatRate, paymentMethod: 'bankpay' });
    const answer = await placeOrder(client);
    expect(answer.status).toBe(200);
    const order = await shop.dataSource.getRepository(Order).findOneByOrFail({ number: answer.body.orderNumber });
    return { client, order, redirect: new URL(answer.body.redirect as string) };
  }

  const cardPage = (redirect: URL, result: 'OK' | 'FAIL' | 'TOUT') => payOnCardPage(shop, redirect, result);

  async function comeBack(client: ShopClient, back: URL | Record<string, string>, orderNumber?: string) {
    const path =
      back instanceof URL
        ? back.pathname + back.search
        : `/shop/checkout/process-payment?${new URLSearchParams({ order: orderNumber!, ...back })}`;
    const answer = await client.get(path).set('Accept', 'text/html');
    expect(answer.status).toBe(303);
    return answer.headers.location as string;
  }

  /** A return as the bank would sign it with `key`. */
  function signedReturn(fields: Record<string, string>, key = demoKey): Record<string, string> {
    return { ...fields, HMAC: cardPayHmac(key, signingString(RETURN_SIGNED_FIELDS, fields)) };
  }

  it('sends the shopper to the card page with a request the bank verifies, and a signed OK marks the order paid', async () => {
    const { client, order, redirect } = await placed();
    expect(redirect.pathname).toBe('/_sandbox/bankpay/cardpay');
    expect(Object.fromEntries(redirect.searchParams)).toMatchObject({
      MID: 'demo',
      AMT: (order.total / 100).toFixed(2),
      CURR: '978',
      VS: String(order.id),
      RURL: `${shop.config.baseUrl}/shop/checkout/process-payment?order=${order.number}`,
      NAME: 'Ada Lovelace',
      REM: 'ada@example.com',
      TIMESTAMP: expect.stringMatching(/^\d{14}$/),
      HMAC: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const back = await cardPage(redirect, 'OK');
    expect(back.searchParams.get('RES')).toBe('OK');
    expect(await comeBack(client, back)).toBe('/shop/checkout/success');
    expect((await reload(order.id)).status).toBe('paid');
    const [attempt] = await attempts(order.id);
    expect(attempt).toMatchObject({ status: 'success', paidAmount: order.total });
    expect(attempt.extra.cardPay).toMatchObject({ MID: 'demo', VS: String(order.id) });
  });

  it('refuses a tampered request on the bank side', async () => {
    const { redirect } = await placed();
    redirect.searchParams.set('AMT', '0.01');
    const page = await request(shop.server).get(redirect.pathname + redirect.search);
    expect(page.status).toBe(400);
    expect(page.text).toContain('HMAC');
  });

  it('leaves the order pending_payment for forged, foreign, wrong-amount and stale returns, and says it is not confirmed', async () => {
    const { client, order, redirect } = await placed();
    const amount = (order.total / 100).toFixed(2);
    const now = cardPayTimestamp(new Date());
    const genuine = {
      AMT: amount,
      CURR: '978',
      VS: String(order.id),
      RES: 'OK',
      AC: '123456',
      TID: '777',
      TIMESTAMP: now,
    };
    const forgeries: Array<Record<string, string>> = [
      { ...genuine, HMAC: 'ab'.repeat(32) }, // bad signature
      genuine, // no signature
      signedReturn(genuine, 'ff'.repeat(64)), // signed with another key
      signedReturn({ ...genuine, AMT: '0.01' }), // wrong amount
      signedReturn({ ...genuine, CURR: '203' }), // wrong currency
      signedReturn({ ...genuine, VS: String(order.id + 1000) }), // another order
      signedReturn({ ...genuine, TIMESTAMP: cardPayTimestamp(new Date(Date.now() - 2 * 60 * 60 * 1000)) }), // stale
    ];
    for (const forged of forgeries) {
      expect(await comeBack(client, forged, order.number)).toBe('/shop/checkout/failed?unconfirmed=1');
      expect((await reload(order.id)).status).toBe('pending_payment');
    }
    expect((await attempts(order.id)).map((row) => row.status)).toEqual(['pending']);
    // Never "thank you": the page says the payment is not confirmed and offers to pay.
    const page = await client.get('/shop/checkout/failed?unconfirmed=1').set('Accept', 'text/html').expect(200);
    expect(page.text).toContain('We could not confirm your payment');
    expect(page.text).toContain(`href="/shop/order/pay/${order.number}"`);
    expect(page.text).not.toContain('Thank you');
    // The retry goes back to the bank with the same open payment, and the genuine return pays.
    const retry = await client.get(`/shop/order/pay/${order.number}`).set('Accept', 'text/html');
    expect(retry.status).toBe(302);
    expect(retry.headers.location).toBe(redirect.toString());
    expect(await comeBack(client, await cardPage(new URL(retry.headers.location), 'OK'))).toBe(
      '/shop/checkout/success',
    );
    expect((await reload(order.id)).status).toBe('paid');
    // Once paid, the unconfirmed page is the success page.
    const after = await client.get('/shop/checkout/failed?unconfirmed=1').set('Accept', 'text/html');
    expect(after.headers.location).toBe('/shop/checkout/success');
  });

  it('fails a declined card, keeps the order payable, and the retry from the failed page pays', async () => {
    const { client, order, redirect } = await placed();
    expect(await comeBack(client, await cardPage(redirect, 'FAIL'))).toBe('/shop/checkout/failed');
    expect((await reload(order.id)).status).toBe('pending_payment');
    const retry = await client.get(`/shop/order/pay/${order.number}`).set('Accept', 'text/html');
    expect(retry.status).toBe(302);
    const again = new URL(retry.headers.location as string);
    expect(again.pathname).toBe('/_sandbox/bankpay/cardpay');
    expect(await comeBack(client, await cardPage(again, 'OK'))).toBe('/shop/checkout/success');
    expect((await reload(order.id)).status).toBe('paid');
    expect((await attempts(order.id)).map((row) => row.status)).toEqual(['failed', 'success']);
  });

  it('applies a genuine return once, however often and concurrently it arrives', async () => {
    const { client, order, redirect } = await placed();
    const back = await cardPage(redirect, 'OK');
    await Promise.all(Array.from({ length: 10 }, () => comeBack(new ShopClient(shop.server), back)));
    for (let i = 0; i < 20; i++) await comeBack(client, back);
    expect(await shop.dataSource.getRepository(OrderHistory).countBy({ orderId: order.id, toStatus: 'paid' })).toBe(1);
  });

  it("checks the bank's ECDSA signature once its public keys are configured", async () => {
    const keys = (await request(shop.server).get('/_sandbox/bankpay/cardpay/keys').expect(200)).body.keys as Array<{
      id: string;
      pem: string;
    }>;
    await shop.app
      .get(SettingsService)
      .save({ 'bankpay.cardPayPublicKeys': Object.fromEntries(keys.map((key) => [key.id, key.pem])) });
    try {
      const tampered = await placed();
      const back = await cardPage(tampered.redirect, 'OK');
      const ecdsa = back.searchParams.get('ECDSA')!;
      back.searchParams.set('ECDSA', `${ecdsa.slice(0, -2)}${ecdsa.endsWith('00') ? '11' : '00'}`);
      await comeBack(tampered.client, back);
      expect((await reload(tampered.order.id)).status).toBe('pending_payment');

      const genuine = await placed();
      expect(await comeBack(genuine.client, await cardPage(genuine.redirect, 'OK'))).toBe('/shop/checkout/success');
      expect((await reload(genuine.order.id)).status).toBe('paid');
    } finally {
      await shop.app.get(SettingsService).save({ 'bankpay.cardPayPublicKeys': {} });
    }
  });
});
