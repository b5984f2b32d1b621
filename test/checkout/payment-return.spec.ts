import request from 'supertest';
import { orderMailKey } from '../../src/commerce/order-mails/order-mails.service';
import { OrderHistory } from '../../src/commerce/orders/order-history.entity';
import { Order } from '../../src/commerce/orders/order.entity';
import { PaymentTransaction } from '../../src/commerce/payments/payment-transaction.entity';
import { Job } from '../../src/jobs/job.entity';
import { productBySku } from '../support/catalog';
import { addToCart, fillCheckout, placeOrder, shippingValue } from '../support/checkout';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp, usingMysql } from '../support/test-app';
import { testGateway, TestPluginModule } from '../support/test-plugin.module';

/**
 * Online payment through a gateway plugin (the test gateway stands in for bankpay): the redirect, the
 * shopper's return applied once, failures that keep the order payable, cancellations that close it.
 */
describe(`payment return (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let flatRate: string;
  beforeAll(async () => {
    shop = await startTestApp({ extraModules: [TestPluginModule] });
    flatRate = await shippingValue(shop.dataSource, 'flat-rate');
  });
  afterAll(() => shop.close());
  afterEach(() => (testGateway.down = false));

  const transactions = (orderId: number) =>
    shop.dataSource.getRepository(PaymentTransaction).find({ where: { orderId }, order: { id: 'ASC' } });
  const reload = (order: Order) => shop.dataSource.getRepository(Order).findOneByOrFail({ id: order.id });
  const history = async (order: Order) =>
    (
      await shop.dataSource.getRepository(OrderHistory).find({ where: { orderId: order.id }, order: { id: 'ASC' } })
    ).map((row) => [row.fromStatus, row.toStatus, row.actor]);
  const confirmations = (order: Order) =>
    shop.dataSource.getRepository(Job).countBy({ jobKey: orderMailKey('confirmation', order.id) });

  /** A shopper with a placed test-pay order, sent to the gateway. */
  async function placedOrder(sku = 'DEMO-HEADLAMP') {
    const client = new ShopClient(shop.server);
    await addToCart(client, (await productBySku(shop.dataSource, sku)).id, 1);
    await fillCheckout(client, { shippingMethod: flatRate, paymentMethod: 'test-pay' });
    const placed = await placeOrder(client);
    expect(placed.status).toBe(200);
    const order = await shop.dataSource.getRepository(Order).findOneByOrFail({ number: placed.body.orderNumber });
    return { client, order, redirect: placed.body.redirect as string };
  }

  const back = (client: ShopClient, order: Order, params: Record<string, string>) =>
    client
      .get('/shop/checkout/process-payment')
      .query({ order: order.number, ...params })
      .set('Accept', 'text/html');

  it('sends the shopper to the gateway and marks the order paid once when they come back, however often', async () => {
    const { client, order, redirect } = await placedOrder();
    const [attempt] = await transactions(order.id);
    expect(redirect).toBe(
      `https://bank.test/pay?payment=${attempt.reference}&back=${encodeURIComponent(
        `http://localhost:3000/shop/checkout/process-payment?order=${order.number}`,
      )}`,
    );
    expect(attempt).toMatchObject({
      gateway: 'test-pay',
      code: 'test-pay',
      reference: `tp-${order.number}-1`,
      status: 'pending',
    });
    expect(attempt.extra).toMatchObject({ redirectUrl: redirect });
    expect(order.status).toBe('pending_payment');
    expect(await confirmations(order)).toBe(0); // not confirmed before it is paid

    const returned = await back(client, order, { payment: attempt.reference, result: 'ok' });
    expect(returned.status).toBe(303);
    expect(returned.headers.location).toBe('/shop/checkout/success');
    // Reloads, replays and a burst of concurrent returns change nothing more.
    await back(client, order, { payment: attempt.reference, result: 'ok' });
    const burst = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        back(client, order, { payment: attempt.reference, result: i % 2 ? 'ok' : 'cancel' }),
      ),
    );
    expect(burst.map((res) => res.headers.location)).toEqual(Array(8).fill('/shop/checkout/success'));

    expect((await reload(order)).status).toBe('paid');
    expect(await transactions(order.id)).toEqual([
      expect.objectContaining({ status: 'success', paidAmount: order.total, amount: order.total }),
    ]);
    expect(await history(order)).toEqual([
      [null, 'pending_payment', 'customer'],
      ['pending_payment', 'paid', 'gateway:test-pay'],
    ]);
    expect(await confirmations(order)).toBe(1);
    const page = await client.get('/shop/checkout/success').set('Accept', 'text/html').expect(200);
    expect(page.text).toContain('Paid');
    // The failed page is not for a paid order.
    const failed = await client.get('/shop/checkout/failed').set('Accept', 'text/html');
    expect(failed.status).toBe(302);
    expect(failed.headers.location).toBe('/shop/checkout/success');
  });

  it('keeps the order payable after a failed payment and lets the shopper try again from the failed page', async () => {
    const { client, order } = await placedOrder();
    const [first] = await transactions(order.id);
    const failed = await back(client, order, { payment: first.reference, result: 'fail' });
    expect(failed.headers.location).toBe('/shop/checkout/failed');
    expect((await reload(order)).status).toBe('pending_payment');

    const page = await client.get('/shop/checkout/failed').set('Accept', 'text/html').expect(200);
    expect(page.text).toContain('Try the payment again');
    expect(page.text).toContain(`href="/shop/order/pay/${order.number}"`);
    // The success page is not for a failed payment.
    expect((await client.get('/shop/checkout/success').set('Accept', 'text/html')).headers.location).toBe(
      '/shop/checkout/failed',
    );

    const retry = await client.get(`/shop/order/pay/${order.number}`).set('Accept', 'text/html');
    expect(retry.status).toBe(302);
    const [, second] = await transactions(order.id);
    expect(second).toMatchObject({ reference: `tp-${order.number}-2`, status: 'pending' });
    expect(retry.headers.location).toContain(`payment=tp-${order.number}-2`);
    // Asking again while that attempt is open offers the same gateway page, not a third attempt.
    const again = await client.get(`/shop/order/pay/${order.number}`).set('Accept', 'text/html');
    expect(again.headers.location).toBe(retry.headers.location);
    expect(await transactions(order.id)).toHaveLength(2);

    const paid = await back(client, order, { payment: second.reference, result: 'ok' });
    expect(paid.headers.location).toBe('/shop/checkout/success');
    expect((await reload(order)).status).toBe('paid');
    expect((await transactions(order.id)).map((attempt) => attempt.status)).toEqual(['failed', 'success']);
    // Paid now: nothing more to pay.
    const done = await client.get(`/shop/order/pay/${order.number}`).set('Accept', 'text/html');
    expect(done.headers.location).toBe(`/shop/order/view/${order.number}`);
    expect((await client.get(done.headers.location).set('Accept', 'text/html')).text).toContain(
      'This order does not await payment.',
    );
  });

  it('cancels the order when the shopper cancels at the gateway, and puts its goods back in stock', async () => {
    const before = await productBySku(shop.dataSource, 'DEMO-POT-TI');
    const { client, order } = await placedOrder('DEMO-POT-TI');
    expect((await productBySku(shop.dataSource, 'DEMO-POT-TI')).stock).toBe(before.stock - 1);
    const [attempt] = await transactions(order.id);

    const canceled = await back(client, order, { payment: attempt.reference, result: 'cancel' });
    expect(canceled.headers.location).toBe('/shop/checkout/failed');
    expect((await reload(order)).status).toBe('canceled');
    expect((await productBySku(shop.dataSource, 'DEMO-POT-TI')).stock).toBe(before.stock);
    // A late "paid" return for the canceled attempt changes nothing.
    await back(client, order, { payment: attempt.reference, result: 'ok' });
    expect((await reload(order)).status).toBe('canceled');
    expect((await productBySku(shop.dataSource, 'DEMO-POT-TI')).stock).toBe(before.stock);

    const page = await client.get('/shop/checkout/failed').set('Accept', 'text/html').expect(200);
    expect(page.text).toContain('The payment was canceled and the order is closed.');
    expect(page.text).not.toContain('Try the payment again');
    expect(await confirmations(order)).toBe(0);
  });

  it('puts a payment the bank still confirms into review, and leaves an unknown answer pending', async () => {
    const review = await placedOrder();
    const [attempt] = await transactions(review.order.id);
    await back(review.client, review.order, { payment: attempt.reference, result: 'review' });
    expect((await reload(review.order)).status).toBe('payment_review');
    expect((await transactions(review.order.id))[0].status).toBe('review');
    const page = await review.client.get('/shop/checkout/success').set('Accept', 'text/html').expect(200);
    expect(page.text).toContain('Payment being confirmed by the bank');
    expect(await confirmations(review.order)).toBe(1);

    const unknown = await placedOrder();
    const [open] = await transactions(unknown.order.id);
    const res = await back(unknown.client, unknown.order, { payment: open.reference, result: 'SOMETHING_NEW' });
    expect(res.headers.location).toBe('/shop/checkout/success');
    expect((await reload(unknown.order)).status).toBe('pending_payment');
    expect((await transactions(unknown.order.id))[0].status).toBe('pending');
    // A return naming another payment is ignored too.
    await back(unknown.client, unknown.order, { payment: 'tp-forged', result: 'ok' });
    expect((await reload(unknown.order)).status).toBe('pending_payment');
    expect((await transactions(unknown.order.id))[0].status).toBe('pending');
  });

  it('sends the shopper to the failed page when the gateway cannot be reached, and pays later', async () => {
    testGateway.down = true;
    const { client, order, redirect } = await placedOrder();
    expect(redirect).toBe('/shop/checkout/failed');
    expect((await reload(order)).status).toBe('pending_payment');
    expect((await transactions(order.id))[0].status).toBe('failed');
    const notes = await shop.dataSource.getRepository(OrderHistory).findBy({ orderId: order.id });
    expect(notes.map((row) => row.note)).toContain('The payment could not be started');

    testGateway.down = false;
    const retry = await client.get(`/shop/order/pay/${order.number}`).set('Accept', 'text/html');
    expect(retry.headers.location).toMatch(/^https:\/\/bank\.test\/pay\?payment=tp-/);
  });

  it('takes the return as a cross-site form post, without the session or a CSRF token', async () => {
    const { order } = await placedOrder();
    const [attempt] = await transactions(order.id);
    const res = await request(shop.server)
      .post(`/shop/checkout/process-payment/${order.number}`)
      .type('form')
      .send({ payment: attempt.reference, result: 'ok' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/shop/checkout/success');
    expect((await reload(order)).status).toBe('paid');
  });

  it('answers a return for an unknown order with 404', async () => {
    const res = await request(shop.server)
      .get('/shop/checkout/process-payment')
      .query({ order: 'f'.repeat(32), result: 'ok' });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
    const post = await request(shop.server).post('/shop/checkout/process-payment/nope').send({ result: 'ok' });
    expect(post.status).toBe(404);
  });
});
