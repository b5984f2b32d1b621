import { LOGIN_FAILURE_LIMIT } from '../../src/common/throttling/login-throttle.service';
import { CpUsersService } from '../../src/commerce/staff/cp-users.service';
import { expectLoginThrottled } from '../support/login-throttle';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp, usingRedis } from '../support/test-app';

const PASSWORD = 'staff-password-1';
const WRONG_PASSWORD = 'not the right password';

describe('CP login throttling', () => {
  let shop: TestApp;
  let lastIp = 0;
  let lastUser = 0;
  /** Each test fails logins from addresses of its own, so the per-address limit of one cannot leak into another. */
  const freshIp = () => `203.0.113.${++lastIp}`;

  beforeAll(async () => (shop = await startTestApp()));
  afterAll(() => shop.close());

  /** A CP user of its own per test, so the per-e-mail limit of one cannot leak into another. */
  async function staff(): Promise<string> {
    const email = `staff${++lastUser}@example.com`;
    await shop.app.get(CpUsersService).create({ email, password: PASSWORD, permissions: ['accessOrders'] });
    return email;
  }

  /** A script's login (JSON) from a client address. */
  async function jsonLogin(browser: ShopClient, ip: string, body: { email: string; password: string }) {
    const token = await browser.csrfToken();
    return browser.agent.post('/admin/login').set('X-CSRF-Token', token).set('X-Forwarded-For', ip).send(body);
  }

  /** A browser's form login from a client address. */
  async function formLogin(browser: ShopClient, ip: string, fields: Record<string, string>) {
    const token = await browser.csrfToken();
    return browser.agent
      .post('/admin/login')
      .type('form')
      .set('Accept', 'text/html')
      .set('X-Forwarded-For', ip)
      .send({ ...fields, _csrf: token });
  }

  it(`refuses an e-mail after ${LOGIN_FAILURE_LIMIT} wrong passwords, from any address and even with the right one`, async () => {
    const email = await staff();
    const answers: number[] = [];
    for (let i = 0; i < 25; i++) {
      const res = await jsonLogin(new ShopClient(shop.server), freshIp(), { email, password: WRONG_PASSWORD });
      answers.push(res.status);
      if (res.status === 401) {
        expect(res.body).toEqual({
          success: false,
          error: { code: 'invalid_credentials', message: 'Wrong e-mail or password.' },
        });
      } else expectLoginThrottled(res);
    }
    expect(answers).toEqual([...Array(LOGIN_FAILURE_LIMIT).fill(401), ...Array(25 - LOGIN_FAILURE_LIMIT).fill(429)]);

    const browser = new ShopClient(shop.server);
    expectLoginThrottled(await jsonLogin(browser, freshIp(), { email: email.toUpperCase(), password: PASSWORD }));
    await browser.get('/admin/orders').expect(302);
  });

  it(`refuses an address after ${LOGIN_FAILURE_LIMIT} failures, whatever e-mails it tries`, async () => {
    const ip = freshIp();
    for (let i = 0; i < LOGIN_FAILURE_LIMIT; i++) {
      const res = await jsonLogin(new ShopClient(shop.server), ip, { email: `guess${i}@example.com`, password: 'x' });
      expect(res.status).toBe(401);
    }
    const email = await staff();
    expectLoginThrottled(await jsonLogin(new ShopClient(shop.server), ip, { email, password: PASSWORD }));

    const elsewhere = new ShopClient(shop.server);
    const login = await jsonLogin(elsewhere, freshIp(), { email, password: PASSWORD });
    expect(login.status).toBe(303);
    expect(login.headers.location).toBe('/admin');
    await elsewhere.get('/admin/orders').expect(200);
  });

  it('counts an IPv6 /64 as one address, an IPv4-mapped address as its IPv4 one, and accents as their letters', async () => {
    const email = await staff();
    for (let i = 1; i <= LOGIN_FAILURE_LIMIT; i++) {
      const res = await jsonLogin(new ShopClient(shop.server), `2001:db8:7:7::${i}`, {
        email: `x${i}@a.example`,
        password: 'x',
      });
      expect(res.status).toBe(401);
    }
    expectLoginThrottled(
      await jsonLogin(new ShopClient(shop.server), '2001:db8:7:7:ffff::9', { email, password: PASSWORD }),
    );

    const ip = freshIp();
    for (let i = 0; i < LOGIN_FAILURE_LIMIT; i++) {
      const res = await jsonLogin(new ShopClient(shop.server), `::ffff:${ip}`, {
        email: `y${i}@a.example`,
        password: 'x',
      });
      expect(res.status).toBe(401);
    }
    expectLoginThrottled(await jsonLogin(new ShopClient(shop.server), ip, { email, password: PASSWORD }));

    const named = await staff();
    const accented = named.replace('staff', 'stäff');
    for (let i = 0; i < LOGIN_FAILURE_LIMIT; i++) {
      const res = await jsonLogin(new ShopClient(shop.server), freshIp(), {
        email: accented,
        password: WRONG_PASSWORD,
      });
      expect(res.status).toBe(401);
    }
    expectLoginThrottled(await jsonLogin(new ShopClient(shop.server), freshIp(), { email: named, password: PASSWORD }));
  });

  it('sends a throttled form login back to the login page with the reason', async () => {
    const email = await staff();
    const browser = new ShopClient(shop.server);
    for (let i = 0; i < LOGIN_FAILURE_LIMIT; i++) {
      const res = await formLogin(browser, freshIp(), { email, password: WRONG_PASSWORD, next: '/admin/orders' });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('/admin/login?next=%2Fadmin%2Forders');
      expect((await browser.get(res.headers.location).expect(200)).text).toContain('Wrong e-mail or password.');
    }
    const refused = await formLogin(browser, freshIp(), { email, password: PASSWORD, next: '/admin/orders' });
    expect(refused.status).toBe(303);
    expect(refused.headers.location).toBe('/admin/login?next=%2Fadmin%2Forders');
    const page = await browser.get(refused.headers.location).expect(200);
    expect(page.text).toMatch(/Too many failed logins\. Try again in (a minute|\d+ minutes)\./);
    await browser.get('/admin/orders').expect(302);
  });

  it('counts staff apart from shoppers: failed shop logins do not hold back the CP', async () => {
    const ip = freshIp();
    const shopLogin = async (i: number) => {
      const browser = new ShopClient(shop.server);
      const token = await browser.csrfToken();
      return browser.agent
        .post('/shop/ajax-authorize')
        .set('X-CSRF-Token', token)
        .set('X-Forwarded-For', ip)
        .send({ loginName: `shopper${i}@example.com`, password: WRONG_PASSWORD });
    };
    for (let i = 0; i < LOGIN_FAILURE_LIMIT; i++) expect((await shopLogin(i)).status).toBe(401);
    expect((await shopLogin(LOGIN_FAILURE_LIMIT)).status).toBe(429);
    const login = await jsonLogin(new ShopClient(shop.server), ip, { email: await staff(), password: PASSWORD });
    expect(login.status).toBe(303);
  });

  // Several instances share one MySQL + Redis (docs/architecture.md): without Redis there is one process to count in.
  if (usingRedis)
    it('shares the count between app instances through Redis', async () => {
      const second = await startTestApp({ place: shop.place });
      try {
        const email = await staff();
        for (let i = 0; i < LOGIN_FAILURE_LIMIT; i++) {
          const instance = i % 2 ? second : shop;
          const res = await jsonLogin(new ShopClient(instance.server), freshIp(), { email, password: WRONG_PASSWORD });
          expect(res.status).toBe(401);
        }
        expectLoginThrottled(await jsonLogin(new ShopClient(second.server), freshIp(), { email, password: PASSWORD }));
        expectLoginThrottled(await jsonLogin(new ShopClient(shop.server), freshIp(), { email, password: PASSWORD }));
      } finally {
        await second.close();
      }
    });
});
