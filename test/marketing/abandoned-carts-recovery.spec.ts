import { randomBytes } from 'node:crypto';
import { CartLine } from '../../src/commerce/carts/cart-line.entity';
import { Cart } from '../../src/commerce/carts/cart.entity';
import { AbandonedCartRecovery } from '../../src/commerce/marketing/abandoned-cart-recovery.entity';
import { AbandonedCartScanner } from '../../src/commerce/marketing/abandoned-cart-scanner.service';
import { Order } from '../../src/commerce/orders/order.entity';
import { Product } from '../../src/commerce/products/product.entity';
import { formatMoney } from '../../src/common/money-format';
import { SettingsService } from '../../src/config/settings.service';
import { CpUsersService } from '../../src/commerce/staff/cp-users.service';
import { productBySku } from '../support/catalog';
import { addToCart, fillCheckout, placeOrder, shippingValue } from '../support/checkout';
import { ShopClient } from '../support/shop-client';
import { startSmtpCapture } from '../support/smtp-capture';
import { jobsSettled, startTestApp, TestApp, usingMysql } from '../support/test-app';
import { cartWithEmail, idleFor, RECOVER } from './abandoned-carts-support';

const EUR = { code: 'EUR', decimals: 2 };
const CP_PAGE = '/admin/marketing/abandoned-carts';

/** The recovery link restores a cart into a new session; staff see carts and recovered revenue. */
describe(`abandoned-cart recovery (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
  let abandoned: Cart;
  let restoredCartId: number;
  let orderNumber: string;

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    shop = await startTestApp({ env: { SMTP_URL: smtp.url } });
    ({ cart: abandoned } = await cartWithEmail(shop, 'grace@example.com', { 'DEMO-HEADLAMP': 2, 'DEMO-POT-TI': 1 }));
    await idleFor(shop, abandoned.id, 61);
  });
  afterAll(async () => {
    await shop.close();
    await smtp.close();
  });

  const product = (sku: string) => productBySku(shop.dataSource, sku);
  const linesOf = (cartId: number) =>
    shop.dataSource.getRepository(CartLine).find({ where: { cartId }, order: { id: 'ASC' } });
  const html = (client: ShopClient, path: string) => client.get(path).set('Accept', 'text/html');

  it('restores the lines that can still be bought into a new session cart and shows the cart page', async () => {
    const [headlamp, pot, carabiner] = await Promise.all([
      product('DEMO-HEADLAMP'),
      product('DEMO-POT-TI'),
      product('DEMO-CARABINER'),
    ]);
    await shop.dataSource.getRepository(Product).update({ id: pot.id }, { stock: 0 });
    const visitor = new ShopClient(shop.server);
    await addToCart(visitor, carabiner.id);

    const opened = await html(visitor, `${RECOVER}/${abandoned.uid}`);
    expect(opened.status).toBe(302);
    expect(opened.headers.location).toBe('/shop/cart');
    expect(opened.headers['cache-control']).toBe('no-store');

    const page = await html(visitor, '/shop/cart').expect(200);
    expect(page.text).toContain('Welcome back! 1 item(s) restored; 1 could not be (no longer available).');
    expect(page.text).toContain(headlamp.name);
    expect(page.text).not.toContain(carabiner.name);

    const recovery = await shop.dataSource
      .getRepository(AbandonedCartRecovery)
      .findOneByOrFail({ abandonedCartId: abandoned.id });
    restoredCartId = recovery.cartId!;
    const restored = await shop.dataSource.getRepository(Cart).findOneByOrFail({ id: restoredCartId });
    expect(restored).toMatchObject({ orderedAt: null, email: null, currency: 'EUR' });
    expect(restored.uid).not.toBe(abandoned.uid);
    expect((await linesOf(restoredCartId)).map(({ productId, qty }) => ({ productId, qty }))).toEqual([
      { productId: headlamp.id, qty: 2 },
    ]);
    // The abandoned cart keeps its lines, and its reminders stop.
    expect((await linesOf(abandoned.id)).map(({ productId, qty }) => ({ productId, qty }))).toEqual([
      { productId: headlamp.id, qty: 2 },
      { productId: pot.id, qty: 1 },
    ]);
    expect(await shop.app.get(AbandonedCartScanner).scan()).toBe(0);
    await jobsSettled(shop);
    expect(smtp.messages.filter((mail) => mail.to.includes('grace@example.com'))).toEqual([]);

    await shop.dataSource.getRepository(Product).update({ id: pot.id }, { stock: pot.stock });
    await fillCheckout(visitor, {
      email: 'grace@example.com',
      shippingMethod: await shippingValue(shop.dataSource, 'flat-rate'),
      paymentMethod: 'cod',
    });
    const placed = await placeOrder(visitor);
    expect(placed.status).toBe(200);
    orderNumber = placed.body.orderNumber;
    expect(await shop.dataSource.getRepository(Order).findOneByOrFail({ number: orderNumber })).toMatchObject({
      cartId: restoredCartId,
    });
  });

  it('explains, on a friendly page, links that restore nothing', async () => {
    const visitor = new ShopClient(shop.server);
    const shopLink = 'href="/shop/catalog/products"';

    const unknown = await html(visitor, `${RECOVER}/${randomBytes(16).toString('hex')}`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers['content-type']).toMatch(/^text\/html/);
    expect(unknown.text).toContain('<meta name="viewport"');
    expect(unknown.text).toContain('We could not find a saved cart for this link.');
    expect(unknown.text).toContain(shopLink);

    for (const malformed of [String(abandoned.id), abandoned.uid.toUpperCase(), `${abandoned.uid}0`]) {
      const res = await html(visitor, `${RECOVER}/${malformed}`);
      expect(res.status).toBe(404);
      expect(res.text).toContain('We could not find a saved cart for this link.');
    }

    const restored = await shop.dataSource.getRepository(Cart).findOneByOrFail({ id: restoredCartId });
    const ordered = await html(visitor, `${RECOVER}/${restored.uid}`);
    expect(ordered.status).toBe(200);
    expect(ordered.text).toContain('Already ordered');
    expect(ordered.text).toContain('this cart has already been ordered');
    expect(ordered.text).toContain(shopLink);
    expect(await shop.dataSource.getRepository(AbandonedCartRecovery).countBy({ abandonedCartId: restored.id })).toBe(
      0,
    );
  });

  it('shows staff the abandoned carts, their reminders and recovery, and the recovered revenue', async () => {
    const waiting = await cartWithEmail(shop, 'waiting.shopper@example.com', { 'DEMO-TAMPER': 1 });
    await idleFor(shop, waiting.cart.id, 61);
    expect(await shop.app.get(AbandonedCartScanner).scan()).toBe(1);
    await jobsSettled(shop);
    await cartWithEmail(shop, 'fresh@example.com', { 'DEMO-TAMPER': 1 });

    const staff = new ShopClient(shop.server);
    await staff.loginCp();
    const page = await html(staff, CP_PAGE).expect(200);
    const order = await shop.dataSource.getRepository(Order).findOneByOrFail({ number: orderNumber });
    expect(page.text).toContain(`href="${CP_PAGE}"`);
    expect(page.text).toContain('<h2 id="revenue-heading">Recovered revenue</h2>');
    expect(page.text).toContain(`<strong>${formatMoney(order.total, EUR)}</strong> from 1 order(s) in EUR`);
    expect(page.text).toContain('2 abandoned cart(s)');

    const rows = page.text.split('<tr>').slice(2);
    const grace = rows.find((row) => row.includes('gr***@example.com'))!;
    expect(grace).toContain('€127.00');
    expect(grace).toContain(`<a href="/admin/orders/${order.id}">${order.reference}</a>`);
    const waitingRow = rows.find((row) => row.includes('wa***@example.com'))!;
    expect(waitingRow).toContain('€32.00');
    expect(waitingRow).toMatch(/<td>1 \(last \d{4}-\d\d-\d\d \d\d:\d\d\)<\/td>/);
    expect(waitingRow).toContain('waiting');
    expect(page.text).not.toContain('grace@example.com');
    expect(page.text).not.toContain('waiting.shopper@example.com');
    // Not idle long enough to count as abandoned.
    expect(page.text).not.toContain('fr***@example.com');

    // A canceled order is not revenue.
    await shop.dataSource.getRepository(Order).update({ id: order.id }, { status: 'canceled' });
    const after = await html(staff, CP_PAGE).expect(200);
    expect(after.text).toContain('No order has come from a recovered cart yet.');
    await shop.dataSource.getRepository(Order).update({ id: order.id }, { status: order.status });
  });

  it('opens the CP page only to staff with accessMarketing', async () => {
    const users = shop.app.get(CpUsersService);
    await users.create({ email: 'clerk@example.com', password: 'clerk-password-1' });
    await users.create({
      email: 'marketer@example.com',
      password: 'marketer-password-1',
      permissions: ['accessMarketing'],
    });

    const clerk = new ShopClient(shop.server);
    await clerk.loginCp('clerk@example.com', 'clerk-password-1');
    const denied = await clerk.get(CP_PAGE).expect(403);
    expect(denied.body.error).toEqual({
      code: 'forbidden',
      message: 'You need the accessMarketing permission to open this page.',
    });

    const marketer = new ShopClient(shop.server);
    await marketer.loginCp('marketer@example.com', 'marketer-password-1');
    expect((await html(marketer, CP_PAGE)).status).toBe(200);
    expect((await new ShopClient(shop.server).get(CP_PAGE)).status).toBe(302);
  });

  it('answers 404 like an unknown route while salesAbandonedCartsEnabled is off', async () => {
    const settings = shop.app.get(SettingsService);
    const { cart } = await cartWithEmail(shop, 'later@example.com', { 'DEMO-TAMPER': 1 });
    const visitor = new ShopClient(shop.server);
    await settings.save({ salesAbandonedCartsEnabled: false });
    try {
      const off = await visitor.get(`${RECOVER}/${cart.uid}`);
      expect(off.status).toBe(404);
      expect(off.body).toEqual({
        success: false,
        error: { code: 'not_found', message: `Cannot GET ${RECOVER}/${cart.uid}` },
      });
      expect(await shop.dataSource.getRepository(AbandonedCartRecovery).countBy({ abandonedCartId: cart.id })).toBe(0);
    } finally {
      await settings.save({ salesAbandonedCartsEnabled: true });
    }
    const on = await visitor.get(`${RECOVER}/${cart.uid}`);
    expect(on.status).toBe(302);
    expect(await shop.dataSource.getRepository(AbandonedCartRecovery).countBy({ abandonedCartId: cart.id })).toBe(1);
  });
});
