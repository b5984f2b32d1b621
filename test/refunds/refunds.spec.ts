import request from 'supertest';
import { DomainEvents } from '../../src/common/domain-events';
import { CouponUsage } from '../../src/commerce/coupons/coupon-usage.entity';
import { Coupon } from '../../src/commerce/coupons/coupon.entity';
import { CouponService } from '../../src/commerce/coupons/coupon.service';
import { DeliverySlotBooking } from '../../src/commerce/delivery/delivery-slot-booking.entity';
import { GiftCard } from '../../src/commerce/gift-cards/gift-card.entity';
import { OrderHistory } from '../../src/commerce/orders/order-history.entity';
import { OrderLine } from '../../src/commerce/orders/order-line.entity';
import { OrderStatusService } from '../../src/commerce/orders/order-status.service';
import { Order } from '../../src/commerce/orders/order.entity';
import { PaymentMethodRegistry } from '../../src/commerce/payments/payment-method.registry';
import { PaymentTransaction } from '../../src/commerce/payments/payment-transaction.entity';
import { Product } from '../../src/commerce/products/product.entity';
import { SalesDocument } from '../../src/commerce/invoices/sales-document.entity';
import { RefundReconciliation } from '../../src/commerce/refunds/refund-reconciliation.service';
import { Refund } from '../../src/commerce/refunds/refund.entity';
import { SettingsService } from '../../src/config/settings.service';
import { productBySku } from '../support/catalog';
import { runCli } from '../support/cli';
import { addToCart, fillCheckout, placeOrder, shippingValue } from '../support/checkout';
import { BANK_CONTROL, chooseAtBank, comeBackFromBank, placeBankOrder } from '../support/sandbox-bank';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp, usingMysql } from '../support/test-app';
import { applyGiftCard, issueCard, reloadCard } from '../gift-cards/gift-cards-support';

/**
 * Refunds of paid orders (docs/shop.md, _Refunds_), driven over HTTP as staff do it in the CP and from the CLI:
 * card refunds through the sandbox bank (partial, full, refused, the bank down or silent and the refund reconciled
 * later), a cash-on-delivery order refunded by hand, gift-card amounts going back to their card, stock put back once,
 * never more than was paid, also when two refunds race.
 */
describe(`refunds (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let staff: ShopClient;
  let flatRate: string;
  let headlamp: Product; // 39.00; with the 4.90 courier an order of one is 43.90
  const refunded: number[] = [];

  beforeAll(async () => {
    shop = await startTestApp({ listen: true });
    await shop.app.get(SettingsService).save({ salesGiftCardsEnabled: true });
    flatRate = await shippingValue(shop.dataSource, 'flat-rate');
    await shop.dataSource.getRepository(Product).update({ sku: 'DEMO-HEADLAMP' }, { stock: 500 });
    headlamp = await productBySku(shop.dataSource, 'DEMO-HEADLAMP');
    staff = new ShopClient(shop.server);
    await staff.loginCp();
    shop.app.get(DomainEvents).on('order-refunded', ({ refundId }) => refunded.push(refundId));
  });
  afterAll(() => shop.close());
  beforeEach(async () => {
    await request(shop.server).post(`${BANK_CONTROL}/reset`).expect(200);
  });

  const reload = (id: number) => shop.dataSource.getRepository(Order).findOneByOrFail({ id });
  const linesOf = (orderId: number) =>
    shop.dataSource.getRepository(OrderLine).find({ where: { orderId }, order: { id: 'ASC' } });
  const refundsOf = (orderId: number) =>
    shop.dataSource.getRepository(Refund).find({ where: { orderId }, order: { id: 'ASC' } });
  const stock = async () => (await productBySku(shop.dataSource, 'DEMO-HEADLAMP')).stock;
  const history = (orderId: number) =>
    shop.dataSource.getRepository(OrderHistory).find({ where: { orderId }, order: { id: 'ASC' } });
  const bankRefunds = async (orderId: number) => {
    const [attempt] = await shop.dataSource.getRepository(PaymentTransaction).findBy({ orderId });
    const payment = await request(shop.server).get(`${BANK_CONTROL}/payments/${attempt.reference}`).expect(200);
    return payment.body.refunds as Array<{ amountValue: number; merchantRefundId: string }>;
  };

  /** A refund posted as a script posts it: JSON, with its own idempotency key. */
  async function refund(orderId: number, body: Record<string, unknown>, key = `key-${Math.random()}`) {
    return staff.agent
      .post(`/admin/orders/${orderId}/refunds`)
      .set('X-CSRF-Token', await staff.csrfToken())
      .set('Idempotency-Key', key)
      .send(body);
  }

  /** An order of `qty` headlamps paid by card at the sandbox bank. */
  async function cardOrder(qty = 1): Promise<Order> {
    const { client, order, redirect } = await placeBankOrder(shop, flatRate, 'bankpay', 'DEMO-HEADLAMP', qty);
    expect(await comeBackFromBank(client, await chooseAtBank(shop, redirect, 'card-ok'))).toBe(
      '/shop/checkout/success',
    );
    expect((await reload(order.id)).status).toBe('paid');
    return order;
  }

  it('refunds a card order in part, then the rest, through the bank; a repeated request refunds nothing more', async () => {
    const order = await cardOrder(2);
    expect(order.total).toBe(8290);
    const [line] = await linesOf(order.id);
    const before = await stock();

    const partial = await refund(order.id, { lines: `${line.id}:1`, restock: true, reason: 'Arrived broken' }, 'first');
    expect(partial.status).toBe(200);
    expect(partial.body).toMatchObject({
      success: true,
      message: 'Refunded €39.00.',
      refund: {
        status: 'succeeded',
        method: 'gateway',
        amount: 39,
        paymentAmount: 39,
        giftCardAmount: 0,
        restocked: true,
        replayed: false,
        orderStatus: 'paid',
        paid: 82.9,
        refunded: 39,
        balance: 43.9,
      },
    });
    expect(await bankRefunds(order.id)).toMatchObject([{ amountValue: 39, merchantRefundId: 'first' }]);
    expect(await stock()).toBe(before + 1);
    expect((await history(order.id)).at(-1)).toMatchObject({
      toStatus: null,
      actor: 'cp:admin@example.com',
      note: expect.stringContaining('Refunded €39.00 through the gateway'),
    });

    // The same request again (a double click, a retry after a timeout): the refund it made, nothing more.
    const again = await refund(order.id, { lines: `${line.id}:1`, restock: true, reason: 'Arrived broken' }, 'first');
    expect(again.status).toBe(200);
    expect(again.body.refund).toMatchObject({ refundId: partial.body.refund.refundId, replayed: true, balance: 43.9 });
    expect(await refundsOf(order.id)).toHaveLength(1);
    expect(await bankRefunds(order.id)).toHaveLength(1);
    expect(await stock()).toBe(before + 1);

    const page = await staff.get(`/admin/orders/${order.id}`).expect(200);
    expect(page.text).toContain('<dt>Paid</dt><dd>€82.90</dd>');
    expect(page.text).toContain('<dt>Balance</dt><dd>€43.90</dd>');
    expect(page.text).toContain('Arrived broken');
    expect(page.text).toContain(`name="qty[line${line.id}]" min="0" max="1"`);

    const rest = await refund(order.id, { full: true, restock: true, reason: 'Sent back the other one' });
    expect(rest.status).toBe(200);
    expect(rest.body.refund).toMatchObject({
      amount: 43.9,
      orderStatus: 'refunded',
      paid: 82.9,
      refunded: 82.9,
      balance: 0,
    });
    expect((await bankRefunds(order.id)).map((entry) => entry.amountValue)).toEqual([39, 43.9]);
    expect(await stock()).toBe(before + 2);
    expect((await history(order.id)).filter((entry) => entry.toStatus === 'refunded')).toHaveLength(1);
    expect(refunded).toEqual(expect.arrayContaining((await refundsOf(order.id)).map((row) => row.id)));
    // The order was invoiced when paid: each refund is a credit note to that invoice.
    const documents = await shop.dataSource
      .getRepository(SalesDocument)
      .find({ where: { orderId: order.id }, order: { id: 'ASC' } });
    expect(documents.map(({ kind, amount }) => ({ kind, amount }))).toEqual([
      { kind: 'invoice', amount: 8290 },
      { kind: 'credit_note', amount: 3900 },
      { kind: 'credit_note', amount: 4390 },
    ]);
    expect(documents[1]).toMatchObject({ invoiceId: documents[0].id, lines: [expect.objectContaining({ qty: 1 })] });
    expect(documents[0].credited).toBe(8290);

    const more = await refund(order.id, { amount: '1', reason: 'Goodwill' });
    expect(more.status).toBe(409);
    expect(more.body.error.code).toBe('refund_nothing_left');
  });

  it('does not let staff mark an order refunded by hand: only the refund that gives back everything does', async () => {
    const order = await cardOrder();
    const page = await staff.get(`/admin/orders/${order.id}`).expect(200);
    expect(page.text).toContain('<option value="processing">');
    expect(page.text).not.toContain('<option value="refunded">');
    const marked = await staff.agent
      .post(`/admin/orders/${order.id}/status`)
      .set('X-CSRF-Token', await staff.csrfToken())
      .send({ status: 'refunded' });
    expect(marked.status).toBe(409);
    expect(marked.body.error.code).toBe('order_refunded_by_refund');
    expect((await reload(order.id)).status).toBe('paid');
  });

  it('refuses more than was paid, or more of a line than was ordered, and records nothing', async () => {
    const order = await cardOrder();
    const [line] = await linesOf(order.id);
    const tooMuch = await refund(order.id, { amount: '50', reason: 'Goodwill' });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body).toEqual({
      success: false,
      error: {
        code: 'refund_exceeds_balance',
        message: 'A refund of €50.00 is more than is left to refund on this payment (€43.90).',
      },
    });
    const tooMany = await refund(order.id, { lines: `${line.id}:2`, reason: 'Broken' });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.error.code).toBe('refund_line_exceeds_quantity');
    const lineAndAmount = await refund(order.id, { lines: `${line.id}:1`, amount: '4.91', reason: 'All and more' });
    expect(lineAndAmount.status).toBe(409);
    const nothing = await refund(order.id, { reason: 'Nothing' });
    expect(nothing.status).toBe(400);
    expect(nothing.body.error.code).toBe('refund_empty');
    const noReason = await refund(order.id, { amount: '1' });
    expect(noReason.status).toBe(400);
    expect(await refundsOf(order.id)).toEqual([]);
    expect(await bankRefunds(order.id)).toEqual([]);

    // What was left can still be refunded whole: line and shipping.
    const whole = await refund(order.id, { lines: `${line.id}:1`, amount: '4.90', reason: 'All' });
    expect(whole.status).toBe(200);
    expect(whole.body.refund).toMatchObject({ amount: 43.9, orderStatus: 'refunded' });
  });

  it('records nothing as refunded when the bank refuses the refund', async () => {
    const order = await cardOrder();
    const [line] = await linesOf(order.id);
    const before = await stock();
    const [attempt] = await shop.dataSource.getRepository(PaymentTransaction).findBy({ orderId: order.id });
    const ask = () => refund(order.id, { lines: `${line.id}:1`, restock: true, reason: 'Broken' });

    await request(shop.server).post(`${BANK_CONTROL}/settings`).send({ refuseRefunds: true }).expect(200);
    const refused = await ask();
    expect(refused.status).toBe(502);
    expect(refused.body.error).toMatchObject({
      code: 'refund_failed',
      message:
        'The refund failed: the bank did not refund it (HTTP 400 REFUND_REFUSED The card issuer refused the refund.). ' +
        'Nothing was refunded.',
    });
    await request(shop.server).post(`${BANK_CONTROL}/settings`).send({ refuseRefunds: false }).expect(200);
    expect(attempt.reference).toBeTruthy();

    expect((await refundsOf(order.id)).map((row) => row.status)).toEqual(['failed']);
    expect(await stock()).toBe(before);
    expect((await reload(order.id)).status).toBe('paid');
    const page = await staff.get(`/admin/orders/${order.id}`).expect(200);
    expect(page.text).toContain('<dt>Refunded</dt><dd>€0.00</dd>');
    expect((await history(order.id)).at(-1)!.note).toContain('Refund of €39.00 failed');

    // Failed refunds held nothing: the whole amount can still be refunded.
    const done = await refund(order.id, { full: true, reason: 'Broken' });
    expect(done.status).toBe(200);
    expect(done.body.refund).toMatchObject({ amount: 43.9, balance: 0, orderStatus: 'refunded' });
  });

  /** Makes the bank's refund endpoint of the order's payment time out (`timeout`), fail with 503 (`error`) or work. */
  async function bankRefundsMode(orderId: number, mode: 'timeout' | 'error' | 'normal') {
    const [attempt] = await shop.dataSource.getRepository(PaymentTransaction).findBy({ orderId });
    const paths = [`/v1/payments/${attempt.reference}/refunds`];
    await request(shop.server).post(`${BANK_CONTROL}/mode`).send({ mode, paths }).expect(200);
  }
  const reconciliation = () => shop.app.get(RefundReconciliation);
  const DAY = 24 * 60 * 60 * 1000;
  const creditNotes = (orderId: number) =>
    shop.dataSource.getRepository(SalesDocument).findBy({ orderId, kind: 'credit_note' });

  it('keeps a refund the bank did not answer pending, refuses a second one, and completes it once later', async () => {
    const order = await cardOrder();
    const before = await stock();
    await bankRefundsMode(order.id, 'timeout');
    const slow = await refund(order.id, { full: true, restock: true, reason: 'Never arrived' }, 'slow-one');
    expect(slow.status).toBe(200);
    expect(slow.body).toMatchObject({
      message:
        'The bank has not confirmed the refund of €43.90 yet: it stays pending and is checked with the bank again.',
      refund: { status: 'pending', paid: 43.9, refunded: 0, balance: 43.9, orderStatus: 'paid' },
    });
    const [pending] = await refundsOf(order.id);
    expect(pending).toMatchObject({ status: 'pending', checks: 1, failure: null });
    expect(pending.checkAt).toBeGreaterThan(Date.now());
    expect(await stock()).toBe(before);
    expect((await history(order.id)).at(-1)!.note).toContain('no clear answer from the payment gateway');

    // The pending refund holds the whole amount: no second refund, in full or in part.
    await bankRefundsMode(order.id, 'normal');
    const second = await refund(order.id, { full: true, reason: 'Staff tried again' });
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('refund_nothing_left');
    const goodwill = await refund(order.id, { amount: '1', reason: 'Goodwill' });
    expect(goodwill.status).toBe(409);
    expect(await refundsOf(order.id)).toHaveLength(1);
    const page = await staff.get(`/admin/orders/${order.id}`).expect(200);
    expect(page.text).toContain('<dd>€0.00 (€43.90 being refunded)</dd>');
    expect(page.text).toContain('<td>pending, waiting for the bank</td>');

    // The bank did make it; only its answer was lost (the same refund asked under its key, as the slow call was).
    const [attempt] = await shop.dataSource.getRepository(PaymentTransaction).findBy({ orderId: order.id });
    const gateway = shop.app.get(PaymentMethodRegistry).gatewayFor(attempt.code)!;
    const request_ = { order, transaction: attempt, amount: 4390, refundKey: 'slow-one', reason: 'Never arrived' };
    expect(await gateway.refund!(request_)).toMatchObject({ status: 'refunded' });

    // Not due yet: the job leaves it alone. Due: the bank answers with the refund it made, and the success follows.
    expect(await reconciliation().reconcileDue()).toBe(0);
    expect(await reconciliation().reconcileDue(Date.now() + DAY)).toBe(1);
    const [done] = await refundsOf(order.id);
    expect(done).toMatchObject({ status: 'succeeded', checkAt: null, reference: expect.any(String) });
    expect(await bankRefunds(order.id)).toMatchObject([{ amountValue: 43.9, merchantRefundId: 'slow-one' }]);
    expect((await reload(order.id)).status).toBe('refunded');
    expect(await stock()).toBe(before + 1);
    expect(await creditNotes(order.id)).toMatchObject([{ amount: 4390, refundId: done.id }]);
    expect(refunded.filter((id) => id === done.id)).toHaveLength(1);

    // Later runs find nothing: one credit note, stock put back once.
    expect(await reconciliation().reconcileDue(Date.now() + 2 * DAY)).toBe(0);
    expect(await creditNotes(order.id)).toHaveLength(1);
    expect(await stock()).toBe(before + 1);
    expect((await history(order.id)).filter((entry) => entry.toStatus === 'refunded')).toHaveLength(1);
  });

  it('asks again while the bank errs, backing off, and frees the balance when the bank refuses in the end', async () => {
    const order = await cardOrder();
    await bankRefundsMode(order.id, 'error');
    const down = await refund(order.id, { full: true, reason: 'Broken' });
    expect(down.status).toBe(200);
    expect(down.body.refund).toMatchObject({ status: 'pending', balance: 43.9 });

    // Still down: the refund stays pending, its next ask put off further each time.
    const first = Date.now() + DAY;
    expect(await reconciliation().reconcileDue(first)).toBe(0);
    const [afterFirst] = await refundsOf(order.id);
    expect(afterFirst).toMatchObject({ status: 'pending', checks: 2 });
    expect(afterFirst.checkAt! - first).toBe(20 * 60 * 1000);
    expect(await reconciliation().reconcileDue(first + 60 * 1000)).toBe(0);
    expect((await refundsOf(order.id))[0].checks).toBe(2);
    const notes = (await history(order.id)).filter((entry) => entry.note?.includes('no clear answer'));
    expect(notes).toHaveLength(1);

    // The bank answers again, and refuses: the refund failed, nothing was given back, the balance is free.
    await bankRefundsMode(order.id, 'normal');
    await request(shop.server).post(`${BANK_CONTROL}/settings`).send({ refuseRefunds: true }).expect(200);
    expect(await reconciliation().reconcileDue(first + DAY)).toBe(1);
    const [failed] = await refundsOf(order.id);
    expect(failed).toMatchObject({
      status: 'failed',
      checkAt: null,
      failure: expect.stringContaining('REFUND_REFUSED'),
    });
    expect((await history(order.id)).at(-1)!.note).toContain('Refund of €43.90 failed');
    expect(await creditNotes(order.id)).toHaveLength(0);
    expect(await bankRefunds(order.id)).toHaveLength(0);

    await request(shop.server).post(`${BANK_CONTROL}/settings`).send({ refuseRefunds: false }).expect(200);
    const again = await refund(order.id, { full: true, reason: 'Broken' });
    expect(again.status).toBe(200);
    expect(again.body.refund).toMatchObject({ status: 'succeeded', balance: 0, orderStatus: 'refunded' });
  });

  it('frees the coupon use and the delivery slot of an order refunded in full while processing, once', async () => {
    await shop.app.get(SettingsService).save({ salesDeliveryTimeEnabled: true });
    await shop.app.get(CouponService).create({ code: 'REFUND10', type: 'percent', value: 10, usageLimit: 5 });
    const client = new ShopClient(shop.server);
    await addToCart(client, headlamp.id, 1);
    expect((await client.post('/shop/cart/add-coupon', { coupon_code: 'REFUND10' })).status).toBe(200);
    await fillCheckout(client, { shippingMethod: flatRate, paymentMethod: 'bankpay' });
    let slot: { date: string; id: number } | undefined;
    for (let days = 1; !slot; days++) {
      const date = new Date(Date.now() + days * DAY).toISOString().slice(0, 10);
      const listed = await client.get(`/shop/checkout/get-shipping-delivery-slots?date=${date}`).expect(200);
      const open = (listed.body.slots as Array<{ id: number; available: boolean }>).find((entry) => entry.available);
      if (open) slot = { date, id: open.id };
    }
    const chosen = { shippingMethod: flatRate, deliverySlotId: slot.id, deliveryDate: slot.date };
    expect((await client.post('/shop/checkout/save-shipping-method', chosen)).status).toBe(200);
    expect((await client.post('/shop/checkout/save-payment-method', { paymentMethod: 'bankpay' })).status).toBe(200);
    const placed = await placeOrder(client);
    expect(placed.status).toBe(200);
    const order = await shop.dataSource.getRepository(Order).findOneByOrFail({ number: placed.body.orderNumber });
    expect(order).toMatchObject({ deliverySlotId: slot.id, deliveryDate: slot.date });
    const location = await chooseAtBank(shop, placed.body.redirect as string, 'card-ok');
    expect(await comeBackFromBank(client, location)).toBe('/shop/checkout/success');
    await shop.app.get(OrderStatusService).change(order.id, 'processing', 'cp:admin@example.com');

    const coupon = () => shop.dataSource.getRepository(Coupon).findOneByOrFail({ code: 'REFUND10' });
    const booking = () =>
      shop.dataSource.getRepository(DeliverySlotBooking).findOneByOrFail({ slotId: slot.id, date: slot.date });
    expect((await coupon()).timesUsed).toBe(1);
    expect((await booking()).taken).toBe(1);

    const whole = await refund(order.id, { full: true, reason: 'Out of stock after all' });
    expect(whole.status).toBe(200);
    expect(whole.body.refund).toMatchObject({ status: 'succeeded', orderStatus: 'refunded', balance: 0 });
    expect((await coupon()).timesUsed).toBe(0);
    expect(await shop.dataSource.getRepository(CouponUsage).countBy({ orderId: order.id })).toBe(0);
    expect((await booking()).taken).toBe(0);
    await shop.app.get(SettingsService).save({ salesDeliveryTimeEnabled: false });
  });

  it('puts each unit back in stock once when refunds and a cancellation meet', async () => {
    const order = await cardOrder(2);
    const [line] = await linesOf(order.id);
    const before = await stock();
    expect((await refund(order.id, { lines: `${line.id}:1`, restock: true, reason: 'Broken' })).status).toBe(200);
    expect(await stock()).toBe(before + 1);
    // Canceling puts back only the unit the refund did not.
    expect((await staff.submitForm(`/admin/orders/${order.id}/status`, { status: 'canceled' })).status).toBe(303);
    expect((await reload(order.id)).status).toBe('canceled');
    expect(await stock()).toBe(before + 2);
    // The money still paid is refunded; its goods are back already, whatever staff tick.
    const rest = await refund(order.id, { full: true, restock: true, reason: 'Canceled after payment' });
    expect(rest.status).toBe(200);
    expect(rest.body.refund).toMatchObject({ amount: 43.9, restocked: false, balance: 0, orderStatus: 'refunded' });
    expect(await stock()).toBe(before + 2);
  });

  it('refunds a cash-on-delivery order by hand, from the CP form, with the bank reference staff give', async () => {
    const client = new ShopClient(shop.server);
    await addToCart(client, headlamp.id, 1);
    await fillCheckout(client, { shippingMethod: flatRate, paymentMethod: 'cod' });
    const placed = await placeOrder(client);
    const order = await shop.dataSource.getRepository(Order).findOneByOrFail({ number: placed.body.orderNumber });
    expect(order.status).toBe('processing');
    const [line] = await linesOf(order.id);

    // Not delivered yet: the cash is not in.
    const early = await refund(order.id, { full: true, reason: 'Changed mind' });
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe('refund_nothing_paid');
    for (const status of ['shipped', 'completed'])
      expect((await staff.submitForm(`/admin/orders/${order.id}/status`, { status })).status).toBe(303);

    const noReference = await refund(order.id, { full: true, reason: 'Changed mind' });
    expect(noReference.status).toBe(400);
    expect(noReference.body.error.code).toBe('refund_reference_required');

    const page = await staff.get(`/admin/orders/${order.id}`).expect(200);
    const key = /name="idempotencyKey" value="([^"]+)"/.exec(page.text)![1];
    const before = await stock();
    const form = {
      idempotencyKey: key,
      [`qty[line${line.id}]`]: '1',
      restock: 'on',
      // Shipping 4.90 and the cash-on-delivery fee 1.50.
      amount: '6.40',
      reason: 'Returned unopened',
      reference: 'SK-TRANSFER-0042',
    };
    const posted = await staff.submitForm(`/admin/orders/${order.id}/refunds`, form);
    expect(posted.status).toBe(303);
    expect(posted.headers.location).toBe(`/admin/orders/${order.id}`);
    // The browser sends the form again (back and resubmit): the same refund, not a second one.
    expect((await staff.submitForm(`/admin/orders/${order.id}/refunds`, form)).status).toBe(303);

    const rows = await refundsOf(order.id);
    expect(rows).toMatchObject([
      {
        method: 'manual',
        status: 'succeeded',
        amount: order.total,
        reference: 'SK-TRANSFER-0042',
        restock: true,
        actor: 'cp:admin@example.com',
      },
    ]);
    expect(await stock()).toBe(before + 1);
    expect((await reload(order.id)).status).toBe('refunded');
    const shown = await staff.get(`/admin/orders/${order.id}`).expect(200);
    expect(shown.text).toContain('Refunded €45.40.');
    expect(shown.text).toContain('SK-TRANSFER-0042');

    // Without the CSRF token nothing is refunded.
    const forged = await staff.agent.post(`/admin/orders/${order.id}/refunds`).send({ full: true, reason: 'x' });
    expect(forged.status).toBe(403);
  });

  it('gives gift-card amounts back to the card once the payment is refunded', async () => {
    const card = await issueCard(shop, 20);
    const client = new ShopClient(shop.server);
    await addToCart(client, headlamp.id, 1);
    await fillCheckout(client, { shippingMethod: flatRate, paymentMethod: 'bankpay' });
    expect((await applyGiftCard(client, card.code, '198.51.100.77')).status).toBe(200);
    const placed = await placeOrder(client);
    expect(placed.status).toBe(200);
    const order = await shop.dataSource.getRepository(Order).findOneByOrFail({ number: placed.body.orderNumber });
    await comeBackFromBank(client, await chooseAtBank(shop, placed.body.redirect, 'card-ok'));
    expect(await reload(order.id)).toMatchObject({ status: 'paid', giftCardTotal: 2000, total: 4390 });
    expect(await reloadCard(shop, card.id)).toMatchObject({ balance: 0, status: 'used' });

    // The payment gives back first, the card the rest.
    const first = await refund(order.id, { amount: '30', reason: 'Late delivery' });
    expect(first.status).toBe(200);
    expect(first.body.refund).toMatchObject({ amount: 30, paymentAmount: 23.9, giftCardAmount: 6.1, balance: 13.9 });
    expect(await bankRefunds(order.id)).toMatchObject([{ amountValue: 23.9 }]);
    expect(await reloadCard(shop, card.id)).toMatchObject({ balance: 610, status: 'active' });

    const rest = await refund(order.id, { full: true, reason: 'Late delivery' });
    expect(rest.status).toBe(200);
    expect(rest.body.refund).toMatchObject({ method: 'gift-card', amount: 13.9, balance: 0, orderStatus: 'refunded' });
    expect(await reloadCard(shop, card.id)).toMatchObject({ balance: 2000, status: 'active' });
    expect(await bankRefunds(order.id)).toHaveLength(1);
    expect(await shop.dataSource.getRepository(GiftCard).countBy({ id: card.id, balance: 2000 })).toBe(1);
  });

  it('lets exactly one of four refunds of the whole amount made at once succeed', async () => {
    const order = await cardOrder();
    const before = await stock();
    const [line] = await linesOf(order.id);
    const answers = await Promise.all(
      ['staff-a', 'staff-b', 'staff-c', 'staff-d'].map((key) =>
        refund(order.id, { lines: `${line.id}:1`, amount: '4.90', restock: true, reason: 'Race' }, key),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409]);
    for (const loser of answers.filter((answer) => answer.status === 409))
      expect(['refund_nothing_left', 'refund_line_exceeds_quantity']).toContain(loser.body.error.code);
    expect(await refundsOf(order.id)).toMatchObject([{ status: 'succeeded', amount: 4390 }]);
    expect(await bankRefunds(order.id)).toHaveLength(1);
    expect(await stock()).toBe(before + 1);
    expect((await history(order.id)).filter((entry) => entry.toStatus === 'refunded')).toHaveLength(1);

    // The same key sent twice at once makes one refund too.
    const other = await cardOrder();
    const twice = await Promise.all([1, 2].map(() => refund(other.id, { full: true, reason: 'Twice' }, 'same-key')));
    expect(twice.map((answer) => answer.status)).toEqual([200, 200]);
    expect(await refundsOf(other.id)).toHaveLength(1);
    expect(await bankRefunds(other.id)).toHaveLength(1);
  });

  it('refunds from the command line: an amount, lines, then everything left, one JSON line each', async () => {
    const order = await cardOrder(2);
    const [line] = await linesOf(order.id);
    // The CLI is another process: it reaches the sandbox bank served by this test app.
    const place = { ...shop.place, env: { ...shop.place.env, PORT: String(shop.config.port) } };
    const before = await stock();

    const shipping = await runCli(place, 'orders:refund', order.reference, '--amount', '4.90', '--reason', 'Shipping');
    expect(shipping.code).toBe(0);
    expect(shipping.json).toMatchObject({
      ok: true,
      orderNumber: order.number,
      status: 'succeeded',
      method: 'gateway',
      amount: 4.9,
      currency: 'EUR',
      paid: 82.9,
      refunded: 4.9,
      balance: 78,
      orderStatus: 'paid',
    });
    const lines = await runCli(place, 'orders:refund', order.number, '--lines', `${line.id}:1`, '--restock');
    expect(lines.json).toMatchObject({ ok: true, amount: 39, restocked: true, balance: 39 });
    expect(await stock()).toBe(before + 1);
    const bad = await runCli(place, 'orders:refund', order.number, '--lines', `${line.id}:2,${line.id}:x`);
    expect(bad.code).toBe(1);
    expect(bad.json).toMatchObject({ ok: false, error: { code: 'validation_failed' } });
    const rest = await runCli(place, 'orders:refund', order.number);
    expect(rest.json).toMatchObject({ ok: true, amount: 39, balance: 0, orderStatus: 'refunded', restocked: false });
    expect(await stock()).toBe(before + 1);
  });
});
