import { CustomerAddress } from '../../src/commerce/customers/customer-address.entity';
import { Customer } from '../../src/commerce/customers/customer.entity';
import { EmailVerification } from '../../src/commerce/customers/email-verification.entity';
import { NewsletterSubscriber } from '../../src/commerce/marketing/newsletter-subscriber.entity';
import { WatchdogAlert } from '../../src/commerce/marketing/watchdog-alert.entity';
import { WishlistItem } from '../../src/commerce/wishlists/wishlist-item.entity';
import { Wishlist } from '../../src/commerce/wishlists/wishlist.entity';
import { OrderLine } from '../../src/commerce/orders/order-line.entity';
import { Order } from '../../src/commerce/orders/order.entity';
import { SettingsService } from '../../src/config/settings.service';
import { Job } from '../../src/jobs/job.entity';
import { productBySku } from '../support/catalog';
import { ADDRESS, addToCart, fillCheckout, placeOrder, shippingValue } from '../support/checkout';
import { CUSTOMER_PASSWORD, registerCustomer } from '../support/customers';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp, usingMysql } from '../support/test-app';

const NEW_PASSWORD = 'a much longer passphrase';

/** The account dashboard, login details (e-mail and password) and account deletion. */
describe(`account pages (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  beforeAll(async () => {
    shop = await startTestApp();
  });
  afterAll(() => shop.close());

  const customers = () => shop.dataSource.getRepository(Customer);
  const page = (client: ShopClient, path: string) => client.get(path).set('Accept', 'text/html');
  const logIn = (client: ShopClient, loginName: string, password: string) =>
    client.post('/shop/ajax-authorize', { loginName, password });

  /** A new customer, logged in on `client`, with a home address and one cash-on-delivery order. */
  async function shopper(client: ShopClient, firstName = 'Ada') {
    const email = await registerCustomer(client, { firstName });
    const customer = await customers().findOneByOrFail({ email });
    expect((await client.post('/shop/account/address-book/save', ADDRESS)).status).toBe(200);
    await addToCart(client, (await productBySku(shop.dataSource, 'DEMO-HEADLAMP')).id, 1);
    await fillCheckout(client, {
      email,
      shippingMethod: await shippingValue(shop.dataSource, 'flat-rate'),
      paymentMethod: 'cod',
    });
    const placed = await placeOrder(client);
    expect(placed.status).toBe(200);
    const order = await shop.dataSource.getRepository(Order).findOneByOrFail({ number: placed.body.orderNumber });
    return { email, customer, order };
  }

  it('greets the customer with recent orders, default addresses and links to every account page', async () => {
    const client = new ShopClient(shop.server);
    const { email, order } = await shopper(client);
    const res = await page(client, '/shop/account').expect(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(res.text).toContain('<meta name="csrf-token"');
    expect(res.text).toContain('Hello, Ada');
    expect(res.text).toContain(email);
    expect(res.text).toContain(order.reference);
    expect(res.text).toContain('Default billing address');
    expect(res.text).toContain('Hlavná 1');
    for (const link of [
      'my-orders',
      'my-invoices',
      'address-book',
      'wishlists',
      'watchdog',
      'subscriptions',
      'login-details',
    ]) {
      expect(res.text).toContain(`href="/shop/account/${link}"`);
    }

    const details = await page(client, '/shop/account/login-details').expect(200);
    expect(details.text).toContain(`value="${email}"`);
    expect(details.text).toContain('autocomplete="current-password"');
    expect(details.text).toContain('autocomplete="new-password"');
    expect(details.text).toContain('action="/shop/account/delete"');
  });

  it('sends guests to the login page, needs a CSRF token on every post and is not there while accounts are off', async () => {
    const guest = new ShopClient(shop.server);
    for (const path of ['/shop/account', '/shop/account/login-details']) {
      const res = await page(guest, path).expect(302);
      expect(res.headers.location).toBe(`/shop/login?return=${encodeURIComponent(path)}`);
    }
    const json = await guest.post('/shop/account/login-details/save', { currentPassword: 'x' });
    expect(json.status).toBe(401);
    expect(json.body.error.code).toBe('login_required');

    const client = new ShopClient(shop.server);
    await registerCustomer(client);
    for (const path of ['/shop/account/login-details/save', '/shop/account/delete']) {
      const res = await client.agent
        .post(path)
        .send({ currentPassword: CUSTOMER_PASSWORD, password: CUSTOMER_PASSWORD });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('csrf_invalid');
    }

    const settings = shop.app.get(SettingsService);
    await settings.save({ customerAccountsEnabled: false });
    try {
      await page(client, '/shop/account').expect(404);
      await page(guest, '/shop/account/login-details').expect(404);
      expect((await client.post('/shop/account/login-details/save', {})).status).toBe(404);
      expect((await client.post('/shop/account/delete', { password: CUSTOMER_PASSWORD })).status).toBe(404);
    } finally {
      await settings.save({ customerAccountsEnabled: true });
    }
    await page(client, '/shop/account').expect(200);
  });

  it('changes the e-mail once the current password is confirmed', async () => {
    const client = new ShopClient(shop.server);
    const email = await registerCustomer(client);
    const taken = await registerCustomer(new ShopClient(shop.server));
    const save = (body: object) => client.post('/shop/account/login-details/save', body);

    const missing = await save({ email: 'new@example.com' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.fields).toEqual({ currentPassword: ['is required'] });
    const wrong = await save({ email: 'new@example.com', currentPassword: 'not the password' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.fields).toEqual({ currentPassword: ['is not your current password'] });
    const invalid = await save({ email: 'not an e-mail', currentPassword: CUSTOMER_PASSWORD });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.fields).toEqual({ email: ['must be an e-mail address'] });
    const conflict = await save({ email: taken.toUpperCase(), currentPassword: CUSTOMER_PASSWORD });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error).toMatchObject({ code: 'email_taken', fields: { email: ['is already registered'] } });
    expect((await customers().findOneByOrFail({ email })).email).toBe(email);

    // The old address was confirmed; the new one is not until its owner follows the link mailed to it.
    await customers().update({ email }, { emailVerifiedAt: Date.now() });
    const newEmail = `Changed.${email.toUpperCase()} `;
    const saved = await save({ email: newEmail, currentPassword: CUSTOMER_PASSWORD });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      success: true,
      emailChanged: true,
      passwordChanged: false,
      customer: { email: `changed.${email}` },
    });
    expect((await customers().findOneByOrFail({ email: `changed.${email}` })).emailVerifiedAt).toBeNull();
    const mails = await shop.dataSource.getRepository(Job).findBy({ name: 'mail.send' });
    const confirmation = mails.find((job) => job.payload.to === `changed.${email}`);
    expect(confirmation?.payload.text).toContain('was just changed to this one');
    expect(confirmation?.payload.text).toMatch(/\/shop\/customer\/verify-email\?token=[0-9a-f]{64}\n/);
    expect((await logIn(new ShopClient(shop.server), `changed.${email}`, CUSTOMER_PASSWORD)).status).toBe(200);

    // The form: a 303 back to the page, which shows what happened.
    const form = await client.submitForm('/shop/account/login-details/save', {
      email: `changed.${email}`,
      newPassword: '',
      currentPassword: CUSTOMER_PASSWORD,
    });
    expect(form.status).toBe(303);
    expect(form.headers.location).toBe('/shop/account/login-details');
    expect((await page(client, '/shop/account/login-details')).text).toContain('Nothing was changed.');
  });

  it('changes the password: this browser stays logged in while every other session ends', async () => {
    const here = new ShopClient(shop.server);
    const email = await registerCustomer(here);
    const elsewhere = new ShopClient(shop.server);
    expect((await logIn(elsewhere, email, CUSTOMER_PASSWORD)).status).toBe(200);
    await page(elsewhere, '/shop/account').expect(200);
    const before = await customers().findOneByOrFail({ email });

    const weak = await here.post('/shop/account/login-details/save', {
      currentPassword: CUSTOMER_PASSWORD,
      newPassword: 'short',
    });
    expect(weak.status).toBe(400);
    expect(weak.body.error.fields).toEqual({ newPassword: ['must be at least 10 characters long'] });

    const form = await here.submitForm('/shop/account/login-details/save', {
      email,
      currentPassword: CUSTOMER_PASSWORD,
      newPassword: NEW_PASSWORD,
    });
    expect(form.status).toBe(303);
    expect((await page(here, '/shop/account/login-details').expect(200)).text).toContain(
      'Your login details were saved.',
    );
    expect((await customers().findOneByOrFail({ email })).authVersion).toBe(before.authVersion + 1);

    const other = await page(elsewhere, '/shop/account').expect(302);
    expect(other.headers.location).toBe('/shop/login?return=%2Fshop%2Faccount');
    expect((await logIn(new ShopClient(shop.server), email, CUSTOMER_PASSWORD)).status).toBe(401);
    expect((await logIn(new ShopClient(shop.server), email, NEW_PASSWORD)).status).toBe(200);
  });

  it("leaves a session the password change ended neither the account's cart nor its orders", async () => {
    const here = new ShopClient(shop.server);
    const email = await registerCustomer(here);
    const [ordering, filling] = [new ShopClient(shop.server), new ShopClient(shop.server)];
    for (const elsewhere of [ordering, filling])
      expect((await logIn(elsewhere, email, CUSTOMER_PASSWORD)).status).toBe(200);
    const headlamp = await productBySku(shop.dataSource, 'DEMO-HEADLAMP');
    await addToCart(ordering, headlamp.id, 1);
    await fillCheckout(ordering, {
      email,
      shippingMethod: await shippingValue(shop.dataSource, 'flat-rate'),
      paymentMethod: 'cod',
    });
    const placed = await placeOrder(ordering);
    expect(placed.status).toBe(200);
    // Placing again from the same session finds the same order: the session's cart is that order's.
    expect((await placeOrder(ordering)).body.orderNumber).toBe(placed.body.orderNumber);
    await addToCart(filling, headlamp.id, 3);
    const miniCart = async (client: ShopClient) =>
      (await client.get('/shop/customer/section-load/mini-cart').expect(200)).body.itemCount;
    expect(await miniCart(filling)).toBe(3);

    const changed = await here.post('/shop/account/login-details/save', {
      currentPassword: CUSTOMER_PASSWORD,
      newPassword: NEW_PASSWORD,
    });
    expect(changed.status).toBe(200);

    // Those sessions still name the account's carts; neither the order nor the open cart answers them.
    const again = await placeOrder(ordering);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('cart_empty');
    expect(JSON.stringify(again.body)).not.toContain(placed.body.orderNumber);
    expect(await miniCart(filling)).toBe(0);
    expect((await filling.get('/shop/checkout/get-init-values').expect(200)).body.cart.itemCount).toBe(0);
    // The owner, logged in again, finds the cart where they left it.
    const owner = new ShopClient(shop.server);
    expect((await logIn(owner, email, NEW_PASSWORD)).status).toBe(200);
    expect(await miniCart(owner)).toBe(3);
  });

  it('deletes the account: personal data goes, orders stay anonymised, every session ends and the login fails', async () => {
    const client = new ShopClient(shop.server);
    const { email, customer, order } = await shopper(client, 'Grace');
    const elsewhere = new ShopClient(shop.server);
    expect((await logIn(elsewhere, email, CUSTOMER_PASSWORD)).status).toBe(200);
    const product = await productBySku(shop.dataSource, 'DEMO-TENT-2P');
    const wishlist = await shop.dataSource
      .getRepository(Wishlist)
      .save({ customerId: customer.id, name: 'Default', isDefault: true });
    await shop.dataSource.getRepository(WishlistItem).save({ wishlistId: wishlist.id, productId: product.id });
    await shop.dataSource.getRepository(WatchdogAlert).save({ customerId: customer.id, productId: product.id });
    await shop.dataSource.getRepository(NewsletterSubscriber).save({ email, status: 'confirmed', firstName: 'Grace' });
    const lines = await shop.dataSource.getRepository(OrderLine).countBy({ orderId: order.id });

    const wrong = await client.post('/shop/account/delete', { password: 'not the password' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.fields).toEqual({ password: ['is not your current password'] });
    const empty = await client.post('/shop/account/delete', {});
    expect(empty.status).toBe(400);
    expect(empty.body.error.fields.password).toBeDefined();
    expect((await customers().findOneByOrFail({ id: customer.id })).deletedAt).toBeNull();

    const res = await client.submitForm('/shop/account/delete', { password: CUSTOMER_PASSWORD });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/');
    expect((await page(client, '/')).text).toContain('Your account was deleted.');

    const deleted = await customers().findOneByOrFail({ id: customer.id });
    expect(deleted).toMatchObject({
      email: `deleted-${customer.id}@invalid`,
      firstName: 'Deleted',
      lastName: 'Deleted',
      passwordHash: null,
      username: null,
      socialIds: null,
      emailVerifiedAt: null,
      authVersion: customer.authVersion + 1,
    });
    expect(deleted.deletedAt).toEqual(expect.any(Number));
    expect(await shop.dataSource.getRepository(EmailVerification).countBy({ customerId: customer.id })).toBe(0);
    expect(await shop.dataSource.getRepository(CustomerAddress).countBy({ customerId: customer.id })).toBe(0);
    expect(await shop.dataSource.getRepository(Wishlist).countBy({ customerId: customer.id })).toBe(0);
    expect(await shop.dataSource.getRepository(WishlistItem).countBy({ wishlistId: wishlist.id })).toBe(0);
    expect(await shop.dataSource.getRepository(WatchdogAlert).countBy({ customerId: customer.id })).toBe(0);
    expect(await shop.dataSource.getRepository(NewsletterSubscriber).countBy({ email })).toBe(0);

    // The order stays for the books, without the person.
    const kept = await shop.dataSource.getRepository(Order).findOneByOrFail({ id: order.id });
    expect(kept).toMatchObject({
      customerId: customer.id,
      status: order.status,
      total: order.total,
      tax: order.tax,
      email: `deleted-${customer.id}@invalid`,
      billingAddress: {
        firstName: 'Deleted',
        lastName: 'Deleted',
        street: 'Deleted',
        city: 'Bratislava',
        zipCode: '811 01',
        country: 'SK',
      },
    });
    expect(kept.billingAddress.phone).toBeUndefined();
    expect(kept.shippingAddress).toMatchObject({ firstName: 'Deleted', street: 'Deleted' });
    expect(JSON.stringify(kept)).not.toContain('Lovelace');
    expect(await shop.dataSource.getRepository(OrderLine).countBy({ orderId: order.id })).toBe(lines);

    await page(client, '/shop/account').expect(302);
    await page(elsewhere, '/shop/account').expect(302);
    expect((await logIn(new ShopClient(shop.server), email, CUSTOMER_PASSWORD)).status).toBe(401);
    // The e-mail address is free again for a new account.
    await registerCustomer(new ShopClient(shop.server), { email });
  });
});
