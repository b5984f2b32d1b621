import { createHash } from 'node:crypto';
import request from 'supertest';
import { CartLine } from '../../src/commerce/carts/cart-line.entity';
import { Cart } from '../../src/commerce/carts/cart.entity';
import { Customer } from '../../src/commerce/customers/customer.entity';
import { EmailVerification } from '../../src/commerce/customers/email-verification.entity';
import { SettingsService } from '../../src/config/settings.service';
import {
  TAKEN_ADDRESS_LIMIT,
  TAKEN_ADDRESS_WINDOW_MS,
} from '../../src/commerce/customers/taken-address-throttle.service';
import { productBySku } from '../support/catalog';
import { addToCart } from '../support/checkout';
import {
  confirmLink,
  CUSTOMER_PASSWORD,
  CustomerProbeModule,
  expectThrottled,
  registerCustomer,
  verificationPath,
} from '../support/customers';
import { ShopClient } from '../support/shop-client';
import { mailText, startSmtpCapture, subjectOf } from '../support/smtp-capture';
import { eventually, startTestApp, TestApp, usingRedis } from '../support/test-app';

let counter = 0;
const newEmail = () => `new${Date.now()}${++counter}@example.com`;
const VALID = { password: CUSTOMER_PASSWORD, firstName: 'Ada', lastName: 'Lovelace' };
const HTML = { Accept: 'text/html' };
const DAY_MS = 24 * 60 * 60 * 1000;

describe('customer registration', () => {
  let shop: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
  beforeAll(async () => {
    smtp = await startSmtpCapture();
    shop = await startTestApp({ extraModules: [CustomerProbeModule], env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await shop.close();
    await smtp.close();
  });

  const client = () => new ShopClient(shop.server);
  const customerRow = (email: string) => shop.dataSource.getRepository(Customer).findOneBy({ email });
  const verifications = () => shop.dataSource.getRepository(EmailVerification);

  let lastIp = 0;
  /** Each test registers from addresses of its own, so the per-address limit of one cannot leak into another. */
  const freshIp = () => `203.0.113.${++lastIp}`;

  async function registerFrom(ip: string, body: object, browser = client()) {
    const token = await browser.csrfToken();
    return browser.agent.post('/shop/register').set('X-CSRF-Token', token).set('X-Forwarded-For', ip).send(body);
  }

  it('serves a labelled registration form', async () => {
    const page = await client().get('/shop/register').expect(200);
    expect(page.text).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(page.text).toContain('action="/shop/create-account"');
    for (const [name, autocomplete] of [
      ['firstName', 'given-name'],
      ['lastName', 'family-name'],
      ['email', 'email'],
      ['password', 'new-password'],
    ]) {
      expect(page.text).toMatch(new RegExp(`<label for="${name}">[^<]+</label>`));
      expect(page.text).toMatch(new RegExp(`<input id="${name}" name="${name}"[^>]*autocomplete="${autocomplete}"`));
    }
    expect(page.text).toMatch(/<input type="hidden" name="_csrf" value="[^"]+">/);
    expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)/);
  });

  it('creates the account with a scrypt hash and logs the new customer in', async () => {
    const browser = client();
    const email = newEmail();
    const res = await browser.post('/shop/register', {
      email: `  ${email.toUpperCase()}`,
      ...VALID,
      firstName: ' Ada ',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, customer: { email, firstName: 'Ada', lastName: 'Lovelace' } });

    const row = await customerRow(email);
    expect(row).toMatchObject({ email, firstName: 'Ada', lastName: 'Lovelace', username: null, deletedAt: null });
    expect(row!.passwordHash).toMatch(/^scrypt\$/);
    expect(row!.passwordHash).not.toContain(CUSTOMER_PASSWORD);
    expect(row!.lastLoginAt).toBeGreaterThan(Date.now() - 60_000);
    expect((await browser.get('/test/whoami').expect(200)).body.email).toBe(email);
  });

  it("keeps the guest's cart as the new customer's", async () => {
    const browser = client();
    const headlamp = await productBySku(shop.dataSource, 'DEMO-HEADLAMP');
    await addToCart(browser, headlamp.id, 2);
    const email = await registerCustomer(browser);

    const { cartId } = (await browser.get('/test/whoami').expect(200)).body;
    const cart = await shop.dataSource.getRepository(Cart).findOneByOrFail({ id: cartId });
    expect(cart.customerId).toBe((await customerRow(email))!.id);
    const lines = await shop.dataSource.getRepository(CartLine).findBy({ cartId });
    expect(lines.map((line) => [line.productId, line.qty])).toEqual([[headlamp.id, 2]]);
  });

  describe('refuses bad input with field errors', () => {
    it.each([
      ['a short password', { password: 'short1234' }, { password: ['must be at least 10 characters long'] }],
      [
        'a common password',
        { password: 'Password123' },
        { password: ['is one of the most common passwords; choose another'] },
      ],
      ['a bad e-mail', { email: 'not-an-address' }, { email: ['must be an e-mail address'] }],
      [
        'missing names',
        { firstName: undefined, lastName: '   ' },
        { firstName: ['is required'], lastName: ['is required'] },
      ],
      [
        'text fields of another type',
        { firstName: 7, password: ['a'] },
        { firstName: ['must be text'], password: ['must be text'] },
      ],
    ])('%s', async (_, change, fields) => {
      const res = await client().post('/shop/register', { email: newEmail(), ...VALID, ...change });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        success: false,
        error: { code: 'validation_failed', message: expect.any(String), fields },
      });
    });

    it('every problem at once', async () => {
      const res = await client().post('/shop/register', { email: 'x@', password: '123', lastName: 'L' });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.error.fields).sort()).toEqual(['email', 'firstName', 'password']);
      expect(await shop.dataSource.getRepository(Customer).countBy({ email: 'x@' })).toBe(0);
    });
  });

  it('answers a registered e-mail, in any case, with a 409 that tells nothing more', async () => {
    const email = await registerCustomer(client());
    const res = await client().post('/shop/register', { ...VALID, email: email.toUpperCase(), firstName: 'Eve' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      success: false,
      error: {
        code: 'email_taken',
        message: 'An account with this e-mail already exists. Log in or reset the password.',
        fields: { email: ['is already registered'] },
      },
    });
    expect((await customerRow(email))!.firstName).toBe('Ada');
  });

  describe('by form', () => {
    it('creates the account and goes to the account page with a welcome', async () => {
      const browser = client();
      const email = newEmail();
      const res = await browser.submitForm('/shop/create-account', { email, ...VALID, firstName: 'Grace' });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('/shop/account');
      expect((await browser.get('/test/whoami').expect(200)).body.email).toBe(email);
      const next = (await browser.get('/shop/login').expect(200)).text;
      expect(next).toContain('Welcome, Grace! Your account is ready.');
      expect(next).toContain(`We have e-mailed ${email} a link to confirm that the address is yours.`);
    });

    it.each([
      [{ password: 'short' }, 'Password must be at least 10 characters long.'],
      [{ email: 'nope', firstName: '' }, 'E-mail must be an e-mail address. First name is required.'],
    ])('sends %j back to the form with the reason', async (change, message) => {
      const browser = client();
      const res = await browser.submitForm('/shop/create-account', { email: newEmail(), ...VALID, ...change });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('/shop/register');
      expect((await browser.get('/shop/register').expect(200)).text).toContain(message);
      await browser.get('/test/whoami').expect(302);
    });

    it('sends a registered e-mail back to the form', async () => {
      const email = await registerCustomer(client());
      const browser = client();
      const res = await browser.submitForm('/shop/create-account', { email, ...VALID });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('/shop/register');
      expect((await browser.get('/shop/register').expect(200)).text).toContain(
        'An account with this e-mail already exists. Log in or reset the password.',
      );
    });
  });

  it('refuses a registration without the CSRF token', async () => {
    const email = newEmail();
    const res = await request(shop.server)
      .post('/shop/register')
      .send({ email, ...VALID });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('csrf_invalid');
    expect(await customerRow(email)).toBeNull();
  });

  describe('confirming the address', () => {
    const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

    it('mails a link at registration; following it once confirms the address', async () => {
      const browser = client();
      const email = await registerCustomer(browser, { firstName: 'Zebedee' });
      const customer = (await customerRow(email))!;
      expect(customer.emailVerifiedAt).toBeNull();
      // Shopping does not wait for the confirmation.
      expect((await browser.get('/test/whoami').expect(200)).body.email).toBe(email);

      const mail = await eventually(() => smtp.messages.find((message) => message.to.includes(email)));
      expect(subjectOf(mail)).toMatch(/^Confirm your e-mail address at /);
      const text = mailText(mail);
      expect(text).toContain('was just registered with this e-mail address');
      expect(text).toContain('The link works for 7 days.');
      expect(text).toContain('http://localhost:3000/shop/forgotten-password');
      expect(text).not.toContain('Zebedee'); // nothing a stranger typed goes into a mail to someone else
      const path = await verificationPath(smtp.messages, email);
      expect(text).toContain(`http://localhost:3000${path}`);
      const token = new URL(path, 'http://shop.test').searchParams.get('token')!;
      const link = await verifications().findOneByOrFail({ customerId: customer.id });
      expect(link).toMatchObject({ email, tokenHash: sha256(token), usedAt: null });
      expect(link.expiresAt - Date.now()).toBeGreaterThan(7 * DAY_MS - 60_000);

      // Opening the link, as a mail scanner does (GET, HEAD, no cookies, any Accept), confirms nothing.
      for (const accept of ['text/html', 'application/json', '*/*']) {
        const scanned = await request(shop.server).get(path).set('Accept', accept).expect(200);
        expect(scanned.headers['cache-control']).toBe('no-store');
        expect(scanned.text).toContain('<h1>Confirm your e-mail address</h1>');
        expect(scanned.text).toContain('<button type="submit">Confirm my e-mail address</button>');
      }
      await request(shop.server).head(path).expect(200);
      expect((await customerRow(email))!.emailVerifiedAt).toBeNull();
      expect((await verifications().findOneByOrFail({ id: link.id })).usedAt).toBeNull();

      // Any browser may press the button: the link itself is the proof.
      const page = await confirmLink(client(), path);
      expect(page.status).toBe(200);
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.text).toContain('<h1>E-mail address confirmed</h1>');
      expect(page.text).toContain('Thank you: the e-mail address of your account is confirmed.');
      expect((await customerRow(email))!.emailVerifiedAt).toBeGreaterThan(Date.now() - 60_000);
      expect((await verifications().findOneByOrFail({ id: link.id })).usedAt).toEqual(expect.any(Number));

      // Opened again, the link says so and offers no button.
      const again = await client().get(path).set(HTML).expect(200);
      expect(again.text).toContain('The e-mail address of your account is already confirmed.');
      expect(again.text).not.toContain('<form method="post" action="/shop/customer/verify-email"');
    });

    it('confirms only with a POST that carries the CSRF token; JSON clients get the outcome as JSON', async () => {
      const email = await registerCustomer(client());
      const path = await verificationPath(smtp.messages, email);
      const token = new URL(path, 'http://shop.test').searchParams.get('token')!;

      const forged = await request(shop.server).post('/shop/customer/verify-email').type('form').send({ token });
      expect(forged.status).toBe(403);
      expect(forged.body.error.code).toBe('csrf_invalid');
      expect((await customerRow(email))!.emailVerifiedAt).toBeNull();

      const app = client();
      const unknown = await app.post('/shop/customer/verify-email', { token: '0'.repeat(64) });
      expect(unknown.status).toBe(400);
      expect(unknown.body).toEqual({
        success: false,
        error: { code: 'token_invalid', message: expect.stringContaining('This confirmation link is not valid') },
      });
      expect((await app.post('/shop/customer/verify-email', {})).status).toBe(400);
      const confirmed = await app.post('/shop/customer/verify-email', { token });
      expect(confirmed.status).toBe(200);
      expect(confirmed.body).toEqual({
        success: true,
        outcome: 'verified',
        message: 'Thank you: the e-mail address of your account is confirmed.',
      });
      expect((await customerRow(email))!.emailVerifiedAt).toEqual(expect.any(Number));
      const again = await app.post('/shop/customer/verify-email', { token });
      expect(again.body).toMatchObject({ success: true, outcome: 'alreadyVerified' });
    });

    it('says why a link does not work, and confirms nothing with it', async () => {
      const browser = client();
      const email = await registerCustomer(browser);
      const path = await verificationPath(smtp.messages, email);
      const customer = (await customerRow(email))!;
      const follow = (target: string) => client().get(target).set(HTML).expect(400);
      // The button's form post, as a page opened before the link stopped working would send it.
      const token = new URL(path, 'http://shop.test').searchParams.get('token')!;
      const press = () =>
        client()
          .submitForm('/shop/customer/verify-email', { token })
          .then((res) => res.text);

      for (const query of ['', '?token=', `?token=${'0'.repeat(64)}`, '?token=xyz', '?token[]=a']) {
        const res = await follow(`/shop/customer/verify-email${query}`);
        expect(res.text).toContain('This confirmation link is not valid or has been used.');
        expect(res.text).toContain('href="/shop/forgotten-password"');
      }

      await verifications().update({ customerId: customer.id }, { expiresAt: Date.now() - 1 });
      expect((await follow(path)).text).toContain('This confirmation link has expired.');
      expect(await press()).toContain('This confirmation link has expired.');
      await verifications().update({ customerId: customer.id }, { expiresAt: Date.now() + DAY_MS });

      // The address changed since the link was sent: the old link proves nothing about the new one.
      const changed = `changed.${email}`;
      const saved = await browser.post('/shop/account/login-details/save', {
        email: changed,
        currentPassword: CUSTOMER_PASSWORD,
      });
      expect(saved.status).toBe(200);
      expect((await follow(path)).text).toContain('This link was sent to an address that the account no longer has.');
      expect(await press()).toContain('This link was sent to an address that the account no longer has.');
      expect((await customerRow(changed))!.emailVerifiedAt).toBeNull();

      const newPath = await verificationPath(smtp.messages, changed);
      expect(newPath).not.toBe(path);
      expect((await confirmLink(client(), newPath)).text).toContain('<h1>E-mail address confirmed</h1>');
      expect((await customerRow(changed))!.emailVerifiedAt).toEqual(expect.any(Number));
    });
  });

  describe('throttling of answers that an address is taken', () => {
    const expectTakenAddressThrottled = (res: request.Response) =>
      expectThrottled(
        res,
        /^Too many tries of addresses that already have an account\. Try again in (a minute|\d+ minutes)\.$/,
        TAKEN_ADDRESS_WINDOW_MS,
      );

    it(`holds a client address after ${TAKEN_ADDRESS_LIMIT} taken addresses, whatever it registers next`, async () => {
      const ip = freshIp();
      for (let i = 0; i < TAKEN_ADDRESS_LIMIT; i++) {
        const taken = await registerCustomer(client());
        expect((await registerFrom(ip, { ...VALID, email: taken })).status).toBe(409);
      }
      // A new address is refused too: otherwise the difference between 429 and 200 would still tell.
      const browser = client();
      const email = newEmail();
      expectTakenAddressThrottled(await registerFrom(ip, { ...VALID, email }, browser));
      expect(await customerRow(email)).toBeNull();
      await browser.get('/test/whoami').expect(302);
      expect((await registerFrom(freshIp(), { ...VALID, email })).status).toBe(200);
    });

    it(`holds one taken address after ${TAKEN_ADDRESS_LIMIT} tries, from any client address`, async () => {
      const taken = await registerCustomer(client());
      for (let i = 0; i < TAKEN_ADDRESS_LIMIT; i++) {
        expect((await registerFrom(freshIp(), { ...VALID, email: taken.toUpperCase() })).status).toBe(409);
      }
      expectTakenAddressThrottled(await registerFrom(freshIp(), { ...VALID, email: taken }));
    });

    it('counts neither new accounts nor refused input', async () => {
      const ip = freshIp();
      for (let i = 0; i <= TAKEN_ADDRESS_LIMIT; i++) {
        expect((await registerFrom(ip, { ...VALID, email: newEmail() })).status).toBe(200);
        expect((await registerFrom(ip, { ...VALID, email: newEmail(), password: 'short' })).status).toBe(400);
      }
      const taken = await registerCustomer(client());
      expect((await registerFrom(ip, { ...VALID, email: taken })).status).toBe(409);
    });

    it('sends a throttled form registration back to the form with the reason', async () => {
      const ip = freshIp();
      const taken = await registerCustomer(client());
      for (let i = 0; i < TAKEN_ADDRESS_LIMIT; i++) {
        expect((await registerFrom(ip, { ...VALID, email: taken })).status).toBe(409);
      }
      const browser = client();
      const token = await browser.csrfToken();
      const res = await browser.agent
        .post('/shop/create-account')
        .type('form')
        .set(HTML)
        .set('X-Forwarded-For', ip)
        .send({ ...VALID, email: newEmail(), _csrf: token });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('/shop/register');
      expect((await browser.get('/shop/register').expect(200)).text).toMatch(
        /Too many tries of addresses that already have an account\. Try again in/,
      );
    });

    it('holds e-mail changes to taken addresses too, counted with registrations', async () => {
      const ip = freshIp();
      const browser = client();
      const email = await registerCustomer(browser);
      const changeFrom = async (newEmail: string) => {
        const token = await browser.csrfToken();
        return browser.agent
          .post('/shop/account/login-details/save')
          .set('X-CSRF-Token', token)
          .set('X-Forwarded-For', ip)
          .send({ email: newEmail, currentPassword: CUSTOMER_PASSWORD });
      };
      for (let i = 0; i < TAKEN_ADDRESS_LIMIT; i++) {
        const taken = await registerCustomer(client());
        const res = i % 2 ? await changeFrom(taken) : await registerFrom(ip, { ...VALID, email: taken });
        expect(res.status).toBe(409);
        expect(res.body.error.code).toBe('email_taken');
      }
      expectTakenAddressThrottled(await changeFrom(newEmail()));
      expect(await customerRow(email)).not.toBeNull();
      // A change that keeps the address, or from elsewhere, is not held up.
      expect((await changeFrom(email)).status).toBe(200);
      const other = newEmail();
      expect(
        (await browser.post('/shop/account/login-details/save', { email: other, currentPassword: CUSTOMER_PASSWORD }))
          .status,
      ).toBe(200);
    });

    // Several instances share one MySQL + Redis (docs/architecture.md): without Redis there is one process to count in.
    if (usingRedis)
      it('shares the count between app instances through Redis', async () => {
        const second = await startTestApp({ place: shop.place, env: { SMTP_URL: smtp.url } });
        try {
          const ip = freshIp();
          for (let i = 0; i < TAKEN_ADDRESS_LIMIT; i++) {
            const taken = await registerCustomer(client());
            const app = i % 2 ? second : shop;
            expect((await registerFrom(ip, { ...VALID, email: taken }, new ShopClient(app.server))).status).toBe(409);
          }
          expectTakenAddressThrottled(
            await registerFrom(ip, { ...VALID, email: newEmail() }, new ShopClient(second.server)),
          );
        } finally {
          await second.close();
        }
      });
  });

  it('answers 404 while customer accounts are off', async () => {
    const settings = shop.app.get(SettingsService);
    const browser = client();
    const email = newEmail();
    await settings.save({ customerAccountsEnabled: false });
    try {
      await browser.get('/shop/register').expect(404);
      await browser.get(`/shop/customer/verify-email?token=${'0'.repeat(64)}`).expect(404);
      expect((await browser.post('/shop/customer/verify-email', { token: '0'.repeat(64) })).status).toBe(404);
      expect((await browser.post('/shop/register', { email, ...VALID })).status).toBe(404);
      expect((await browser.submitForm('/shop/create-account', { email, ...VALID })).status).toBe(404);
    } finally {
      await settings.save({ customerAccountsEnabled: true });
    }
    expect(await customerRow(email)).toBeNull();
  });
});
