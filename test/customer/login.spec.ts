import { EventEmitter2 } from '@nestjs/event-emitter';
import request from 'supertest';
import { CartLine } from '../../src/commerce/carts/cart-line.entity';
import { Cart } from '../../src/commerce/carts/cart.entity';
import { Customer } from '../../src/commerce/customers/customer.entity';
import { SettingsService } from '../../src/config/settings.service';
import { CUSTOMER_LOGGED_IN, CustomerLoggedInEvent } from '../../src/shop/customer/auth/customer-events';
import { LOGIN_FAILURE_LIMIT } from '../../src/common/throttling/login-throttle.service';
import { productBySku } from '../support/catalog';
import { addToCart } from '../support/checkout';
import { CUSTOMER_PASSWORD, CustomerProbeModule, registerCustomer, sessionCookie } from '../support/customers';
import { expectLoginThrottled } from '../support/login-throttle';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp, usingRedis } from '../support/test-app';

const WRONG_PASSWORD = 'not the right password';
const DAY_MS = 24 * 60 * 60 * 1000;

describe('customer login and logout', () => {
  let shop: TestApp;
  let lastIp = 0;
  /** Each test fails logins from addresses of its own, so the per-address limit of one cannot leak into another. */
  const freshIp = () => `198.51.100.${++lastIp}`;

  beforeAll(async () => (shop = await startTestApp({ extraModules: [CustomerProbeModule] })));
  afterAll(() => shop.close());

  const client = () => new ShopClient(shop.server);

  /** A customer registered in a browser of their own; the tests log in from other ones. */
  async function customer(details: { firstName?: string } = {}) {
    return registerCustomer(client(), details);
  }

  async function ajaxLogin(browser: ShopClient, body: object, ip?: string) {
    const token = await browser.csrfToken();
    const req = browser.agent.post('/shop/ajax-authorize').set('X-CSRF-Token', token);
    if (ip) req.set('X-Forwarded-For', ip);
    return req.send(body);
  }

  async function formLogin(browser: ShopClient, fields: Record<string, string>, path = '/shop/authorize') {
    return browser.submitForm(path, fields);
  }

  /** A browser form post from a given client address. */
  async function formLoginFrom(browser: ShopClient, ip: string, fields: Record<string, string>) {
    // The token first: the agent attaches its cookies when a request is created.
    const token = await browser.csrfToken();
    return browser.agent
      .post('/shop/authorize')
      .type('form')
      .set('Accept', 'text/html')
      .set('X-Forwarded-For', ip)
      .send({ ...fields, _csrf: token });
  }

  const customerRow = (email: string) => shop.dataSource.getRepository(Customer).findOneByOrFail({ email });

  describe('pages', () => {
    it('serves a labelled login form that keeps a same-site return path', async () => {
      const page = await client().get('/shop/login?return=%2Fshop%2Fcart%3Fstep%3D2').expect(200);
      expect(page.text).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
      expect(page.text).toContain('action="/shop/authorize"');
      expect(page.text).toMatch(/<label for="loginName">[^<]+<\/label>/);
      expect(page.text).toMatch(/<input id="loginName" name="loginName"[^>]*autocomplete="username"/);
      expect(page.text).toMatch(/<input id="password" name="password" type="password" autocomplete="current-password"/);
      expect(page.text).toMatch(/<input id="rememberMe" name="rememberMe" type="checkbox"/);
      expect(page.text).toContain('<input type="hidden" name="return" value="/shop/cart?step&#x3D;2">');
      expect(page.text).toMatch(/<input type="hidden" name="_csrf" value="[^"]+">/);
      expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)/);
      expect(page.headers['cache-control']).toBe('no-store');
    });

    it.each(['//evil.com', 'https://evil.com/x', '/\\evil.com', '/..//evil.com'])(
      'drops a return path leading elsewhere (%s)',
      async (target) => {
        const page = await client()
          .get(`/shop/login?return=${encodeURIComponent(target)}`)
          .expect(200);
        expect(page.text).not.toContain('name="return"');
      },
    );
  });

  describe('by form', () => {
    it('logs in by e-mail in any case, under a new session id, and goes to the account page', async () => {
      const email = await customer();
      const browser = client();
      const before = sessionCookie(await browser.get('/shop/customer/csrf-token').expect(200));
      expect(before).toBeDefined();

      const res = await formLogin(browser, { loginName: `  ${email.toUpperCase()} `, password: CUSTOMER_PASSWORD });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('/shop/account');
      const after = sessionCookie(res);
      expect(after).toBeDefined();
      expect(after!.pair).not.toBe(before!.pair);

      expect((await browser.get('/test/whoami').expect(200)).body.email).toBe(email);
      // The old session id is worth nothing now.
      await request(shop.server).get('/test/whoami').set('Cookie', before!.pair).expect(302);
      expect((await browser.get('/shop/register').expect(200)).text).toContain('Welcome back, Ada.');
    });

    it('answers /shop/login the same and follows a same-site return path', async () => {
      const email = await customer();
      const res = await formLogin(
        client(),
        { loginName: email, password: CUSTOMER_PASSWORD, return: '/shop/cart?from=login' },
        '/shop/login',
      );
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('/shop/cart?from=login');
    });

    it.each(['//evil.com', 'https://evil.com/', '/\\evil.com', '/..//evil.com', 'javascript:alert(1)'])(
      'ignores a return path leading elsewhere (%s)',
      async (target) => {
        const email = await customer();
        const res = await formLogin(client(), { loginName: email, password: CUSTOMER_PASSWORD, return: target });
        expect(res.status).toBe(303);
        expect(res.headers.location).toBe('/shop/account');
      },
    );

    it('sends a failed login back to the form with the reason, keeping the return path', async () => {
      const email = await customer();
      const browser = client();
      const res = await formLoginFrom(browser, freshIp(), {
        loginName: email,
        password: WRONG_PASSWORD,
        return: '/shop/cart',
      });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('/shop/login?return=%2Fshop%2Fcart');
      const page = await browser.get(res.headers.location).expect(200);
      expect(page.text).toContain('The e-mail, username or password is not right.');
      expect(page.text).toContain('<input type="hidden" name="return" value="/shop/cart">');
      await browser.get('/test/whoami').expect(302);
    });

    it('names the missing fields', async () => {
      const browser = client();
      const res = await formLogin(browser, { loginName: ' ', password: '' });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('/shop/login');
      const page = await browser.get('/shop/login').expect(200);
      expect(page.text).toContain('E-mail or username is required. Password is required.');
    });
  });

  describe('by AJAX', () => {
    it('logs in by username with "remember me": a 30-day cookie, lastLoginAt recorded', async () => {
      const email = await customer({ firstName: 'Grace' });
      await shop.dataSource.getRepository(Customer).update({ email }, { username: 'trailrunner' });
      const browser = client();

      const res = await ajaxLogin(browser, { loginName: 'TrailRunner', password: CUSTOMER_PASSWORD, rememberMe: true });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, customer: { email, firstName: 'Grace', lastName: 'Lovelace' } });
      const expires = /; Expires=([^;]+)/.exec(sessionCookie(res)!.line)?.[1];
      expect(expires).toBeDefined();
      expect(Math.abs(Date.parse(expires!) - (Date.now() + 30 * DAY_MS))).toBeLessThan(DAY_MS);
      expect((await customerRow(email)).lastLoginAt).toBeGreaterThan(Date.now() - 60_000);
      expect((await browser.get('/test/whoami').expect(200)).body.email).toBe(email);
    });

    it('without "remember me" sets a cookie that ends with the browser', async () => {
      const email = await customer();
      const res = await ajaxLogin(client(), { loginName: email, password: CUSTOMER_PASSWORD, rememberMe: false });
      expect(res.status).toBe(200);
      const { line } = sessionCookie(res)!;
      expect(line).not.toMatch(/Expires=|Max-Age=/i);
      expect(line).toMatch(/HttpOnly/);
    });

    it('answers an unknown login name exactly like a wrong password', async () => {
      const email = await customer();
      const ip = freshIp();
      const wrong = await ajaxLogin(client(), { loginName: email, password: WRONG_PASSWORD }, ip);
      const unknown = await ajaxLogin(client(), { loginName: `nobody-${email}`, password: WRONG_PASSWORD }, ip);
      expect(wrong.status).toBe(401);
      expect(unknown.status).toBe(401);
      expect(unknown.body).toEqual(wrong.body);
      expect(wrong.body).toEqual({
        success: false,
        error: { code: 'invalid_credentials', message: 'The e-mail, username or password is not right.' },
      });
    });

    it('refuses bad input with field errors', async () => {
      const res = await ajaxLogin(client(), { loginName: 42, password: ['x'] });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({
        code: 'validation_failed',
        fields: { loginName: ['must be text'], password: ['must be text'] },
      });
      const empty = await ajaxLogin(client(), {});
      expect(empty.status).toBe(400);
      expect(empty.body.error.fields).toEqual({ loginName: ['is required'], password: ['is required'] });
    });

    it('refuses a login without the CSRF token', async () => {
      const email = await customer();
      const res = await request(shop.server)
        .post('/shop/ajax-authorize')
        .send({ loginName: email, password: CUSTOMER_PASSWORD });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('csrf_invalid');
    });
  });

  describe('the guest cart', () => {
    const openCartsOf = async (email: string) => {
      const { id } = await customerRow(email);
      const carts = await shop.dataSource.getRepository(Cart).findBy({ customerId: id });
      return carts.filter((cart) => cart.orderedAt === null);
    };
    const linesOf = async (cartId: number) =>
      Object.fromEntries(
        (await shop.dataSource.getRepository(CartLine).findBy({ cartId })).map((line) => [line.productId, line.qty]),
      );

    it("becomes the customer's cart, and a later visit's guest cart joins it with its codes", async () => {
      const email = await customer();
      const headlamp = await productBySku(shop.dataSource, 'DEMO-HEADLAMP');
      const tent = await productBySku(shop.dataSource, 'DEMO-TENT-2P');

      const first = client();
      await addToCart(first, headlamp.id, 1);
      await ajaxLogin(first, { loginName: email, password: CUSTOMER_PASSWORD }).then((res) =>
        expect(res.status).toBe(200),
      );
      const [cart] = await openCartsOf(email);
      expect(cart).toBeDefined();
      expect(await linesOf(cart.id)).toEqual({ [headlamp.id]: 1 });
      expect((await first.get('/test/whoami').expect(200)).body.cartId).toBe(cart.id);

      // Another day, another browser: the guest collects more, then logs in.
      const second = client();
      await addToCart(second, headlamp.id, 2);
      await addToCart(second, tent.id, 1);
      const guestCartId = (await shop.dataSource.getRepository(Cart).find({ order: { id: 'DESC' }, take: 1 }))[0].id;
      // Codes applied on either visit come along; the guest's coupon, applied last, wins.
      const carts = shop.dataSource.getRepository(Cart);
      await carts.update(cart.id, { couponCode: 'OLDCODE', giftCardCodes: ['AAAAAAAAAAAAAAAA'] });
      await carts.update(guestCartId, {
        couponCode: 'NEWCODE',
        giftCardCodes: ['BBBBBBBBBBBBBBBB', 'AAAAAAAAAAAAAAAA'],
      });
      await ajaxLogin(second, { loginName: email, password: CUSTOMER_PASSWORD }).then((res) =>
        expect(res.status).toBe(200),
      );

      expect((await openCartsOf(email)).map((open) => open.id)).toEqual([cart.id]);
      expect(await linesOf(cart.id)).toEqual({ [headlamp.id]: 3, [tent.id]: 1 });
      expect(await carts.findOneByOrFail({ id: cart.id })).toMatchObject({
        couponCode: 'NEWCODE',
        giftCardCodes: ['AAAAAAAAAAAAAAAA', 'BBBBBBBBBBBBBBBB'],
      });
      expect(await shop.dataSource.getRepository(Cart).findOneBy({ id: guestCartId })).toBeNull();
      expect((await second.get('/test/whoami').expect(200)).body.cartId).toBe(cart.id);
    });

    it('brings back the cart of an earlier visit to an empty-handed login', async () => {
      const email = await customer();
      const headlamp = await productBySku(shop.dataSource, 'DEMO-HEADLAMP');
      const first = client();
      await addToCart(first, headlamp.id, 1);
      await ajaxLogin(first, { loginName: email, password: CUSTOMER_PASSWORD }).then((res) =>
        expect(res.status).toBe(200),
      );
      const [cart] = await openCartsOf(email);

      const second = client();
      await ajaxLogin(second, { loginName: email, password: CUSTOMER_PASSWORD }).then((res) =>
        expect(res.status).toBe(200),
      );
      expect((await second.get('/test/whoami').expect(200)).body.cartId).toBe(cart.id);
    });

    it('is not handed to the next customer who logs in without logging out', async () => {
      const [ada, grace] = [await customer(), await customer({ firstName: 'Grace' })];
      const headlamp = await productBySku(shop.dataSource, 'DEMO-HEADLAMP');
      const browser = client();
      await addToCart(browser, headlamp.id, 1);
      await ajaxLogin(browser, { loginName: ada, password: CUSTOMER_PASSWORD }).then((res) =>
        expect(res.status).toBe(200),
      );
      await ajaxLogin(browser, { loginName: grace, password: CUSTOMER_PASSWORD }).then((res) =>
        expect(res.status).toBe(200),
      );

      expect(await openCartsOf(grace)).toEqual([]);
      expect(await openCartsOf(ada)).toHaveLength(1);
      expect((await browser.get('/test/whoami').expect(200)).body).toEqual({ email: grace, cartId: null });
    });
  });

  it('announces every login with the customer and the session, before answering', async () => {
    const seen: Array<{ email: string; sessionCustomer?: number }> = [];
    const events = shop.app.get(EventEmitter2);
    const listener = async ({ customer, session }: CustomerLoggedInEvent) => {
      seen.push({ email: customer.email, sessionCustomer: session.customerId });
    };
    events.on(CUSTOMER_LOGGED_IN, listener);
    try {
      const email = await customer();
      await ajaxLogin(client(), { loginName: email, password: CUSTOMER_PASSWORD }).then((res) =>
        expect(res.status).toBe(200),
      );
      const { id } = await customerRow(email);
      // Once for the registration, once for the login.
      expect(seen).toEqual([
        { email, sessionCustomer: id },
        { email, sessionCustomer: id },
      ]);
    } finally {
      events.off(CUSTOMER_LOGGED_IN, listener);
    }
  });

  describe('throttling', () => {
    async function failFrom(ip: string, loginName: string) {
      const res = await ajaxLogin(client(), { loginName, password: WRONG_PASSWORD }, ip);
      expect(res.status).toBe(401);
    }

    it(`holds one account after ${LOGIN_FAILURE_LIMIT} failures, from any address and even with the right password`, async () => {
      const email = await customer();
      for (let i = 0; i < LOGIN_FAILURE_LIMIT; i++) await failFrom(freshIp(), email.toUpperCase());

      const browser = client();
      expectLoginThrottled(await ajaxLogin(browser, { loginName: email, password: CUSTOMER_PASSWORD }, freshIp()));
      await browser.get('/test/whoami').expect(302);

      // The address that was refused is not held up for another account.
      const other = await customer();
      const ip = freshIp();
      await ajaxLogin(client(), { loginName: email, password: CUSTOMER_PASSWORD }, ip).then((res) =>
        expect(res.status).toBe(429),
      );
      expect((await ajaxLogin(client(), { loginName: other, password: CUSTOMER_PASSWORD }, ip)).status).toBe(200);
    });

    it(`holds one address after ${LOGIN_FAILURE_LIMIT} failures, whatever names it tries`, async () => {
      const ip = freshIp();
      for (let i = 0; i < LOGIN_FAILURE_LIMIT; i++) await failFrom(ip, `guess${i}@example.com`);
      const email = await customer();

      expectLoginThrottled(await ajaxLogin(client(), { loginName: email, password: CUSTOMER_PASSWORD }, ip));
      expect((await ajaxLogin(client(), { loginName: email, password: CUSTOMER_PASSWORD }, freshIp())).status).toBe(
        200,
      );
    });

    it("does not clear an address's failures when someone logs in from it", async () => {
      const ip = freshIp();
      const email = await customer();
      for (let i = 0; i < LOGIN_FAILURE_LIMIT - 1; i++) await failFrom(ip, `probe${i}@example.com`);
      expect((await ajaxLogin(client(), { loginName: email, password: CUSTOMER_PASSWORD }, ip)).status).toBe(200);
      await failFrom(ip, 'probe-last@example.com');
      expectLoginThrottled(await ajaxLogin(client(), { loginName: email, password: CUSTOMER_PASSWORD }, ip));
    });

    it('holds a burst of parallel guesses to the limit', async () => {
      const email = await customer();
      const answers = await Promise.all(
        Array.from({ length: 12 }, () =>
          ajaxLogin(client(), { loginName: email, password: WRONG_PASSWORD }, freshIp()).then((res) => res.status),
        ),
      );
      expect(answers.filter((status) => status === 401)).toHaveLength(LOGIN_FAILURE_LIMIT);
      expect(answers.filter((status) => status === 429)).toHaveLength(12 - LOGIN_FAILURE_LIMIT);
    });

    it('sends a throttled form login back to the form with the reason', async () => {
      const ip = freshIp();
      for (let i = 0; i < LOGIN_FAILURE_LIMIT; i++) await failFrom(ip, `form${i}@example.com`);
      const email = await customer();
      const browser = client();
      const res = await formLoginFrom(browser, ip, { loginName: email, password: CUSTOMER_PASSWORD });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('/shop/login');
      expect((await browser.get('/shop/login').expect(200)).text).toMatch(/Too many failed logins\. Try again in/);
    });

    // Several instances share one MySQL + Redis (docs/architecture.md): without Redis there is one process to count in.
    if (usingRedis)
      it('shares the count between app instances through Redis', async () => {
        const second = await startTestApp({ place: shop.place });
        try {
          const email = await customer();
          const ip = freshIp();
          const failOn = async (app: TestApp) => {
            const browser = new ShopClient(app.server);
            const res = await ajaxLogin(browser, { loginName: email, password: WRONG_PASSWORD }, ip);
            expect(res.status).toBe(401);
          };
          for (let i = 0; i < LOGIN_FAILURE_LIMIT; i++) await failOn(i % 2 ? second : shop);
          const res = await ajaxLogin(new ShopClient(second.server), { loginName: email, password: CUSTOMER_PASSWORD });
          expect(res.status).toBe(429);
        } finally {
          await second.close();
        }
      });
  });

  describe('logout', () => {
    async function loggedIn() {
      const browser = client();
      await registerCustomer(browser);
      return browser;
    }

    it('by POST ends the session and goes to the home page', async () => {
      const browser = client();
      const email = await customer();
      const login = await ajaxLogin(browser, { loginName: email, password: CUSTOMER_PASSWORD });
      const session = sessionCookie(login)!.pair;

      const res = await browser.post('/shop/logout');
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('/');
      const account = await browser.get('/test/whoami');
      expect(account.status).toBe(302);
      expect(account.headers.location).toBe('/shop/login?return=%2Ftest%2Fwhoami');
      // The session itself is gone from the store, not only the login in it.
      await request(shop.server).get('/test/whoami').set('Cookie', session).expect(302);
      expect((await browser.get('/shop/login').expect(200)).text).toContain('You have been logged out.');
    });

    it('by GET does the same and honours the configured post-logout path', async () => {
      const settings = shop.app.get(SettingsService);
      await settings.save({ customerLogoutRedirect: '/shop/catalog/products' });
      try {
        const browser = await loggedIn();
        const res = await browser.get('/shop/logout');
        expect(res.status).toBe(303);
        expect(res.headers.location).toBe('/shop/catalog/products');
        await browser.get('/test/whoami').expect(302);
      } finally {
        await settings.save({ customerLogoutRedirect: '/' });
      }
    });

    it.each(['//evil.com', 'https://evil.com', 'shop'])('refuses %s as the post-logout path', async (value) => {
      await expect(shop.app.get(SettingsService).save({ customerLogoutRedirect: value })).rejects.toThrow(
        'customerLogoutRedirect must be a path on this site',
      );
    });

    it('refuses a POST logout without the CSRF token', async () => {
      const browser = await loggedIn();
      const res = await browser.agent.post('/shop/logout').send({});
      expect(res.status).toBe(403);
      await browser.get('/test/whoami').expect(200);
    });
  });

  it('answers 404 everywhere while customer accounts are off', async () => {
    const settings = shop.app.get(SettingsService);
    const email = await customer();
    const browser = client();
    await settings.save({ customerAccountsEnabled: false });
    try {
      await browser.get('/shop/login').expect(404);
      await browser.get('/shop/logout').expect(404);
      expect((await ajaxLogin(browser, { loginName: email, password: CUSTOMER_PASSWORD })).status).toBe(404);
      expect((await formLogin(browser, { loginName: email, password: CUSTOMER_PASSWORD })).status).toBe(404);
      expect((await formLogin(browser, { loginName: email, password: CUSTOMER_PASSWORD }, '/shop/login')).status).toBe(
        404,
      );
      expect((await browser.post('/shop/logout')).status).toBe(404);
    } finally {
      await settings.save({ customerAccountsEnabled: true });
    }
    expect((await ajaxLogin(browser, { loginName: email, password: CUSTOMER_PASSWORD })).status).toBe(200);
  });
});
