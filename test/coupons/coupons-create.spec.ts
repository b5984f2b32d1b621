import request from 'supertest';
import { Coupon } from '../../src/commerce/coupons/coupon.entity';
import { runCli } from '../support/cli';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp } from '../support/test-app';

/** `coupons:create` prints one JSON line; the CP offers the same with a form. */
describe('creating coupons', () => {
  let shop: TestApp;
  beforeAll(async () => (shop = await startTestApp()));
  afterAll(() => shop.close());

  const stored = (code: string) => shop.dataSource.getRepository(Coupon).findOneByOrFail({ code });

  describe('from the command line', () => {
    it('creates a percent coupon, stored upper-case', async () => {
      const res = await runCli(shop.place, 'coupons:create', 'summer10', '--type', 'percent', '--value', '10');
      expect(res.code).toBe(0);
      expect(res.json).toEqual({
        ok: true,
        created: 'coupon',
        id: expect.any(Number),
        code: 'SUMMER10',
        type: 'percent',
        value: 10,
        usageLimit: null,
        perCustomerLimit: null,
        minSubtotal: null,
        startsAt: null,
        endsAt: null,
        enabled: true,
        timesUsed: 0,
      });
      expect(await stored('SUMMER10')).toMatchObject({ id: res.json.id, type: 'percent', value: 10, enabled: true });
    });

    it('creates a fixed coupon with every option, money in major units out and minor units stored', async () => {
      const res = await runCli(
        shop.place,
        'coupons:create',
        'WELCOME-5_50',
        '--type',
        'fixed',
        '--value',
        '5.5',
        '--limit',
        '100',
        '--per-customer',
        '1',
        '--min-subtotal',
        '30',
        '--from',
        '2026-11-01',
        '--to',
        '2026-12-01T12:00:00+01:00',
        '--disabled',
      );
      expect(res.json).toMatchObject({
        ok: true,
        created: 'coupon',
        code: 'WELCOME-5_50',
        type: 'fixed',
        value: 5.5,
        usageLimit: 100,
        perCustomerLimit: 1,
        minSubtotal: 30,
        startsAt: '2026-11-01T00:00:00.000Z',
        endsAt: '2026-12-01T11:00:00.000Z',
        enabled: false,
      });
      expect(await stored('WELCOME-5_50')).toMatchObject({
        value: 550,
        minSubtotal: 3000,
        usageLimit: 100,
        perCustomerLimit: 1,
        startsAt: Date.parse('2026-11-01T00:00:00Z'),
        endsAt: Date.parse('2026-12-01T11:00:00Z'),
        enabled: false,
        timesUsed: 0,
      });
    });

    it('refuses a code that exists already, whatever its case', async () => {
      const again = await runCli(shop.place, 'coupons:create', 'Summer10', '--type', 'fixed', '--value', '1');
      expect(again.code).toBe(1);
      expect(again.json).toEqual({
        ok: false,
        error: { code: 'coupon_exists', message: 'A coupon SUMMER10 already exists. Choose another code.' },
      });
    });

    it('names every bad field at once and exits 1', async () => {
      const res = await runCli(
        shop.place,
        'coupons:create',
        'x!',
        '--type',
        'percent',
        '--value',
        '150',
        '--limit',
        '0',
        '--per-customer',
        '1.5',
        '--min-subtotal',
        '-3',
        '--from',
        '2026-12-01',
        '--to',
        '2026-11-01',
      );
      expect(res.code).toBe(1);
      expect(res.json).toMatchObject({ ok: false, error: { code: 'validation_failed' } });
      const error = res.json.error as { message: string; fields: Record<string, string[]> };
      expect(error.fields).toEqual({
        code: ['must be 3–64 characters: letters A–Z, digits, - or _'],
        value: ['must be a whole percent from 1 to 100'],
        usageLimit: ['must be a whole number of at least 1'],
        perCustomerLimit: ['must be a whole number of at least 1'],
        minSubtotal: ['must be an amount with at most 2 decimals, more than 0'],
        endsAt: ['must be after startsAt'],
      });
      expect(error.message).toContain('The coupon was not saved: code must be 3–64 characters');
    });

    it('refuses a fixed amount finer than the base currency, a missing type and a missing value', async () => {
      const fine = await runCli(shop.place, 'coupons:create', 'FINE', '--type', 'fixed', '--value', '5.555');
      expect(fine.json).toMatchObject({
        ok: false,
        error: { fields: { value: ['must be an amount with at most 2 decimals, more than 0'] } },
      });
      const untyped = await runCli(shop.place, 'coupons:create', 'UNTYPED', '--value', '5');
      expect(untyped.json).toMatchObject({ ok: false, error: { fields: { type: ['must be percent or fixed'] } } });
      const valueless = await runCli(shop.place, 'coupons:create', 'VALUELESS', '--type', 'percent');
      expect(valueless.json).toMatchObject({ ok: false, error: { fields: { value: ['is required'] } } });
      expect(await shop.dataSource.getRepository(Coupon).countBy({ code: 'FINE' })).toBe(0);
    });

    it('explains a date that is not ISO 8601, including impossible days', async () => {
      const words = await runCli(
        shop.place,
        'coupons:create',
        'DATED',
        '--type',
        'percent',
        '--value',
        '5',
        '--from',
        'tomorrow',
      );
      expect(words.code).toBe(1);
      expect(words.json).toEqual({
        ok: false,
        error: {
          code: 'validation_failed',
          message: '--from "tomorrow" is not an ISO 8601 date; use e.g. 2026-11-01 or 2026-11-01T08:00:00Z.',
          fields: { from: ['must be an ISO 8601 date'] },
        },
      });
      const february = await runCli(
        shop.place,
        'coupons:create',
        'DATED',
        '--type',
        'percent',
        '--value',
        '5',
        '--to',
        '2026-02-30',
      );
      expect(february.json).toMatchObject({ ok: false, error: { fields: { to: ['must be an ISO 8601 date'] } } });
    });
  });

  describe('in the control panel', () => {
    let staff: ShopClient;
    beforeAll(async () => {
      staff = new ShopClient(shop.server);
      await staff.loginCp();
    });

    it('keeps the coupon pages behind the CP login', async () => {
      const res = await request(shop.server).get('/admin/coupons').expect(302);
      expect(res.headers.location).toBe('/admin/login?next=%2Fadmin%2Fcoupons');
      await request(shop.server).get('/admin/coupons/new').expect(302);
    });

    it('links the list from the navigation and shows the form with a CSRF token', async () => {
      const list = await staff.get('/admin/coupons').set('Accept', 'text/html').expect(200);
      expect(list.text).toContain('<a href="/admin/coupons">Coupons</a>');
      expect(list.text).toContain('href="/admin/coupons/new"');
      const form = await staff.get('/admin/coupons/new').set('Accept', 'text/html').expect(200);
      expect(form.text).toMatch(/<input type="hidden" name="_csrf" value="[0-9a-f]{64}">/);
      expect(form.text).toContain('name="perCustomerLimit"');
    });

    it('creates a coupon from the form and lists it', async () => {
      const res = await staff.submitForm('/admin/coupons', {
        code: 'cp-autumn',
        type: 'fixed',
        value: '7.5',
        usageLimit: '3',
        perCustomerLimit: '',
        minSubtotal: '25',
        startsAt: '2026-10-01T08:00',
        endsAt: '',
        enabled: 'on',
      });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('/admin/coupons');
      expect(await stored('CP-AUTUMN')).toMatchObject({
        type: 'fixed',
        value: 750,
        usageLimit: 3,
        perCustomerLimit: null,
        minSubtotal: 2500,
        // 08:00 on the shop's clock (Bratislava, summer time in October): 06:00 UTC.
        startsAt: Date.parse('2026-10-01T06:00:00Z'),
        endsAt: null,
        enabled: true,
      });

      const list = await staff.get('/admin/coupons').set('Accept', 'text/html').expect(200);
      expect(list.text).toContain('Coupon CP-AUTUMN created.');
      const row = list.text.slice(list.text.indexOf('<code>CP-AUTUMN</code>'));
      expect(row.slice(0, row.indexOf('</tr>'))).toEqual(
        expect.stringMatching(/7\.5 EUR[\s\S]*0 \/ 3[\s\S]*25 EUR[\s\S]*from 2026-10-01 08:00[\s\S]*Disable/),
      );
    });

    it('sends a bad form back with a flash that says what to fix', async () => {
      const res = await staff.submitForm('/admin/coupons', { code: 'ok-code', type: 'percent', value: '0' });
      expect(res.status).toBe(303);
      const page = await staff.get('/admin/coupons/new').set('Accept', 'text/html').expect(200);
      expect(page.text).toContain('The coupon was not saved: value must be a whole percent from 1 to 100.');

      const badDate = await staff.submitForm('/admin/coupons', {
        code: 'ok-code',
        type: 'percent',
        value: '5',
        endsAt: 'next week',
      });
      expect(badDate.status).toBe(303);
      const again = await staff.get('/admin/coupons/new').set('Accept', 'text/html').expect(200);
      expect(again.text).toContain('endsAt &quot;next week&quot; is not a date such as 2026-11-01');

      const duplicate = await staff.submitForm('/admin/coupons', { code: 'summer10', type: 'percent', value: '5' });
      expect(duplicate.status).toBe(303);
      const conflict = await staff.get('/admin/coupons').set('Accept', 'text/html').expect(200);
      expect(conflict.text).toContain('A coupon SUMMER10 already exists. Choose another code.');
      expect(await shop.dataSource.getRepository(Coupon).countBy({ code: 'OK-CODE' })).toBe(0);
    });

    it('answers a script with the JSON error body and its fields', async () => {
      const res = await staff.post('/admin/coupons', { code: 'ab', type: 'fixed', value: '5' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        success: false,
        error: {
          code: 'validation_failed',
          message: 'The coupon was not saved: code must be 3–64 characters: letters A–Z, digits, - or _.',
          fields: { code: ['must be 3–64 characters: letters A–Z, digits, - or _'] },
        },
      });
    });

    it('disables and enables a coupon', async () => {
      const coupon = await stored('SUMMER10');
      const off = await staff.submitForm(`/admin/coupons/${coupon.id}/enabled`, { enabled: 'false', confirm: 'yes' });
      expect(off.status).toBe(303);
      expect((await stored('SUMMER10')).enabled).toBe(false);
      const list = await staff.get('/admin/coupons').set('Accept', 'text/html').expect(200);
      expect(list.text).toContain('Coupon SUMMER10 disabled.');

      await staff.submitForm(`/admin/coupons/${coupon.id}/enabled`, { enabled: 'true' });
      expect((await stored('SUMMER10')).enabled).toBe(true);
      const missing = await staff.post('/admin/coupons/999999/enabled', { enabled: 'false', confirm: 'yes' });
      expect(missing.status).toBe(404);
    });
  });
});
