import { GiftCardMovement } from '../../src/commerce/gift-cards/gift-card-movement.entity';
import { GiftCardRedemption } from '../../src/commerce/gift-cards/gift-card-redemption.service';
import { GiftCard } from '../../src/commerce/gift-cards/gift-card.entity';
import { Order } from '../../src/commerce/orders/order.entity';
import { PaymentTransaction } from '../../src/commerce/payments/payment-transaction.entity';
import { Product } from '../../src/commerce/products/product.entity';
import { SettingsService } from '../../src/config/settings.service';
import { TransactionRunner } from '../../src/database/transaction-runner';
import { GIFT_CARD_APPLY_LIMIT } from '../../src/shop/cart/cart-gift-card.controller';
import { productBySku } from '../support/catalog';
import { addToCart, AJAX, ADDRESS, fillCheckout, placeOrder, shippingValue } from '../support/checkout';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp, usingMysql } from '../support/test-app';
import { applyGiftCard, grouped, issueCard, ITEM_DETAILS, reloadCard } from './gift-cards-support';

/**
 * Paying with gift cards. Apply and remove codes on the cart, the balance taken atomically
 * at place-order (never more than a card holds, whatever the concurrency), and given back on cancel.
 */
describe(`gift-card redemption (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let staff: ShopClient;
  let flatRate: string;
  let headlamp: Product; // 39.00; with the 4.90 courier an order of one is 43.90

  beforeAll(async () => {
    shop = await startTestApp();
    await shop.app.get(SettingsService).save({ salesGiftCardsEnabled: true });
    flatRate = await shippingValue(shop.dataSource, 'flat-rate');
    await shop.dataSource.getRepository(Product).update({ sku: 'DEMO-HEADLAMP' }, { stock: 500 });
    headlamp = await productBySku(shop.dataSource, 'DEMO-HEADLAMP');
    staff = new ShopClient(shop.server);
    await staff.loginCp();
  });
  afterAll(() => shop.close());

  const ledger = (giftCardId: number) =>
    shop.dataSource.getRepository(GiftCardMovement).find({ where: { giftCardId }, order: { id: 'ASC' } });
  const orderByNumber = (number: string) => shop.dataSource.getRepository(Order).findOneByOrFail({ number });
  const cancel = async (order: Order) =>
    expect((await staff.submitForm(`/admin/orders/${order.id}/status`, { status: 'canceled' })).status).toBe(303);

  /** A shopper with one headlamp in the cart and checkout details filled in. */
  async function shopper(paymentMethod = 'bank-transfer-manual', email = 'ada@example.com') {
    const client = new ShopClient(shop.server);
    await addToCart(client, headlamp.id, 1);
    await fillCheckout(client, { email, shippingMethod: flatRate, paymentMethod });
    return client;
  }

  it('applies a code to the cart, shows what it pays and what is left, and removes it again', async () => {
    const card = await issueCard(shop, 20);
    const client = await shopper();

    const applied = await applyGiftCard(client, grouped(card.code).toLowerCase());
    expect(applied.status).toBe(200);
    expect(applied.body).toMatchObject({
      success: true,
      message: `Gift card ${grouped(card.code)} applied.`,
      cart: {
        total: 43.9,
        giftCards: [{ code: card.code, amount: 20 }],
        giftCardTotal: 20,
        amountDue: 23.9,
        giftCardError: null,
      },
    });
    // Applying it again changes nothing; the checkout summary shows it too.
    expect((await applyGiftCard(client, card.code)).body.cart.giftCards).toHaveLength(1);
    const init = await client.get('/shop/checkout/get-init-values').expect(200);
    expect(init.body.cart).toMatchObject({ giftCards: [{ code: card.code, amount: 20 }], amountDue: 23.9 });

    const removed = await client.post('/shop/cart/remove-gift-card', { code: card.code });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({
      success: true,
      message: `Gift card ${grouped(card.code)} removed.`,
      cart: { total: 43.9, giftCards: [], giftCardTotal: 0, amountDue: 43.9 },
    });
    const again = await client.post('/shop/cart/remove-gift-card', { code: card.code });
    expect(again.status).toBe(404);
    expect(again.body.error.message).toBe(`Gift card ${card.code} is not applied to your cart.`);
  });

  it('refuses codes that cannot pay with a 400 saying why, and needs the CSRF token', async () => {
    const client = await shopper();
    const cards = shop.dataSource.getRepository(GiftCard);
    const expired = await issueCard(shop, 10);
    await cards.update({ id: expired.id }, { expiresAt: Date.parse('2026-01-31T00:00:00Z') });
    const empty = await issueCard(shop, 10);
    await cards.update({ id: empty.id }, { balance: 0, status: 'used' });
    const disabled = await issueCard(shop, 10);
    await cards.update({ id: disabled.id }, { status: 'disabled' });
    const koruny = await issueCard(shop, 500, { currency: 'CZK' });

    const refusals: Array<[string, string, string]> = [
      [
        'ABCD-EFGH-JKMN-PQRS',
        'gift_card_unknown',
        'Gift card "ABCD-EFGH-JKMN-PQRS" does not exist. Check the code and try again.',
      ],
      ['hello', 'gift_card_unknown', 'Gift card "hello" does not exist. Check the code and try again.'],
      [expired.code, 'gift_card_expired', `Gift card ${grouped(expired.code)} expired on 2026-01-31.`],
      [empty.code, 'gift_card_empty', `Gift card ${grouped(empty.code)} has no balance left.`],
      [
        disabled.code,
        'gift_card_disabled',
        `Gift card ${grouped(disabled.code)} is disabled. Contact us if this is unexpected.`,
      ],
      [
        koruny.code,
        'gift_card_currency',
        `Gift card ${grouped(koruny.code)} is in CZK and pays only for orders in CZK. Switch the shop to CZK to use it.`,
      ],
    ];
    for (const [code, errorCode, message] of refusals) {
      const res = await applyGiftCard(client, code);
      expect([res.status, res.body]).toEqual([400, { success: false, error: { code: errorCode, message } }]);
    }
    const missing = await client.post('/shop/cart/apply-gift-card', {});
    expect(missing.status).toBe(400);
    expect(missing.body.error.fields).toHaveProperty('code');

    const valid = await issueCard(shop, 10);
    const forged = await client.agent.post('/shop/cart/apply-gift-card').set(AJAX).send({ code: valid.code });
    expect(forged.status).toBe(403);
    const emptyCart = await applyGiftCard(new ShopClient(shop.server), valid.code);
    expect([emptyCart.status, emptyCart.body.error.code]).toEqual([409, 'cart_empty']);
  });

  it('takes part of an order from a card and leaves the rest to the payment method', async () => {
    const card = await issueCard(shop, 20);
    const client = await shopper('bank-transfer-manual', 'partial@example.com');
    expect((await applyGiftCard(client, card.code)).status).toBe(200);

    const placed = await placeOrder(client, { expectedTotal: 43.9 });
    expect(placed.status).toBe(200);
    const order = await orderByNumber(placed.body.orderNumber);
    expect(order).toMatchObject({
      status: 'pending_payment',
      total: 4390,
      giftCardTotal: 2000,
      paymentMethod: 'bank-transfer-manual',
    });
    const [payment] = await shop.dataSource.getRepository(PaymentTransaction).findBy({ orderId: order.id });
    expect(payment).toMatchObject({ amount: 2390, code: 'bank-transfer-manual' });
    expect(await reloadCard(shop, card.id)).toMatchObject({ balance: 0, status: 'used' });
    expect((await ledger(card.id)).map((row) => [row.orderId, row.kind, row.amount])).toEqual([
      [order.id, 'spend', -2000],
    ]);
    const details = await staff.get(`${ITEM_DETAILS}/${card.code}`).expect(200);
    expect(details.body).toMatchObject({ balance: 0, status: 'used' });
    // The guest order page says what is left to pay.
    const page = await client.get(`/shop/order/view/${order.number}`).set('Accept', 'text/html').expect(200);
    expect(page.text).toContain('<dd class="gift-cards">−€20.00</dd>');
    expect(page.text).toContain('<dd class="amount-due">€23.90</dd>');

    // Canceling gives the amount back, once.
    await cancel(order);
    await cancel(order);
    expect(await reloadCard(shop, card.id)).toMatchObject({ balance: 2000, status: 'active' });
    expect((await ledger(card.id)).map((row) => [row.kind, row.amount])).toEqual([
      ['spend', -2000],
      ['refund', 2000],
    ]);
  });

  it('settles an order that cards pay in full at once, without a payment method or its fee', async () => {
    const first = await issueCard(shop, 30);
    const second = await issueCard(shop, 30);
    const client = new ShopClient(shop.server);
    await addToCart(client, headlamp.id, 1);
    const saves: Array<[string, object]> = [
      ['save', { email: 'full@example.com', billingAddress: ADDRESS }],
      ['save-shipping-method', { shippingMethod: flatRate }],
      // Cash on delivery chosen first: its 1.50 fee goes away once the cards pay everything.
      ['save-payment-method', { paymentMethod: 'cod' }],
    ];
    for (const [step, body] of saves) expect((await client.post(`/shop/checkout/${step}`, body)).status).toBe(200);
    await applyGiftCard(client, first.code);
    const both = await applyGiftCard(client, second.code);
    expect(both.body.cart).toMatchObject({
      paymentFee: 0,
      total: 43.9,
      giftCards: [
        { code: first.code, amount: 30 },
        { code: second.code, amount: 13.9 },
      ],
      amountDue: 0,
    });

    const placed = await placeOrder(client);
    expect(placed.body).toEqual({ success: true, orderNumber: expect.any(String), redirect: '/shop/checkout/success' });
    const order = await orderByNumber(placed.body.orderNumber);
    expect(order).toMatchObject({
      status: 'paid',
      total: 4390,
      paymentFee: 0,
      giftCardTotal: 4390,
      paymentMethod: 'gift-card',
      paymentName: 'Gift card',
    });
    const [payment] = await shop.dataSource.getRepository(PaymentTransaction).findBy({ orderId: order.id });
    expect(payment).toMatchObject({ gateway: 'gift-card', amount: 0, status: 'success' });
    expect(await reloadCard(shop, first.id)).toMatchObject({ balance: 0, status: 'used' });
    expect(await reloadCard(shop, second.id)).toMatchObject({ balance: 1610, status: 'active' });

    // The gift-card method is never offered at checkout.
    const methods = await client.get('/shop/checkout/get-payment-methods?code=SK').expect(200);
    const codes = methods.body.payment_methods.map((method: { code: string }) => method.code);
    expect(codes).toContain('cod');
    expect(codes).not.toContain('gift-card');
  });

  it('refuses to place an order with a card that can no longer pay, and takes nothing', async () => {
    const card = await issueCard(shop, 10);
    const client = await shopper('bank-transfer-manual', 'late@example.com');
    await applyGiftCard(client, card.code);
    await shop.dataSource.getRepository(GiftCard).update({ id: card.id }, { status: 'disabled' });
    const placed = await placeOrder(client);
    expect([placed.status, placed.body.error]).toEqual([
      409,
      {
        code: 'gift_card_disabled',
        message: `Gift card ${grouped(card.code)} is disabled. Contact us if this is unexpected. Remove it.`,
      },
    ]);
    expect(await shop.dataSource.getRepository(Order).countBy({ email: 'late@example.com' })).toBe(0);
  });

  it('never takes more than a card holds: a 409 and a rolled-back order for the one that comes too late', async () => {
    const card = await issueCard(shop, 30);
    const redemption = shop.app.get(GiftCardRedemption);
    const runner = shop.app.get(TransactionRunner);
    const spend = (orderId: number, amount: number) =>
      runner.run((tx) =>
        redemption.spend(tx, { id: orderId, currency: 'EUR' }, [{ id: card.id, code: card.code, amount }]),
      );
    await spend(900_001, 2000);
    await expect(spend(900_002, 2000)).rejects.toMatchObject({ status: 409, code: 'gift_card_balance_changed' });
    await expect(spend(900_003, 1000)).resolves.toBeUndefined();
    expect(await reloadCard(shop, card.id)).toMatchObject({ balance: 0, status: 'used' });
    expect((await ledger(card.id)).map((row) => [row.orderId, row.amount])).toEqual([
      [900_001, -2000],
      [900_003, -1000],
    ]);
  });

  it('lets 10 checkouts at once spend one card: together never more than its balance, and cancel restores it', async () => {
    const card = await issueCard(shop, 100);
    const clients = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const client = await shopper('cod', `racer${i}@example.com`);
        const applied = await applyGiftCard(client, card.code, `198.51.100.${20 + i}`);
        expect(applied.body.cart).toMatchObject({ giftCardTotal: 43.9, amountDue: 0 });
        return client;
      }),
    );

    const responses = await Promise.all(clients.map((client) => placeOrder(client)));

    const placed = responses.filter((res) => res.status === 200);
    const refused = responses.filter((res) => res.status !== 200);
    for (const res of refused) {
      expect(res.status).toBe(409);
      expect(['gift_card_balance_changed', 'gift_card_empty']).toContain(res.body.error.code);
    }
    // 100 pays two orders of 43.90 in full; run one after another, a third gets the 12.20 left.
    expect(placed.length).toBeGreaterThanOrEqual(2);
    expect(placed.length).toBeLessThanOrEqual(3);
    const orders = await Promise.all(placed.map((res) => orderByNumber(res.body.orderNumber)));
    const spends = await ledger(card.id);
    expect(spends).toHaveLength(orders.length);
    for (const order of orders) {
      expect(spends.find((row) => row.orderId === order.id)!.amount).toBe(-order.giftCardTotal);
    }
    const spent = orders.reduce((sum, order) => sum + order.giftCardTotal, 0);
    expect(spent).toBeLessThanOrEqual(10_000);
    expect((await reloadCard(shop, card.id)).balance).toBe(10_000 - spent);
    // Refused checkouts placed no order and left their carts open.
    const ordered = await shop.dataSource
      .getRepository(Order)
      .createQueryBuilder('o')
      .where('o.email LIKE :racers', { racers: 'racer%' })
      .getCount();
    expect(ordered).toBe(placed.length);

    for (const order of orders) await cancel(order);
    expect(await reloadCard(shop, card.id)).toMatchObject({ balance: 10_000, status: 'active' });
    expect((await ledger(card.id)).filter((row) => row.kind === 'refund')).toHaveLength(orders.length);
  });

  it(`throttles applying codes to ${GIFT_CARD_APPLY_LIMIT} a minute per address`, async () => {
    const client = await shopper('bank-transfer-manual', 'guesser@example.com');
    const ip = '203.0.113.50';
    for (let i = 0; i < GIFT_CARD_APPLY_LIMIT; i++) {
      expect((await applyGiftCard(client, 'ABCD-EFGH-JKMN-PQRS', ip)).status).toBe(400);
    }
    const refused = await applyGiftCard(client, 'ABCD-EFGH-JKMN-PQRS', ip);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });
});
