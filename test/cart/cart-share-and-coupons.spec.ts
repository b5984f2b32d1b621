import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { CouponService } from '../../src/commerce/coupons/coupon.service';
import { Product } from '../../src/commerce/products/product.entity';
import { SettingsService } from '../../src/config/settings.service';
import { Job } from '../../src/jobs/job.entity';
import { SHARE_RECIPIENTS_PER_HOUR } from '../../src/mail/share-mails';
import { COUPON_TRY_LIMIT } from '../../src/shop/cart/cart-coupon.controller';
import { productBySku } from '../support/catalog';
import { ShopClient } from '../support/shop-client';
import { eventually, jobsSettled, startTestApp, TestApp } from '../support/test-app';

const AJAX = { 'X-Requested-With': 'XMLHttpRequest' };

describe('cart sharing and coupons', () => {
  let shop: TestApp;
  let tent: Product;
  beforeAll(async () => {
    shop = await startTestApp();
    tent = await productBySku(shop.dataSource, 'DEMO-TENT-2P');
    const coupons = shop.app.get(CouponService);
    await coupons.create({ code: 'TENPERCENT', type: 'percent', value: 10 });
    await coupons.create({ code: 'FIVEOFF', type: 'fixed', value: 5 });
    await coupons.create({ code: 'BIGSPENDER', type: 'percent', value: 20, minSubtotal: 1000 });
    await coupons.create({ code: 'OLD', type: 'percent', value: 50, endsAt: new Date(Date.now() - 86_400_000) });
  });
  afterAll(() => shop.close());

  async function cartWithTent(qty = 1): Promise<ShopClient> {
    const client = new ShopClient(shop.server);
    const token = await client.csrfToken();
    await client.agent
      .post('/shop/cart/add')
      .set('X-CSRF-Token', token)
      .set(AJAX)
      .send({ product: tent.id, qty })
      .expect(200);
    return client;
  }

  /** A JSON post from client address `ip` (the app trusts a loopback proxy's X-Forwarded-For). */
  async function postFrom(client: ShopClient, ip: string, path: string, body: object) {
    return client.agent
      .post(path)
      .set('X-CSRF-Token', await client.csrfToken())
      .set('X-Forwarded-For', ip)
      .send(body);
  }

  /** The share e-mails queued to addresses at `domain`. */
  async function shareMailsTo(domain: string): Promise<Job[]> {
    await jobsSettled(shop);
    const jobs = await shop.dataSource.getRepository(Job).findBy({ name: 'mail.send' });
    return jobs.filter((job) => String(job.payload.to).endsWith(`@${domain}`));
  }

  const recipients = (domain: string, from: number, count = 10) =>
    Array.from({ length: count }, (_, i) => `friend${from + i}@${domain}`);

  it('applies a percentage and a fixed coupon to the totals, in the cart currency', async () => {
    const client = await cartWithTent(2); // 658.00
    const percent = await client.post('/shop/cart/add-coupon', { coupon_code: 'tenpercent' });
    expect(percent.status).toBe(200);
    expect(percent.body.cart).toMatchObject({ couponCode: 'TENPERCENT', subtotal: 658, discount: 65.8, total: 592.2 });
    expect((await client.get('/shop/cart/get-totals')).text).toContain('TENPERCENT');

    const fixed = await client.post('/shop/cart/add-coupon', { coupon_code: 'FIVEOFF', siteMode: 'Site' });
    expect(fixed.body.cart).toMatchObject({ couponCode: 'FIVEOFF', discount: 5, total: 653 });
    const czk = await client.post('/shop/currency/set', { currency: 'CZK' });
    expect(czk.body.cart).toMatchObject({ discount: 126.5, subtotal: 16647.4, total: 16520.9 });

    const removed = await client.post('/shop/cart/add-coupon', { coupon_code: 'FIVEOFF', remove: 1 });
    expect(removed.body.cart).toMatchObject({ couponCode: null, discount: 0 });
  });

  it('answers a bad, expired or not-yet-qualifying code with a clear 4xx', async () => {
    const client = await cartWithTent();
    const unknown = await client.post('/shop/cart/add-coupon', { coupon_code: 'NOPE' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: 'coupon_unknown', message: expect.stringContaining('NOPE') });
    const old = await client.post('/shop/cart/add-coupon', { coupon_code: 'OLD' });
    expect(old.body.error.code).toBe('coupon_expired');
    const minimum = await client.post('/shop/cart/add-coupon', { coupon_code: 'BIGSPENDER' });
    expect(minimum.body.error.code).toBe('coupon_min_subtotal');
    expect((await client.post('/shop/cart/add-coupon', {})).status).toBe(400);
    expect((await client.post('/shop/cart/add-coupon', { coupon_code: 'X', siteMode: 'Admin' })).status).toBe(400);
    const notApplied = await client.post('/shop/cart/remove-coupon', { coupon_code: 'TENPERCENT' });
    expect(notApplied.status).toBe(404);
    const empty = new ShopClient(shop.server);
    expect((await empty.post('/shop/cart/add-coupon', { coupon_code: 'TENPERCENT' })).status).toBe(409);
  });

  it('removes a coupon with remove-coupon', async () => {
    const client = await cartWithTent();
    await client.post('/shop/cart/add-coupon', { coupon_code: 'TENPERCENT' });
    const res = await client.post('/shop/cart/remove-coupon', { coupon_code: 'tenpercent' });
    expect(res.body).toMatchObject({ success: true, cart: { couponCode: null, discount: 0 } });
  });

  it('registers add-coupon only while salesCouponsEnabled is on', async () => {
    const client = await cartWithTent();
    const settings = shop.app.get(SettingsService);
    await settings.save({ salesCouponsEnabled: false });
    try {
      const off = await client.post('/shop/cart/add-coupon', { coupon_code: 'TENPERCENT' });
      expect(off.status).toBe(404);
      expect(off.body.error).toEqual({ code: 'not_found', message: 'Cannot POST /shop/cart/add-coupon' });
    } finally {
      await settings.save({ salesCouponsEnabled: true });
    }
    expect((await client.post('/shop/cart/add-coupon', { coupon_code: 'TENPERCENT' })).status).toBe(200);
  });

  it('shares a cart by link and e-mail; the link copies the lines into another cart', async () => {
    const owner = await cartWithTent(2);
    const created = await owner.post('/shop/cart/share-create');
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      success: true,
      token: expect.stringMatching(/^[0-9a-f]{32}$/),
      url: `http://localhost:3000/shop/cart/share/${created.body.token}`,
    });
    expect((await owner.post('/shop/cart/share-create')).body.token).toBe(created.body.token);

    const friend = new ShopClient(shop.server);
    const opened = await friend.get(`/shop/cart/share/${created.body.token}`).expect(302);
    expect(opened.headers.location).toBe('/shop/cart');
    const cartPage = await friend.get('/shop/cart').set('Accept', 'text/html').expect(200);
    expect(cartPage.text).toContain('1 shared item(s) added to your cart.');
    expect(cartPage.text).toContain('Ridgeline 2-Person Tent');

    await request(shop.server)
      .get(`/shop/cart/share/${'0'.repeat(32)}`)
      .expect(404);
    await request(shop.server).get('/shop/cart/share/not-a-token').set('Accept', 'text/html').expect(404);

    const mailed = await owner.post('/shop/cart/share-send-emails', {
      recipients: ['ada@example.com', 'ADA@example.com', 'bob@example.com'],
      message: 'For the trip',
    });
    expect(mailed.body).toEqual({ success: true, sent: 2 });
    const dir = join(shop.config.dataDir, 'mail');
    const files = await eventually(() => existsSync(dir) && readdirSync(dir).length >= 2 && readdirSync(dir));
    const mails = (files as string[]).map((file) => readFileSync(join(dir, file), 'utf8'));
    expect(mails.some((mail) => mail.includes('To: ada@example.com') && mail.includes(created.body.token))).toBe(true);

    const tooMany = await owner.post('/shop/cart/share-send-emails', {
      recipients: Array.from({ length: 11 }, (_, i) => `r${i}@example.com`),
    });
    expect(tooMany.status).toBe(400);
    expect((await owner.post('/shop/cart/share-send-emails', { recipients: ['not-an-email'] })).status).toBe(400);
    expect((await new ShopClient(shop.server).post('/shop/cart/share-create')).status).toBe(409);
  });

  it("never puts a guest's own text into a share e-mail", async () => {
    const guest = await cartWithTent();
    const lure = 'Your parcel is held: confirm your card at http://evil.example/pay';
    const mailed = await postFrom(guest, '203.0.113.20', '/shop/cart/share-send-emails', {
      recipients: ['victim@lure.example'],
      message: lure,
    });
    expect(mailed.status).toBe(200);
    expect(mailed.body).toEqual({ success: true, sent: 1 });
    const [job] = await shareMailsTo('lure.example');
    const { token } = (await guest.post('/shop/cart/share-create')).body;
    expect(job.payload).toEqual({ to: 'victim@lure.example', subject: 'A shopping cart was shared with you' });
    // The message as sent (no SMTP_URL: an .eml file under DATA_DIR/mail).
    const dir = join(shop.config.dataDir, 'mail');
    const mail = readdirSync(dir)
      .map((file) => readFileSync(join(dir, file), 'utf8'))
      .find((text) => text.includes('To: victim@lure.example'))!;
    expect(mail.replace(/=\r?\n/g, '')).toContain(`http://localhost:3000/shop/cart/share/${token}`);
    expect(mail).not.toContain('evil.example');
    expect(mail).not.toContain('parcel');
  });

  it(`mails at most ${SHARE_RECIPIENTS_PER_HOUR} recipients an hour per session and per address, then 429 with Retry-After`, async () => {
    const guest = await cartWithTent();
    const ip = '203.0.113.21';
    const answers = [];
    for (let post = 0; post < 12; post++) {
      answers.push(
        await postFrom(guest, ip, '/shop/cart/share-send-emails', {
          recipients: recipients('relay.example', post * 10),
        }),
      );
    }
    // 12 posts of 10 recipients asked for 120 e-mails: two posts spend the allowance, the rest are refused whole.
    expect(answers.map((res) => res.status)).toEqual([200, 200, ...Array(10).fill(429)]);
    for (const refused of answers.slice(2)) {
      expect(refused.body).toMatchObject({ success: false, error: { code: 'too_many_requests' } });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(await shareMailsTo('relay.example')).toHaveLength(SHARE_RECIPIENTS_PER_HOUR);

    // A new session (a fresh cart) from the same address is refused, and so is the same session from elsewhere.
    const sameAddress = await cartWithTent();
    const fromSameAddress = await postFrom(sameAddress, ip, '/shop/cart/share-send-emails', {
      recipients: ['one@relay-2.example'],
    });
    expect(fromSameAddress.status).toBe(429);
    const sameSession = await postFrom(guest, '203.0.113.22', '/shop/cart/share-send-emails', {
      recipients: ['two@relay-2.example'],
    });
    expect(sameSession.status).toBe(429);
    expect(await shareMailsTo('relay-2.example')).toHaveLength(0);

    // Anybody else still shares as before.
    const friend = await cartWithTent();
    const shared = await postFrom(friend, '203.0.113.23', '/shop/cart/share-send-emails', {
      recipients: ['mum@family.example', 'dad@family.example'],
    });
    expect(shared.body).toEqual({ success: true, sent: 2 });
    expect(await shareMailsTo('family.example')).toHaveLength(2);
  });

  it('throttles share posts per session and per address even when they mail nobody new', async () => {
    const guest = await cartWithTent();
    const statuses = [];
    for (let post = 0; post < 11; post++) {
      statuses.push((await postFrom(guest, '203.0.113.24', '/shop/cart/share-create', {})).status);
    }
    expect(statuses).toEqual([...Array(10).fill(200), 429]);
    const refused = await postFrom(guest, '203.0.113.25', '/shop/cart/share-create', {});
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it(`throttles add-coupon to ${COUPON_TRY_LIMIT} tries per address, right codes included, with Retry-After`, async () => {
    const guesser = await cartWithTent();
    const ip = '203.0.113.30';
    for (let guess = 0; guess < COUPON_TRY_LIMIT; guess++) {
      const wrong = await postFrom(guesser, ip, '/shop/cart/add-coupon', { coupon_code: `SUMMER${guess}` });
      expect(wrong.status).toBe(400);
    }
    const refused = await postFrom(guesser, ip, '/shop/cart/add-coupon', { coupon_code: 'TENPERCENT' });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ success: false, error: { code: 'too_many_requests' } });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await guesser.get('/shop/cart/get-totals')).text).not.toContain('TENPERCENT');

    // A shopper at another address is not held back.
    const shopper = await cartWithTent();
    const applied = await postFrom(shopper, '203.0.113.31', '/shop/cart/add-coupon', { coupon_code: 'TENPERCENT' });
    expect(applied.body.cart).toMatchObject({ couponCode: 'TENPERCENT' });
  });
});
