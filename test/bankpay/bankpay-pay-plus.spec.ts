import { Logger } from '@nestjs/common';
import request from 'supertest';
import { orderMailKey } from '../../src/commerce/order-mails/order-mails.service';
import { OrderHistory } from '../../src/commerce/orders/order-history.entity';
import { Order } from '../../src/commerce/orders/order.entity';
import { PaymentTransaction } from '../../src/commerce/payments/payment-transaction.entity';
import { SettingRow } from '../../src/config/setting.entity';
import { SettingsService } from '../../src/config/settings.service';
import { Job } from '../../src/jobs/job.entity';
import { productBySku } from '../support/catalog';
import { addToCart, fillCheckout, placeOrder, shippingValue } from '../support/checkout';
import { BANK_CONTROL, chooseAtBank, comeBackFromBank, placeBankOrder } from '../support/sandbox-bank';
import { ShopClient } from '../support/shop-client';
import { eventually, startTestApp, TestApp, usingMysql } from '../support/test-app';

/**
 * The bank gateway over its REST API against the sandbox bank on loopback: every method from place-order
 * to the order status the bank's answers call for, returns applied once, a bank that is down, and the poller.
 */
describe(`bankpay REST API (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let flatRate: string;
  beforeAll(async () => {
    // 50 shoppers start payments at once against the sandbox bank in this same process; on a busy CI machine one
    // bank call was seen to take over 2.5 s, so this app waits 5 s (still short of the sandbox's slow mode, 6 s).
    shop = await startTestApp({ listen: true, env: { OUTBOUND_TIMEOUT_MS: '5000' } });
    flatRate = await shippingValue(shop.dataSource, 'flat-rate');
  });
  afterAll(() => shop.close());

  const placed = (code: string, sku?: string, qty?: number) => placeBankOrder(shop, flatRate, code, sku, qty);
  const choose = (redirect: string, outcome: string) => chooseAtBank(shop, redirect, outcome);
  const comeBack = comeBackFromBank;
  afterEach(async () => {
    await bank().post(`${BANK_CONTROL}/mode`).send({ mode: 'normal' }).expect(200);
    await shop.app.get(SettingsService).save({ 'bankpay.sandbox': false });
  });

  const bank = () => request(shop.server);
  const reload = (id: number) => shop.dataSource.getRepository(Order).findOneByOrFail({ id });
  const attempts = (orderId: number) =>
    shop.dataSource.getRepository(PaymentTransaction).find({ where: { orderId }, order: { id: 'ASC' } });
  const paidTransitions = async (orderId: number) =>
    shop.dataSource.getRepository(OrderHistory).countBy({ orderId, toStatus: 'paid' });
  const bankPayment = async (paymentId: string) =>
    (await bank().get(`${BANK_CONTROL}/payments/${paymentId}`).expect(200)).body;

  it('pays by card: the bank creates the payment as its API documents and the return marks the order paid', async () => {
    const { client, order, redirect } = await placed('bankpay');
    expect(redirect).toMatch(/\/_sandbox\/bankpay\/pay\/[0-9a-f-]{36}$/);
    const [attempt] = await attempts(order.id);
    expect(attempt).toMatchObject({ gateway: 'bankpay', code: 'bankpay', status: 'pending' });
    expect(attempt.extra).toMatchObject({
      paymentId: attempt.reference,
      preferredMethod: 'CARD_PAY',
      redirectUrl: redirect,
    });
    const sent = await bankPayment(attempt.reference);
    expect(sent).toMatchObject({
      preferredMethod: 'CARD_PAY',
      redirectUri: `${shop.config.baseUrl}/shop/checkout/process-payment?order=${order.number}`,
      ipAddress: expect.any(String),
    });
    expect(sent.body).toMatchObject({
      basePayment: {
        instructedAmount: { amountValue: order.total / 100, currency: 'EUR' },
        endToEnd: { variableSymbol: String(order.id) },
      },
      userData: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
      cardDetail: { cardHolder: 'Ada Lovelace' },
    });
    expect(sent.requestId).toMatch(/^[0-9a-f-]{36}$/);

    const back = await choose(redirect, 'card-ok');
    expect(back).toContain(`paymentId=${attempt.reference}`);
    expect(back).toContain('paymentMethod=CARD_PAY');
    expect(await comeBack(client, back)).toBe('/shop/checkout/success');
    expect((await reload(order.id)).status).toBe('paid');
    const [settled] = await attempts(order.id);
    expect(settled).toMatchObject({ status: 'success', paidAmount: order.total });
  });

  it('sends bank transfer and QR payments to payment review, and the poller marks them paid once the bank settles', async () => {
    await bank().post(`${BANK_CONTROL}/settings`).send({ settleAfterMs: 60_000 }).expect(200);
    const transfer = await placed('bankpay-bank');
    const qr = await placed('bankpay-qr');
    const transferAttempt = (await attempts(transfer.order.id))[0];
    expect((await bankPayment(transferAttempt.reference)).body.bankTransfer).toEqual({
      remittanceInformationUnstructured: `Order ${transfer.order.reference}`,
    });
    expect(await comeBack(transfer.client, await choose(transfer.redirect, 'bank-transfer'))).toBe(
      '/shop/checkout/success',
    );
    expect(await comeBack(qr.client, await choose(qr.redirect, 'qr'))).toBe('/shop/checkout/success');
    expect((await reload(transfer.order.id)).status).toBe('payment_review');
    expect((await reload(qr.order.id)).status).toBe('payment_review');

    // A poll while the money is on its way changes nothing; once it arrived, the order is paid.
    const runPollsNow = () =>
      shop.dataSource.getRepository(Job).update({ name: 'payment.poll', status: 'pending' }, { runAt: Date.now() });
    await runPollsNow();
    await eventually(
      async () => (await shop.dataSource.getRepository(Job).countBy({ name: 'payment.poll', status: 'done' })) >= 2,
    );
    expect((await reload(transfer.order.id)).status).toBe('payment_review');
    await bank().post(`${BANK_CONTROL}/settings`).send({ settleAfterMs: 0 }).expect(200);
    await runPollsNow();
    await eventually(async () => (await reload(transfer.order.id)).status === 'paid');
    await eventually(async () => (await reload(qr.order.id)).status === 'paid');
    expect(await paidTransitions(transfer.order.id)).toBe(1);
    expect((await attempts(qr.order.id))[0]).toMatchObject({ status: 'success', paidAmount: qr.order.total });
  });

  it('cancels the order when the card is declined or the shopper cancels at the bank', async () => {
    const declined = await placed('bankpay');
    expect(await comeBack(declined.client, await choose(declined.redirect, 'card-declined'))).toBe(
      '/shop/checkout/failed',
    );
    expect((await reload(declined.order.id)).status).toBe('canceled');
    const canceled = await placed('bankpay-qr');
    const back = await choose(canceled.redirect, 'cancel');
    expect(back).toContain('error=CANCELLED_BY_USER');
    expect(await comeBack(canceled.client, back)).toBe('/shop/checkout/failed');
    expect((await reload(canceled.order.id)).status).toBe('canceled');
    expect((await attempts(canceled.order.id))[0].status).toBe('canceled');
  });

  it('pays later with a loan: the application carries the order lines, a disbursed loan goes to review, then paid', async () => {
    const { client, order, redirect } = await placed('bankpay-loan', 'DEMO-BLANKET-WOOL');
    expect(redirect).toMatch(/\/_sandbox\/bankpay\/loan\/[0-9a-f-]{36}$/);
    const [attempt] = await attempts(order.id);
    expect(attempt.extra.applicationId).toBe(attempt.reference);
    const application = (await bank().get(`${BANK_CONTROL}/applications/${attempt.reference}`).expect(200)).body;
    expect(application.body).toMatchObject({
      order: {
        orderNo: order.reference,
        orderItems: [
          {
            quantity: 1,
            totalItemPrice: 119,
            itemDetail: { itemDetailSK: { itemName: expect.stringMatching(/blanket/i) } },
          },
        ],
      },
      applicant: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
      externalApplicantId: expect.stringMatching(/^[0-9a-f]{32}$/),
      instructedAmount: { amountValue: order.total / 100, currency: 'EUR' },
    });
    // Shipping is free over the threshold, so the blanket alone adds up to the amount the bank checks.
    expect(order.shippingTotal).toBe(0);
    expect(application.body.order.orderItems).toHaveLength(1);
    // The applicant id stands for the shopper without disclosing the address.
    expect(application.body.externalApplicantId).not.toContain('ada');

    const back = await choose(redirect, 'disbursed');
    expect(back).toContain(`order_number=${order.reference}`);
    expect(await comeBack(client, back)).toBe('/shop/checkout/success');
    expect((await reload(order.id)).status).toBe('payment_review');

    await shop.dataSource.getRepository(Job).update({ name: 'payment.poll', status: 'pending' }, { runAt: Date.now() });
    await eventually(async () => (await reload(order.id)).status === 'paid');
  });

  it('cancels a loan order whose application the shopper abandons', async () => {
    const { client, order, redirect } = await placed('bankpay-loan', 'DEMO-BLANKET-WOOL');
    expect(await comeBack(client, await choose(redirect, 'cancel'))).toBe('/shop/checkout/failed');
    expect((await reload(order.id)).status).toBe('canceled');
  });

  it.each([
    ['EXPIRED', 'canceled'],
    ['CANCELLED_BY_TPP', 'canceled'],
    ['PAY_METHOD_SELECTED', 'pending_payment'],
    ['SOMETHING_NEW', 'pending_payment'],
  ])('normalises the raw authorization status %s on return → %s', async (raw, expected) => {
    const { client, order, redirect } = await placed('bankpay');
    const paymentId = redirect.split('/').pop()!;
    await bank().post(`${BANK_CONTROL}/payments/${paymentId}`).send({ authorizationStatus: raw }).expect(200);
    await comeBack(
      client,
      `${shop.config.baseUrl}/shop/checkout/process-payment?order=${order.number}&paymentId=${paymentId}`,
    );
    expect((await reload(order.id)).status).toBe(expected);
  });

  it('is out of sandbox mode unless it was switched on: a shopper who skips the bank pays nothing', async () => {
    // As on an install the demo seed never configured: no saved value, the definition's default.
    await shop.dataSource.getRepository(SettingRow).delete({ key: 'bankpay.sandbox' });
    await shop.app.get(SettingsService).reload();
    expect(shop.app.get(SettingsService).isOn('bankpay.sandbox')).toBe(false);
    const { client, order } = await placed('bankpay');
    await comeBack(client, `${shop.config.baseUrl}/shop/checkout/process-payment?order=${order.number}`);
    expect((await reload(order.id)).status).toBe('pending_payment');
  });

  it('treats every return as authorised in sandbox mode', async () => {
    await shop.app.get(SettingsService).save({ 'bankpay.sandbox': true });
    const { client, order, redirect } = await placed('bankpay');
    expect(await comeBack(client, await choose(redirect, 'card-declined'))).toBe('/shop/checkout/success');
    expect((await reload(order.id)).status).toBe('paid');
  });

  it('applies a return once: 20 replays and 10 concurrent returns make one paid transition', async () => {
    const { client, order, redirect } = await placed('bankpay');
    const back = await choose(redirect, 'card-ok');
    await Promise.all(Array.from({ length: 10 }, () => comeBack(new ShopClient(shop.server), back)));
    for (let i = 0; i < 20; i++) await comeBack(client, back);
    expect((await reload(order.id)).status).toBe('paid');
    expect(await paidTransitions(order.id)).toBe(1);
    expect(await attempts(order.id)).toHaveLength(1);
    expect(await shop.dataSource.getRepository(Job).countBy({ jobKey: orderMailKey('confirmation', order.id) })).toBe(
      1,
    );
  });

  it('ignores a return that names another payment and leaves the order waiting when the bank cannot be asked', async () => {
    const { client, order, redirect } = await placed('bankpay');
    const back = new URL(await choose(redirect, 'card-ok'));
    back.searchParams.set('paymentId', '00000000-0000-4000-8000-000000000000');
    await comeBack(client, back.toString());
    expect((await reload(order.id)).status).toBe('pending_payment');

    await bank()
      .post(`${BANK_CONTROL}/mode`)
      .send({ mode: 'error', paths: ['/v1/payments'] })
      .expect(200);
    back.searchParams.delete('paymentId');
    await comeBack(client, back.toString());
    expect((await reload(order.id)).status).toBe('pending_payment');
    expect((await attempts(order.id))[0].status).toBe('pending');
  });

  it('fetches one token per scope for 50 concurrent payments, and replaces a token the bank forgot', async () => {
    const stats = async () => (await bank().get(`${BANK_CONTROL}/stats`).expect(200)).body.tokenRequests;
    // Saving a bankpay setting makes the client forget its tokens, as new credentials would.
    await shop.app.get(SettingsService).save({ 'bankpay.fee': 0 });
    const before = await stats();
    const shoppers = [];
    for (let i = 0; i < 50; i++) {
      const client = new ShopClient(shop.server);
      await addToCart(client, (await productBySku(shop.dataSource, 'DEMO-STICKER-LOGO')).id, 1);
      // Loans start at 100 EUR.
      if (i >= 45) await addToCart(client, (await productBySku(shop.dataSource, 'DEMO-TENT-2P')).id, 1);
      await fillCheckout(client, { shippingMethod: flatRate, paymentMethod: i < 45 ? 'bankpay' : 'bankpay-loan' });
      shoppers.push(client);
    }
    // What went wrong, if anything: the client logs each failed bank call with its reason.
    const warnings = jest.spyOn(Logger.prototype, 'warn');
    const errors = jest.spyOn(Logger.prototype, 'error');
    let logged: string[] = [];
    const placedOrders = await Promise.all(shoppers.map((client) => placeOrder(client))).finally(() => {
      logged = [...warnings.mock.calls, ...errors.mock.calls].map((args) => String(args[0]));
      warnings.mockRestore();
      errors.mockRestore();
    });
    const refused = placedOrders.filter((answer) => !/\/_sandbox\/bankpay\/(pay|loan)\//.test(answer.body.redirect));
    expect({
      refused: refused.map((answer) => ({ status: answer.status, body: answer.body })),
      logged,
    }).toEqual({ refused: [], logged: [] });
    const after = await stats();
    expect((after.BANKPAYPLUS ?? 0) - (before.BANKPAYPLUS ?? 0)).toBe(1);
    expect((after.PAY_LATER ?? 0) - (before.PAY_LATER ?? 0)).toBe(1);

    // The bank restarts and forgets every token: the next call is refused once, then made with a new token.
    await bank().post(`${BANK_CONTROL}/reset`).expect(200);
    const { redirect } = await placed('bankpay');
    expect(redirect).toMatch(/\/_sandbox\/bankpay\/pay\//);
    expect((await stats()).BANKPAYPLUS).toBe(1);
  });

  describe.each([
    ['down (503)', 'error'],
    ['timing out', 'timeout'],
    ['answering garbage', 'garbage'],
  ])('a bank that is %s', (_label, mode) => {
    it('fails the attempt at place-order and the retry from the failed page pays once it is back', async () => {
      await bank()
        .post(`${BANK_CONTROL}/mode`)
        .send({ mode, paths: ['/v1/payments'] })
        .expect(200);
      const { client, order, redirect } = await placed('bankpay');
      expect(redirect).toBe('/shop/checkout/failed');
      expect((await reload(order.id)).status).toBe('pending_payment');
      expect((await attempts(order.id))[0].status).toBe('failed');
      const failedPage = await client.get('/shop/checkout/failed').set('Accept', 'text/html').expect(200);
      expect(failedPage.text).toContain(`/shop/order/pay/${order.number}`);

      await bank().post(`${BANK_CONTROL}/mode`).send({ mode: 'normal' }).expect(200);
      const retry = await client.get(`/shop/order/pay/${order.number}`).set('Accept', 'text/html');
      expect(retry.status).toBe(302);
      expect(retry.headers.location).toMatch(/\/_sandbox\/bankpay\/pay\//);
      expect(await comeBack(client, await choose(retry.headers.location, 'card-ok'))).toBe('/shop/checkout/success');
      expect((await reload(order.id)).status).toBe('paid');
      expect((await attempts(order.id)).map((row) => row.status)).toEqual(['failed', 'success']);
    });
  });

  it('expires an attempt nobody paid within 24 hours: the order is canceled and the bank payment withdrawn', async () => {
    const { order } = await placed('bankpay-qr');
    const [attempt] = await attempts(order.id);
    const dayAgo = new Date(Date.now() - 25 * 60 * 60 * 1000);
    await shop.dataSource.getRepository(PaymentTransaction).update({ id: attempt.id }, { dateCreated: dayAgo });
    await shop.dataSource.getRepository(Job).update({ jobKey: `payment-poll:${attempt.id}:1` }, { runAt: Date.now() });
    await eventually(async () => (await reload(order.id)).status === 'canceled');
    expect((await attempts(order.id))[0].status).toBe('canceled');
    expect((await bankPayment(attempt.reference)).authorizationStatus).toBe('CANCELLED_BY_TPP');
  });
});
