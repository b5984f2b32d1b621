import { CouponService } from '../../src/commerce/coupons/coupon.service';
import { Order } from '../../src/commerce/orders/order.entity';
import { Product } from '../../src/commerce/products/product.entity';
import { productBySku } from '../support/catalog';
import { AJAX, ADDRESS, addToCart, fillCheckout, placeOrder, shippingValue } from '../support/checkout';
import { CUSTOMER_PASSWORD, registerCustomer } from '../support/customers';
import { chooseAtBank, comeBackFromBank } from '../support/sandbox-bank';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp, usingMysql } from '../support/test-app';

const SHIPPING_ADDRESS = {
  ...ADDRESS,
  firstName: 'Charles',
  lastName: 'Babbage',
  street: 'Obchodná 5',
  phone: '+421 911 000 111',
};

/** A text as a handlebars page writes it. */
const html = (text: string) => text.replace(/&/g, '&amp;');

/**
 * "Try again" on the failed page of an order the gateway's answer canceled (a declined PayPlus card, an abandoned
 * loan application, both against the sandbox bank): the same items and checkout details go back into the cart of
 * the session that placed it, stock permitting, and a second click changes nothing.
 */
describe(`try again after a declined payment (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let flatRate: string;
  beforeAll(async () => {
    shop = await startTestApp({ listen: true });
    flatRate = await shippingValue(shop.dataSource, 'flat-rate');
  });
  afterAll(() => shop.close());

  const products = () => shop.dataSource.getRepository(Product);
  const product = (sku: string) => productBySku(shop.dataSource, sku);
  const reload = (id: number) => shop.dataSource.getRepository(Order).findOneByOrFail({ id });
  const initValues = async (client: ShopClient) =>
    (await client.get('/shop/checkout/get-init-values').expect(200)).body;
  /** The cart as checkout shows it: `sku → qty`. */
  const cartQuantities = async (client: ShopClient) =>
    Object.fromEntries(
      ((await initValues(client)).cart.items as Array<{ sku: string; qty: number }>).map((item) => [
        item.sku,
        item.qty,
      ]),
    );
  const tryAgain = (client: ShopClient, orderNumber: string) =>
    client.post('/shop/checkout/try-again', { order: orderNumber });

  /** A shopper's order of `items` (sku → qty) paid with `code`, which the sandbox bank answers with `outcome`. */
  async function declined(
    items: Record<string, number>,
    { code = 'bankpay', outcome = 'card-declined', client = new ShopClient(shop.server) } = {},
  ) {
    for (const [sku, qty] of Object.entries(items)) await addToCart(client, (await product(sku)).id, qty);
    await fillCheckout(client, {
      shippingMethod: flatRate,
      paymentMethod: code,
      extra: { shippingAddress: SHIPPING_ADDRESS, notes: 'Leave it at the door' },
    });
    const placed = await placeOrder(client);
    expect(placed.status).toBe(200);
    const order = await shop.dataSource.getRepository(Order).findOneByOrFail({ number: placed.body.orderNumber });
    const back = await chooseAtBank(shop, placed.body.redirect as string, outcome);
    expect(await comeBackFromBank(client, back)).toBe('/shop/checkout/failed');
    expect((await reload(order.id)).status).toBe('canceled');
    return { client, order };
  }

  it('offers try again on the failed page: the same items, quantities and details come back, and the sale goes through', async () => {
    const { client, order } = await declined({ 'DEMO-HEADLAMP': 2, 'DEMO-STICKER-LOGO': 3 });
    // Today's starting point: the ordered cart is gone, checkout sends the shopper to the cart.
    expect((await client.get('/shop/checkout').set('Accept', 'text/html')).headers.location).toBe('/shop/cart');
    const failedPage = await client.get('/shop/checkout/failed').set('Accept', 'text/html').expect(200);
    expect(failedPage.text).toContain('action="/shop/checkout/try-again"');
    expect(failedPage.text).toContain(`name="order" value="${order.number}"`);
    expect(failedPage.text).toContain('Try again');

    const posted = await client.submitForm('/shop/checkout/try-again', { order: order.number });
    expect(posted.status).toBe(303);
    expect(posted.headers.location).toBe('/shop/checkout');
    const checkoutPage = await client.get('/shop/checkout').set('Accept', 'text/html').expect(200);
    expect(checkoutPage.text).toContain(`The items of order ${order.reference} are back in your cart`);
    expect(await cartQuantities(client)).toEqual({ 'DEMO-HEADLAMP': 2, 'DEMO-STICKER-LOGO': 3 });
    const details = await initValues(client);
    expect(details).toMatchObject({
      email: 'ada@example.com',
      billingAddress: ADDRESS,
      shippingAddress: SHIPPING_ADDRESS,
      sameAsBilling: false,
      notes: 'Leave it at the door',
      // The method that failed is not chosen again; shipping is chosen again for the cart as it is now.
      paymentMethod: null,
    });

    // The shopper finishes the sale from here: shipping, another try with the card, paid.
    await fillCheckout(client, {
      shippingMethod: flatRate,
      paymentMethod: 'bankpay',
      extra: { shippingAddress: details.shippingAddress, notes: details.notes },
    });
    const again = await placeOrder(client);
    expect(again.status).toBe(200);
    expect(again.body.orderNumber).not.toBe(order.number);
    expect(await comeBackFromBank(client, await chooseAtBank(shop, again.body.redirect, 'card-ok'))).toBe(
      '/shop/checkout/success',
    );
    const paid = await shop.dataSource.getRepository(Order).findOneByOrFail({ number: again.body.orderNumber });
    expect(paid).toMatchObject({ status: 'paid', total: order.total, shippingAddress: SHIPPING_ADDRESS });
    expect((await reload(order.id)).status).toBe('canceled');
  });

  it('answers the AJAX twin with JSON after an abandoned loan application', async () => {
    const { client, order } = await declined({ 'DEMO-BLANKET-WOOL': 1 }, { code: 'bankpay-loan', outcome: 'cancel' });
    const answer = await client.agent
      .post('/shop/checkout/try-again')
      .set('X-CSRF-Token', await client.csrfToken())
      .set(AJAX)
      .send({ order: order.number });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      success: true,
      redirect: '/shop/checkout',
      message: expect.stringContaining(order.reference),
      items: [{ sku: 'DEMO-BLANKET-WOOL', wanted: 1, qty: 1, outcome: 'held' }],
      cart: { items: [{ sku: 'DEMO-BLANKET-WOOL', qty: 1 }], total: order.total / 100 },
    });
  });

  it('brings the coupon back with the items, with its discount', async () => {
    await shop.app.get(CouponService).create({ code: 'RETRY10', type: 'percent', value: 10, usageLimit: 5 });
    const client = new ShopClient(shop.server);
    await addToCart(client, (await product('DEMO-HEADLAMP')).id, 1);
    expect((await client.post('/shop/cart/add-coupon', { coupon_code: 'RETRY10' })).status).toBe(200);
    const { order } = await declined({}, { client });
    expect(order.couponCode).toBe('RETRY10');
    expect(order.discount).toBeGreaterThan(0);
    const answer = await tryAgain(client, order.number);
    expect(answer.status).toBe(200);
    expect(answer.body.cart).toMatchObject({ couponCode: 'RETRY10', discount: order.discount / 100 });
  });

  it('lets no other session refill from the order, not even one that followed its bank return link', async () => {
    const { client, order } = await declined({ 'DEMO-HEADLAMP': 1 });
    const stranger = new ShopClient(shop.server);
    const refused = await tryAgain(stranger, order.number);
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ success: false, error: { code: 'not_found' } });

    // The return link names the order, and makes it the stranger's "last order": that proves nothing.
    await stranger.get(`/shop/checkout/process-payment?order=${order.number}`).set('Accept', 'text/html');
    const failedPage = await stranger.get('/shop/checkout/failed').set('Accept', 'text/html').expect(200);
    expect(failedPage.text).not.toContain('try-again');
    expect((await tryAgain(stranger, order.number)).status).toBe(404);
    expect((await initValues(stranger)).cart.items).toEqual([]);

    // The shopper's own session still may; a malformed number is a 400.
    expect((await tryAgain(client, order.number)).status).toBe(200);
    const malformed = await tryAgain(client, 'not-an-order');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.fields).toHaveProperty('order');
  });

  it('lets the customer who owns the order refill from another session after logging in', async () => {
    const owner = new ShopClient(shop.server);
    const email = await registerCustomer(owner);
    const { order } = await declined({ 'DEMO-HEADLAMP': 1 }, { client: owner });
    expect(order.customerId).not.toBeNull();
    const elsewhere = new ShopClient(shop.server);
    expect((await tryAgain(elsewhere, order.number)).status).toBe(404);
    const login = await elsewhere.post('/shop/ajax-authorize', { loginName: email, password: CUSTOMER_PASSWORD });
    expect(login.status).toBe(200);
    expect((await tryAgain(elsewhere, order.number)).status).toBe(200);
    expect(await cartQuantities(elsewhere)).toEqual({ 'DEMO-HEADLAMP': 1 });
  });

  it('leaves out an item sold out meanwhile and reduces one short on stock, and says so', async () => {
    const { client, order } = await declined({ 'DEMO-HEADLAMP': 2, 'DEMO-STICKER-LOGO': 5 });
    const onlyHeadlamp = await declined({ 'DEMO-HEADLAMP': 1 });
    const headlamp = await product('DEMO-HEADLAMP');
    const sticker = await product('DEMO-STICKER-LOGO');
    await products().update({ id: headlamp.id }, { stock: 0 });
    await products().update({ id: sticker.id }, { stock: 3 });
    try {
      const posted = await client.submitForm('/shop/checkout/try-again', { order: order.number });
      expect(posted.headers.location).toBe('/shop/checkout');
      const page = await client.get('/shop/checkout').set('Accept', 'text/html').expect(200);
      expect(page.text).toContain(`No longer available, left out: ${html(headlamp.name)}.`);
      expect(page.text).toContain(`Fewer in stock than you ordered: ${html(sticker.name)} (3 of 5).`);
      expect(page.text).toContain('flash-info');
      expect(await cartQuantities(client)).toEqual({ 'DEMO-STICKER-LOGO': 3 });

      // Nothing of an order left to buy: a 409, and no cart is opened for it.
      const nothing = await tryAgain(onlyHeadlamp.client, onlyHeadlamp.order.number);
      expect(nothing.status).toBe(409);
      expect(nothing.body.error.code).toBe('order_items_unavailable');
      expect((await initValues(onlyHeadlamp.client)).cart.items).toEqual([]);
    } finally {
      await products().update({ id: headlamp.id }, { stock: headlamp.stock });
      await products().update({ id: sticker.id }, { stock: sticker.stock });
    }
  });

  it('does not double quantities on a second click, nor on two clicks at once', async () => {
    const { client, order } = await declined({ 'DEMO-HEADLAMP': 2, 'DEMO-STICKER-LOGO': 1 });
    expect((await tryAgain(client, order.number)).status).toBe(200);
    expect((await tryAgain(client, order.number)).status).toBe(200);
    expect(await cartQuantities(client)).toEqual({ 'DEMO-HEADLAMP': 2, 'DEMO-STICKER-LOGO': 1 });

    // The shopper added more meanwhile: a refill keeps it, and leaves other lines alone.
    await addToCart(client, (await product('DEMO-HEADLAMP')).id, 1);
    await addToCart(client, (await product('DEMO-BLANKET-WOOL')).id, 1);
    const both = await Promise.all([tryAgain(client, order.number), tryAgain(client, order.number)]);
    expect(both.map((answer) => answer.status)).toEqual([200, 200]);
    expect(await cartQuantities(client)).toEqual({
      'DEMO-HEADLAMP': 3,
      'DEMO-STICKER-LOGO': 1,
      'DEMO-BLANKET-WOOL': 1,
    });

    const fresh = await declined({ 'DEMO-HEADLAMP': 1 });
    await Promise.all([tryAgain(fresh.client, fresh.order.number), tryAgain(fresh.client, fresh.order.number)]);
    expect(await cartQuantities(fresh.client)).toEqual({ 'DEMO-HEADLAMP': 1 });
  });

  it('refuses an order that is not canceled: its own payment is retried instead', async () => {
    const client = new ShopClient(shop.server);
    await addToCart(client, (await product('DEMO-HEADLAMP')).id, 1);
    await fillCheckout(client, { shippingMethod: flatRate, paymentMethod: 'bankpay' });
    const placed = await placeOrder(client);
    const refused = await tryAgain(client, placed.body.orderNumber);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('order_not_canceled');
  });

  it('speaks the page language', async () => {
    const { client, order } = await declined({ 'DEMO-HEADLAMP': 1 });
    expect((await client.submitForm('/shop/language/set', { language: 'sk' })).status).toBe(303);
    const failedPage = await client.get('/shop/checkout/failed').set('Accept', 'text/html').expect(200);
    expect(failedPage.text).toContain('Skúsiť znova');
    await client.submitForm('/shop/checkout/try-again', { order: order.number });
    const page = await client.get('/shop/checkout').set('Accept', 'text/html').expect(200);
    expect(page.text).toContain(`Položky objednávky ${order.reference} sú opäť vo vašom košíku`);
  });
});
