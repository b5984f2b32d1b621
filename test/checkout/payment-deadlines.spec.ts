import request from 'supertest';
import { CouponUsage } from '../../src/commerce/coupons/coupon-usage.entity';
import { Coupon } from '../../src/commerce/coupons/coupon.entity';
import { CouponService } from '../../src/commerce/coupons/coupon.service';
import { orderMailKey } from '../../src/commerce/order-mails/order-mails.service';
import { OrderHistory } from '../../src/commerce/orders/order-history.entity';
import { Order } from '../../src/commerce/orders/order.entity';
import { Product } from '../../src/commerce/products/product.entity';
import { PaymentDeadlines } from '../../src/commerce/payments/payment-deadlines.service';
import { PaymentTransaction } from '../../src/commerce/payments/payment-transaction.entity';
import { SettingsService } from '../../src/config/settings.service';
import { Job } from '../../src/jobs/job.entity';
import { productBySku } from '../support/catalog';
import { addToCart, fillCheckout, placeOrder, shippingValue } from '../support/checkout';
import { freePort } from '../support/free-port';
import { BANK_CONTROL, chooseAtBank, comeBackFromBank, payOnCardPage, placeBankOrder } from '../support/sandbox-bank';
import { ShopClient } from '../support/shop-client';
import { applyGiftCard, issueCard, reloadCard } from '../gift-cards/gift-cards-support';
import { createTestPlace, eventually, startTestApp, TestApp, TestPlace, usingMysql } from '../support/test-app';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const SKU = 'DEMO-HEADLAMP';

/**
 * Unpaid orders give their stock back: past its payment method's deadline an order waiting for payment is
 * canceled once, however many instances sweep at the same time; money that arrives afterwards is kept on record
 * for a refund. And a retry never leaves two bank payments open that could both be paid.
 */
describe(`payment deadlines and retries (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let place: TestPlace;
  let a: TestApp;
  /** A second instance on MariaDB; on SQLite (one process owns the file) A sweeps twice at once instead. */
  let b: TestApp | null = null;
  let flatRate: string;

  beforeAll(async () => {
    place = await createTestPlace();
    // Both instances reach one sandbox bank, the one A serves.
    const env = { PORT: String(await freePort()) };
    a = await startTestApp({ place, listen: true, env });
    if (usingMysql) b = await startTestApp({ place, env });
    flatRate = await shippingValue(a.dataSource, 'flat-rate');
    await a.app.get(SettingsService).save({ salesBankTransferEnabled: true, salesGiftCardsEnabled: true });
  });
  afterAll(async () => {
    await a.app.close();
    await b?.app.close();
    await place.dispose();
  });
  afterEach(() => a.app.get(SettingsService).save({ 'bankpay.paymentType': 'bankPayPlusAPI' }));

  const stockOf = async (sku: string) =>
    (await a.dataSource.getRepository(Product).findOneByOrFail({ id: (await productBySku(a.dataSource, sku)).id }))
      .stock;
  const reload = (id: number) => a.dataSource.getRepository(Order).findOneByOrFail({ id });
  const attempts = (orderId: number) =>
    a.dataSource.getRepository(PaymentTransaction).find({ where: { orderId }, order: { id: 'ASC' } });
  const bankPayment = async (paymentId: string) =>
    (await request(a.server).get(`${BANK_CONTROL}/payments/${paymentId}`).expect(200)).body;
  /** Two sweeps at once, as of `now`; how many orders each canceled. */
  const sweepBoth = (now: number) =>
    Promise.all([a, b ?? a].map((instance) => instance.app.get(PaymentDeadlines).sweep(now)));
  const cancelations = (orderId: number) =>
    a.dataSource.getRepository(OrderHistory).countBy({ orderId, toStatus: 'canceled' });

  it('cancels an abandoned online payment once under sweeps from two instances, and gives everything back once', async () => {
    await a.app.get(CouponService).create({ code: 'DEADLINE10', type: 'percent', value: 10, usageLimit: 5 });
    const card = await issueCard(a, 10);
    const before = await stockOf(SKU);
    const client = new ShopClient(a.server);
    await addToCart(client, (await productBySku(a.dataSource, SKU)).id, 2);
    expect((await client.post('/shop/cart/add-coupon', { coupon_code: 'DEADLINE10' })).status).toBe(200);
    expect((await applyGiftCard(client, card.code)).status).toBe(200);
    await fillCheckout(client, { shippingMethod: flatRate, paymentMethod: 'bankpay' });
    const placed = await placeOrder(client);
    expect(placed.status).toBe(200);
    const order = await a.dataSource.getRepository(Order).findOneByOrFail({ number: placed.body.orderNumber });
    const coupon = () => a.dataSource.getRepository(Coupon).findOneByOrFail({ code: 'DEADLINE10' });
    expect(await stockOf(SKU)).toBe(before - 2);
    expect((await coupon()).timesUsed).toBe(1);
    expect(order.giftCardTotal).toBe(1000);
    expect((await reloadCard(a, card.id)).balance).toBe(0);

    // Within the hour the shopper may still pay.
    expect(await sweepBoth(Date.now() + 50 * MINUTE)).toEqual([0, 0]);
    expect((await reload(order.id)).status).toBe('pending_payment');

    const canceled = await sweepBoth(Date.now() + 61 * MINUTE);
    expect(canceled[0] + canceled[1]).toBe(1);
    expect((await reload(order.id)).status).toBe('canceled');
    expect(await cancelations(order.id)).toBe(1);
    expect(await stockOf(SKU)).toBe(before);
    expect((await coupon()).timesUsed).toBe(0);
    expect(await a.dataSource.getRepository(CouponUsage).countBy({ orderId: order.id })).toBe(0);
    expect((await reloadCard(a, card.id)).balance).toBe(1000);
    const notices = await a.dataSource.getRepository(Job).findBy({ jobKey: `mail:payment-deadline:${order.id}` });
    expect(notices).toHaveLength(1);
    expect(notices[0].payload).toMatchObject({
      to: 'ada@example.com',
      subject: expect.stringContaining(`${order.reference}`),
      text: expect.stringContaining('the order is canceled'),
    });
    // The bank payment nobody started on is withdrawn, so it cannot be paid any more.
    const [attempt] = await attempts(order.id);
    await eventually(async () => (await bankPayment(attempt.reference)).authorizationStatus === 'CANCELLED_BY_TPP');
    await eventually(async () => (await attempts(order.id))[0].status === 'failed');

    // Sweeping again changes nothing.
    expect(await sweepBoth(Date.now() + 2 * DAY)).toEqual([0, 0]);
    expect(await stockOf(SKU)).toBe(before);
    expect((await reloadCard(a, card.id)).balance).toBe(1000);
  });

  it('cancels an order waiting for a bank transfer after salesBankTransferDeadlineDays, once', async () => {
    const before = await stockOf(SKU);
    const { order } = await placeBankOrder(a, flatRate, 'bank-transfer-manual', SKU, 3);
    expect(await stockOf(SKU)).toBe(before - 3);
    expect(await sweepBoth(Date.now() + 6 * DAY)).toEqual([0, 0]);
    expect((await reload(order.id)).status).toBe('pending_payment');

    const canceled = await sweepBoth(Date.now() + 7 * DAY + MINUTE);
    expect(canceled[0] + canceled[1]).toBe(1);
    expect((await reload(order.id)).status).toBe('canceled');
    expect(await cancelations(order.id)).toBe(1);
    expect(await stockOf(SKU)).toBe(before);

    // 0 days: such orders wait for staff however long it takes.
    await a.app.get(SettingsService).save({ salesBankTransferDeadlineDays: 0 });
    const waiting = await placeBankOrder(a, flatRate, 'bank-transfer-manual', SKU, 1);
    expect(await sweepBoth(Date.now() + 365 * DAY)).toEqual([0, 0]);
    expect((await reload(waiting.order.id)).status).toBe('pending_payment');
    await a.app.get(SettingsService).save({ salesBankTransferDeadlineDays: 7 });
  });

  it('records a payment that arrives after the deadline as refund due, and never takes the stock again', async () => {
    const before = await stockOf(SKU);
    const { client, order, redirect } = await placeBankOrder(a, flatRate, 'bankpay', SKU, 1);
    // The shopper pays at the bank but is slow to come back; the deadline passes meanwhile.
    const back = await chooseAtBank(a, redirect, 'card-ok');
    await sweepBoth(Date.now() + 61 * MINUTE);
    expect((await reload(order.id)).status).toBe('canceled');
    expect(await stockOf(SKU)).toBe(before);

    expect(await comeBackFromBank(client, back)).toBe('/shop/checkout/failed');
    const [attempt] = await attempts(order.id);
    expect(attempt).toMatchObject({ status: 'success', paidAmount: order.total, refundDue: true });
    expect((await reload(order.id)).status).toBe('canceled');
    expect(await stockOf(SKU)).toBe(before);
    const notes = await a.dataSource.getRepository(OrderHistory).findBy({ orderId: order.id });
    expect(notes.map((row) => row.note)).toContainEqual(expect.stringContaining('refund due'));
    const staff = new ShopClient(a.server);
    await staff.loginCp();
    const page = await staff.get(`/admin/orders/${order.id}`).set('Accept', 'text/html').expect(200);
    expect(page.text).toMatch(/success · <strong>refund due<\/strong>/);
    // No confirmation goes out for an order that was canceled.
    expect(await a.dataSource.getRepository(Job).countBy({ jobKey: orderMailKey('confirmation', order.id) })).toBe(0);
  });

  it('withdraws the open bank payment before a retry opens another, and offers one the shopper is paying again', async () => {
    const { client, order, redirect } = await placeBankOrder(a, flatRate, 'bankpay', SKU, 1);
    const [first] = await attempts(order.id);
    const age = new Date(Date.now() - 20 * MINUTE);
    await a.dataSource.getRepository(PaymentTransaction).update({ id: first.id }, { dateCreated: age });
    const retry = await client.get(`/shop/order/pay/${order.number}`).set('Accept', 'text/html');
    expect(retry.status).toBe(302);
    expect(retry.headers.location).not.toBe(redirect);
    expect((await bankPayment(first.reference)).authorizationStatus).toBe('CANCELLED_BY_TPP');
    expect((await attempts(order.id)).map((row) => row.status)).toEqual(['failed', 'pending']);
    expect(await comeBackFromBank(client, await chooseAtBank(a, retry.headers.location, 'card-ok'))).toBe(
      '/shop/checkout/success',
    );
    expect((await reload(order.id)).status).toBe('paid');

    // A payment the bank will not withdraw (the shopper has paid it and not come back yet) is not doubled.
    const paying = await placeBankOrder(a, flatRate, 'bankpay', SKU, 1);
    const back = await chooseAtBank(a, paying.redirect, 'card-ok');
    const [open] = await attempts(paying.order.id);
    await a.dataSource.getRepository(PaymentTransaction).update({ id: open.id }, { dateCreated: age });
    const again = await paying.client.get(`/shop/order/pay/${paying.order.number}`).set('Accept', 'text/html');
    expect(again.headers.location).toBe(paying.redirect);
    expect(await attempts(paying.order.id)).toHaveLength(1);
    expect(await comeBackFromBank(paying.client, back)).toBe('/shop/checkout/success');
    expect((await reload(paying.order.id)).status).toBe('paid');
  });

  it('pays a card order once when an old card link is paid after a retry, and records a second payment for refund', async () => {
    await a.app.get(SettingsService).save({ 'bankpay.paymentType': 'bankCardPay' });
    const { client, order, redirect } = await placeBankOrder(a, flatRate, 'bankpay', SKU, 1);
    const [first] = await attempts(order.id);
    await a.dataSource
      .getRepository(PaymentTransaction)
      .update({ id: first.id }, { dateCreated: new Date(Date.now() - 20 * MINUTE) });
    const retry = await client.get(`/shop/order/pay/${order.number}`).set('Accept', 'text/html');
    const second = new URL(retry.headers.location as string);
    expect(second.pathname).toBe('/_sandbox/bankpay/cardpay');

    // Both tabs are still open: the shopper pays the old link, then the new one.
    const comeBack = async (back: URL) => {
      const answer = await client.get(back.pathname + back.search).set('Accept', 'text/html');
      expect(answer.status).toBe(303);
      return answer.headers.location as string;
    };
    const firstBack = await payOnCardPage(a, new URL(redirect), 'OK');
    expect(await comeBack(firstBack)).toBe('/shop/checkout/success');
    expect((await reload(order.id)).status).toBe('paid');
    const secondBack = await payOnCardPage(a, second, 'OK');
    expect(await comeBack(secondBack)).toBe('/shop/checkout/success');
    await comeBack(secondBack); // a replay records nothing more

    expect(await a.dataSource.getRepository(OrderHistory).countBy({ orderId: order.id, toStatus: 'paid' })).toBe(1);
    const rows = await attempts(order.id);
    expect(rows.map(({ status, refundDue }) => [status, refundDue])).toEqual([
      ['failed', false],
      ['success', false],
      ['success', true],
    ]);
    expect(rows[2]).toMatchObject({
      reference: `cardpay-${secondBack.searchParams.get('TID')}`,
      paidAmount: order.total,
    });
  });
});
