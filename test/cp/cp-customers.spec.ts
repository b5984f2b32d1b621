import { AuditEntry } from '../../src/commerce/audit/audit-entry.entity';
import { CUSTOMER_PAGE_SIZE } from '../../src/commerce/customers/customer-admin.service';
import { CustomerAddress } from '../../src/commerce/customers/customer-address.entity';
import { Customer } from '../../src/commerce/customers/customer.entity';
import { SocialAccountsService } from '../../src/commerce/customers/social-accounts.service';
import { MarketingConsents } from '../../src/commerce/marketing/marketing-consents.service';
import { NewsletterSubscriber } from '../../src/commerce/marketing/newsletter-subscriber.entity';
import { OrderStatus } from '../../src/commerce/orders/order-status.machine';
import { Order } from '../../src/commerce/orders/order.entity';
import { Product } from '../../src/commerce/products/product.entity';
import { WishlistItem } from '../../src/commerce/wishlists/wishlist-item.entity';
import { Wishlist } from '../../src/commerce/wishlists/wishlist.entity';
import { CpUsersService } from '../../src/commerce/staff/cp-users.service';
import { addToCart, fillCheckout, placeOrder, shippingValue } from '../support/checkout';
import { CUSTOMER_PASSWORD, registerCustomer, resetTokenAndCode } from '../support/customers';
import { insertOrder } from '../support/fixtures';
import { ShopClient } from '../support/shop-client';
import { startSmtpCapture } from '../support/smtp-capture';
import { startTestApp, TestApp, usingMysql } from '../support/test-app';

const HTML = { Accept: 'text/html' };

/** The CP customer screens: list, detail, blocking, password-reset e-mail, GDPR export and erasure. */
describe(`CP customers (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
  let admin: ShopClient;
  beforeAll(async () => {
    smtp = await startSmtpCapture();
    shop = await startTestApp({ env: { SMTP_URL: smtp.url } });
    admin = new ShopClient(shop.server);
    await admin.loginCp();
  });
  afterAll(async () => {
    await shop.close();
    await smtp.close();
  });

  const customers = () => shop.dataSource.getRepository(Customer);
  const byEmail = (email: string) => customers().findOneByOrFail({ email });

  /** A customer who registered over HTTP (logged in on `client`), their account row and a unique surname. */
  async function registered(lastName: string, client = new ShopClient(shop.server)) {
    const email = await registerCustomer(client, { firstName: 'Ada', lastName });
    return { client, email, customer: await byEmail(email) };
  }

  /** An order of the customer's, in `currency` for `total` minor units. */
  async function orderOf(customer: Customer, status: OrderStatus, total: number, currency = 'EUR') {
    const order = await insertOrder(shop.dataSource, status);
    await shop.dataSource
      .getRepository(Order)
      .update(order.id, { customerId: customer.id, email: customer.email, total, currency });
    return order;
  }

  /** The list's rows as shown: name, e-mail, orders, spent. */
  async function listed(query: string) {
    const page = await admin.get(`/admin/customers?${query}`).set(HTML).expect(200);
    const rows = [...page.text.matchAll(/<tr class="customer">([\s\S]*?)<\/tr>/g)].map(([, row]) => {
      const cells = [...row.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map(([, cell]) => cell.replace(/<[^>]+>/g, ''));
      return { name: cells[0].trim(), email: cells[1], orders: Number(cells[2]), spent: cells[3] };
    });
    return { rows, text: page.text };
  }

  /** An account page as the client's session meets it: open, or a redirect to the login page. */
  const accountPage = async (client: ShopClient) => {
    const res = await client.get('/shop/account/subscriptions').set(HTML);
    return { status: res.status, location: res.headers.location };
  };
  const LOGGED_OUT = { status: 302, location: expect.stringMatching(/^\/shop\/login/) };

  const auditOf = (customerId: number) =>
    shop.dataSource
      .getRepository(AuditEntry)
      .find({ where: { area: 'customer', subject: String(customerId) }, order: { id: 'ASC' } });

  it('lists customers with their order count and amount spent in the base currency, searched, sorted and paged', async () => {
    const tag = `Zq${Date.now()}`;
    const big = await registered(`${tag}Big`);
    const small = await registered(`${tag}Small`);
    const none = await registered(`${tag}None`);
    await orderOf(big.customer, 'paid', 2980);
    // 39 500 HUF at 395 HUF to the euro: 100.00 EUR.
    await orderOf(big.customer, 'completed', 39500, 'HUF');
    // Counted as an order, not as money spent.
    await orderOf(big.customer, 'canceled', 99900);
    await orderOf(small.customer, 'shipped', 1000);
    await orderOf(small.customer, 'pending_payment', 5000);

    const bySpent = await listed(`q=${tag}&sort=-spent`);
    expect(bySpent.rows).toEqual([
      { name: `Ada ${tag}Big`, email: big.email, orders: 3, spent: '€129.80' },
      { name: `Ada ${tag}Small`, email: small.email, orders: 2, spent: '€10.00' },
      { name: `Ada ${tag}None`, email: none.email, orders: 0, spent: '€0.00' },
    ]);
    expect((await listed(`q=${tag}&sort=spent`)).rows.map((row) => row.email)).toEqual([
      none.email,
      small.email,
      big.email,
    ]);
    expect((await listed(`q=${tag}&sort=orders`)).rows.map((row) => row.orders)).toEqual([0, 2, 3]);
    expect((await listed(`q=${tag}&sort=name`)).rows.map((row) => row.email)).toEqual([
      big.email,
      none.email,
      small.email,
    ]);
    // Registered newest first by default.
    expect((await listed(`q=${tag}`)).rows.map((row) => row.email)).toEqual([none.email, small.email, big.email]);
    // Every word must match a name or the e-mail; `%` is a literal character, not a wildcard.
    expect((await listed(`q=${encodeURIComponent(`ada ${tag}sma`)}`)).rows.map((row) => row.email)).toEqual([
      small.email,
    ]);
    expect((await listed(`q=${encodeURIComponent(small.email)}`)).rows.map((row) => row.email)).toEqual([small.email]);
    expect((await listed(`q=${tag}%25`)).rows).toEqual([]);
    // A sort the list does not know lists in the default order.
    expect((await listed(`q=${tag}&sort=password`)).rows.map((row) => row.email)).toEqual([
      none.email,
      small.email,
      big.email,
    ]);

    // Paging: 55 accounts, sorted by e-mail, 50 on the first page and 5 on the second, none twice.
    const pagerTag = `pager${Date.now()}`;
    await customers().insert(
      Array.from({ length: 55 }, (_, index) => ({
        email: `${pagerTag}-${String(index).padStart(2, '0')}@example.com`,
        firstName: 'Page',
        lastName: 'Turner',
        passwordHash: null,
        authVersion: 0,
      })),
    );
    const first = await listed(`q=${pagerTag}&sort=email`);
    const second = await listed(`q=${pagerTag}&sort=email&page=2`);
    expect(first.rows).toHaveLength(CUSTOMER_PAGE_SIZE);
    expect(second.rows).toHaveLength(55 - CUSTOMER_PAGE_SIZE);
    expect([...first.rows, ...second.rows].map((row) => row.email)).toEqual(
      Array.from({ length: 55 }, (_, index) => `${pagerTag}-${String(index).padStart(2, '0')}@example.com`),
    );
    expect(first.text).toContain('55 customer(s)');
    expect(first.text).toContain('Page 1 of 2');
    expect(first.text.replace(/&#x3D;/g, '=')).toContain(
      `rel="next" href="/admin/customers?q=${pagerTag}&amp;sort=email&amp;page=2"`,
    );
  });

  it('shows an account: orders linked to their CP page, addresses, wishlists, consent, newsletter and logins', async () => {
    const { customer, email } = await registered('Detail');
    const order = await orderOf(customer, 'paid', 2980);
    await shop.dataSource.getRepository(CustomerAddress).save({
      customerId: customer.id,
      firstName: 'Ada',
      lastName: 'Detail',
      street: 'Analytical 12',
      city: 'London',
      zipCode: 'N1 9GU',
      country: 'GB',
      phone: '+44 20 7946 0000',
      company: null,
      isDefaultBilling: true,
      isDefaultShipping: false,
    });
    const product = await shop.dataSource.getRepository(Product).findOneByOrFail({ sku: 'DEMO-TENT-2P' });
    const wishlist = await shop.dataSource
      .getRepository(Wishlist)
      .save({ customerId: customer.id, name: 'Camping', isDefault: true });
    await shop.dataSource
      .getRepository(WishlistItem)
      .save({ wishlistId: wishlist.id, productId: product.id, variantId: 0, qty: 2, configuration: null });
    await shop.dataSource.transaction((manager) =>
      shop.app.get(MarketingConsents).grant(manager, {
        email,
        customerId: customer.id,
        source: 'account_page',
        wording: { key: 'consent.marketing.v1', text: 'Send me offers' },
      }),
    );
    await shop.dataSource
      .getRepository(NewsletterSubscriber)
      .save({ email, firstName: 'Ada', status: 'confirmed', confirmedAt: Date.now() });
    // A confirmed address: the Google login is linked beside the password rather than taking the account over.
    await customers().update(customer.id, { emailVerifiedAt: Date.now() });
    await shop.app.get(SocialAccountsService).signIn({
      provider: 'google',
      subject: `g-${customer.id}`,
      email,
      emailVerified: true,
      firstName: 'Ada',
      lastName: 'Detail',
    });

    const page = await admin.get(`/admin/customers/${customer.id}`).set(HTML).expect(200);
    expect(page.text).toContain('<h1>Ada Detail</h1>');
    expect(page.text).toContain(`<a href="/admin/orders/${order.id}">${order.reference}</a>`);
    expect(page.text).toContain('€29.80');
    expect(page.text).toContain('Analytical 12, N1 9GU London, GB');
    expect(page.text).toMatch(
      /<h3>Camping<\/h3>\s*<ul class="wishlist"><li>[^<]+ \(<code>DEMO-TENT-2P<\/code>\) × 2<\/li>/,
    );
    expect(page.text).toContain('<dd class="marketing">Consented to marketing e-mail');
    expect(page.text).toContain('<dd class="newsletter">confirmed, confirmed');
    expect(page.text).toContain('<dd class="login-methods">password, Google</dd>');
    expect(page.text).toMatch(new RegExp(`${email.replace(/\./g, '\\.')} \\(verified `));
    expect(page.text).toContain('<span class="status status-active">active</span>');

    await admin.get('/admin/customers/999999').set(HTML).expect(404);
  });

  it('blocks a customer: logins are refused with a clear message and an open session loses access at once', async () => {
    const { client: session, email, customer } = await registered('Blocked');
    expect(await accountPage(session)).toEqual({ status: 200, location: undefined });
    const login = (password: string, client = new ShopClient(shop.server)) =>
      client.post('/shop/ajax-authorize', { loginName: email, password });
    // A second device, logged in before the block and silent until after the unblock.
    const idle = new ShopClient(shop.server);
    expect((await login(CUSTOMER_PASSWORD, idle)).status).toBe(200);

    const blocked = await admin.post(`/admin/customers/${customer.id}/block`);
    expect(blocked.status).toBe(200);
    expect(blocked.body).toMatchObject({ success: true, blocked: true });
    expect((await byEmail(email)).blockedAt).toEqual(expect.any(Number));

    // The session logged in before the block is logged out at its next request.
    expect(await accountPage(session)).toEqual(LOGGED_OUT);
    const refused = await login(CUSTOMER_PASSWORD);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('account_blocked');
    expect(refused.body.error.message).toMatch(/^This account is blocked/);
    // A wrong password says no more than for anyone else.
    expect((await login('not the password')).status).toBe(401);
    // The browser's login form says why.
    const browserLogin = new ShopClient(shop.server);
    const form = await browserLogin.submitForm('/shop/login', { loginName: email, password: CUSTOMER_PASSWORD });
    expect(form.status).toBe(303);
    expect(form.headers.location).toBe('/shop/login');
    const loginPage = await browserLogin.get('/shop/login').set(HTML).expect(200);
    expect(loginPage.text).toContain('This account is blocked and cannot log in.');
    // Ordering as a guest under the same address still works, and the order belongs to no account.
    const product = await shop.dataSource.getRepository(Product).findOneByOrFail({ sku: 'DEMO-TENT-2P' });
    await addToCart(session, product.id);
    await fillCheckout(session, {
      email,
      shippingMethod: await shippingValue(shop.dataSource, 'flat-rate'),
      paymentMethod: 'cod',
    });
    const guestOrder = await placeOrder(session);
    expect(guestOrder.status).toBe(200);
    const placed = await shop.dataSource.getRepository(Order).findOneByOrFail({ number: guestOrder.body.orderNumber });
    expect(placed).toMatchObject({ email, customerId: null });
    // Social login to the account is refused too, before anything is linked.
    const social = await shop.app.get(SocialAccountsService).signIn({
      provider: 'google',
      subject: `g-blocked-${customer.id}`,
      email,
      emailVerified: true,
      firstName: 'Ada',
      lastName: 'Blocked',
    });
    expect(social).toEqual({ refusal: expect.stringMatching(/^This account is blocked/) });
    expect((await byEmail(email)).socialIds).toBeNull();

    const detail = await admin.get(`/admin/customers/${customer.id}`).set(HTML).expect(200);
    expect(detail.text).toContain('<span class="status status-canceled">blocked</span> since');
    expect(detail.text).toContain(`/admin/customers/${customer.id}/unblock`);

    const unblocked = await admin.post(`/admin/customers/${customer.id}/unblock`);
    expect(unblocked.body).toMatchObject({ success: true, blocked: false });
    expect((await login(CUSTOMER_PASSWORD)).status).toBe(200);
    // A session open at the time of the block stays ended, even if it made no request while the account was blocked.
    expect(await accountPage(idle)).toEqual(LOGGED_OUT);

    // A browser's block goes back to the page with a flash.
    const browser = await admin.submitForm(`/admin/customers/${customer.id}/block`, {});
    expect(browser.status).toBe(303);
    expect(browser.headers.location).toBe(`/admin/customers/${customer.id}`);
    const flashed = await admin.get(`/admin/customers/${customer.id}`).set(HTML).expect(200);
    expect(flashed.text).toContain('is blocked: they cannot log in');

    expect(
      (await auditOf(customer.id)).map(({ actor, action, subjectLabel, changes }) => ({
        actor,
        action,
        subjectLabel,
        changes,
      })),
    ).toEqual([
      {
        actor: 'cp:admin@example.com',
        action: 'blocked',
        subjectLabel: email,
        changes: { blocked: { from: false, to: true } },
      },
      {
        actor: 'cp:admin@example.com',
        action: 'unblocked',
        subjectLabel: email,
        changes: { blocked: { from: true, to: false } },
      },
      {
        actor: 'cp:admin@example.com',
        action: 'blocked',
        subjectLabel: email,
        changes: { blocked: { from: false, to: true } },
      },
    ]);
  });

  it('mails a password reset the customer can use, and records it', async () => {
    const { email, customer } = await registered('Reset');
    const sent = await admin.post(`/admin/customers/${customer.id}/password-reset`);
    expect(sent.status).toBe(200);
    expect(sent.body.message).toBe(`A password-reset e-mail is on its way to ${email}.`);
    const { token, code } = await resetTokenAndCode(smtp.messages, email);
    const owner = new ShopClient(shop.server);
    expect((await owner.post('/shop/verify-otp-post', { token, code })).status).toBe(200);
    expect((await auditOf(customer.id)).map((entry) => entry.action)).toEqual(['password_reset_sent']);
  });

  it('exports the personal data as a JSON download', async () => {
    const { email, customer } = await registered('Export');
    const order = await orderOf(customer, 'paid', 2980);
    await shop.dataSource.getRepository(CustomerAddress).save({
      customerId: customer.id,
      firstName: 'Ada',
      lastName: 'Export',
      street: 'Export Street 1',
      city: 'Vienna',
      zipCode: '1010',
      country: 'AT',
      phone: null,
      company: null,
      isDefaultBilling: false,
      isDefaultShipping: true,
    });
    await shop.dataSource.getRepository(Wishlist).save({ customerId: customer.id, name: 'Later', isDefault: true });
    await shop.dataSource
      .getRepository(NewsletterSubscriber)
      .save({ email, firstName: 'Ada', status: 'pending', confirmedAt: null });

    const res = await admin.post(`/admin/customers/${customer.id}/export`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="customer-${customer.id}-personal-data.json"`,
    );
    const data = JSON.parse(res.text);
    expect(data.profile).toMatchObject({
      email,
      firstName: 'Ada',
      lastName: 'Export',
      hasPassword: true,
      socialLogins: [],
    });
    expect(data.addresses).toEqual([expect.objectContaining({ street: 'Export Street 1', city: 'Vienna' })]);
    expect(data.orders).toEqual([
      expect.objectContaining({ reference: order.reference, status: 'paid', currency: 'EUR', total: 29.8 }),
    ]);
    expect(data.wishlists).toEqual([{ name: 'Later', items: [] }]);
    expect(data.newsletter).toMatchObject({ status: 'pending' });
    expect(data.marketingConsents).toEqual([]);
    expect(JSON.stringify(data)).not.toMatch(/passwordHash|scrypt/);
    expect((await auditOf(customer.id)).map((entry) => entry.action)).toEqual(['exported']);
  });

  it('erases an account after confirmation: orders stay anonymised, the account and its sessions go', async () => {
    const { client: session, email, customer } = await registered('Erase');
    const order = await orderOf(customer, 'completed', 2980);
    const confirmPage = await admin.get(`/admin/customers/${customer.id}/erase`).set(HTML).expect(200);
    expect(confirmPage.text).toContain('name="confirm" value="yes" required');

    const unconfirmed = await admin.post(`/admin/customers/${customer.id}/erase`, {});
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.body.error.fields.confirm).toBeDefined();
    expect((await byEmail(email)).deletedAt).toBeNull();

    // An earlier entry named the account by its address; the erasure takes that out of the log too.
    await admin.submitForm(`/admin/customers/${customer.id}/password-reset`, {});
    expect((await auditOf(customer.id)).map(({ subjectLabel }) => subjectLabel)).toEqual([email]);
    const erased = await admin.submitForm(`/admin/customers/${customer.id}/erase`, { confirm: 'yes' });
    expect(erased.status).toBe(303);
    expect(erased.headers.location).toBe('/admin/customers');

    const row = await customers().findOneByOrFail({ id: customer.id });
    expect(row).toMatchObject({ email: `deleted-${customer.id}@invalid`, firstName: 'Deleted', passwordHash: null });
    expect(row.deletedAt).toEqual(expect.any(Number));
    const kept = await shop.dataSource.getRepository(Order).findOneByOrFail({ id: order.id });
    expect(kept.email).toBe(`deleted-${customer.id}@invalid`);
    expect(kept.billingAddress).toMatchObject({ firstName: 'Deleted', street: 'Deleted', city: 'Bratislava' });
    expect(await accountPage(session)).toEqual(LOGGED_OUT);
    await admin.get(`/admin/customers/${customer.id}`).set(HTML).expect(404);
    expect((await listed(`q=${encodeURIComponent(email)}`)).rows).toEqual([]);
    expect((await auditOf(customer.id)).map(({ action, subjectLabel }) => ({ action, subjectLabel }))).toEqual([
      { action: 'password_reset_sent', subjectLabel: `Customer #${customer.id}` },
      { action: 'erased', subjectLabel: `Customer #${customer.id}` },
    ]);
  });

  it('refuses staff without accessCustomers every customer page, and shows them no link', async () => {
    const { customer } = await registered('Guarded');
    await shop.app
      .get(CpUsersService)
      .create({ email: 'orders-clerk@example.com', password: 'staff-password-1', permissions: ['accessOrders'] });
    const clerk = new ShopClient(shop.server);
    await clerk.loginCp('orders-clerk@example.com', 'staff-password-1');

    const list = await clerk.get('/admin/customers');
    expect(list.status).toBe(403);
    expect(list.body.error.message).toBe('You need the accessCustomers permission to open this page.');
    for (const action of ['block', 'unblock', 'password-reset', 'export', 'erase']) {
      expect((await clerk.post(`/admin/customers/${customer.id}/${action}`, { confirm: 'yes' })).status).toBe(403);
    }
    expect((await byEmail(customer.email)).blockedAt).toBeNull();
    expect(await auditOf(customer.id)).toEqual([]);

    const navLinks = async (client: ShopClient) =>
      /<nav aria-label="Control panel">([\s\S]*?)<\/nav>/.exec(
        (await client.get('/admin').set(HTML).expect(200)).text,
      )![1];
    expect(await navLinks(clerk)).not.toContain('/admin/customers');
    expect(await navLinks(admin)).toContain('<a href="/admin/customers">Customers</a>');
  });
});
