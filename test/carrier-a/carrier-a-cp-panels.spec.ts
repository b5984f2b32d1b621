import request from 'supertest';
import { Order } from '../../src/commerce/orders/order.entity';
import { ShippingMethod } from '../../src/commerce/shipping/shipping-method.entity';
import { ShippingMethodRegistry } from '../../src/commerce/shipping/shipping-method.registry';
import { SettingsService } from '../../src/config/settings.service';
import { CpUsersService } from '../../src/commerce/staff/cp-users.service';
import { Job } from '../../src/jobs/job.entity';
import { CarrierALabelMonth } from '../../src/plugins/carrier-a/carrier-a-label-month.entity';
import { CarrierAShipment } from '../../src/plugins/carrier-a/carrier-a-shipment.entity';
import { CarrierAShipments } from '../../src/plugins/carrier-a/carrier-a-shipments.service';
import { productBySku } from '../support/catalog';
import { addToCart, fillCheckout, placeOrder } from '../support/checkout';
import { runCli } from '../support/cli';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp, usingMysql } from '../support/test-app';
import { storedSetting } from '../support/settings';

const CONTROL = '/_sandbox/carrier-a/_control';
const DAY_MS = 24 * 60 * 60 * 1000;
const WIDGETS = ['by-status', 'by-day', 'label-usage', 'failed-jobs'];

/** The carrier A settings as the demo seed leaves them, plus the defaults of those it does not set. */
const BASELINE: Record<string, unknown> = {
  'carrier-a.sandbox': true,
  'carrier-a.customUrl': '',
  'carrier-a.username': 'sandbox',
  'carrier-a.password': 'sandbox',
  'carrier-a.defaultWeight': 1000,
  'carrier-a.autoCreateStatus': 'paid',
  'carrier-a.pickupPointsEnabled': true,
  'carrier-a.pickupPointCountry': '',
  'carrier-a.labelLimit': 0,
  'carrier-a.dashboardLayout': WIDGETS.map((id) => ({ id, hidden: false })),
};

/** The settings form as the page posts it when nothing is changed (the password blank: kept). */
const FORM: Record<string, string> = {
  sandbox: 'on',
  customUrl: '',
  username: 'sandbox',
  password: '',
  defaultWeight: '1000',
  autoCreateStatus: 'paid',
  pickupPointsEnabled: 'on',
  pickupPointCountry: '',
  labelLimit: '0',
};

/**
 * Carrier A's CP dashboard (statistics from the shipment and job tables, a widget layout staff can change),
 * its settings form (secrets masked and kept, nothing saved when a value is wrong) and the connection test
 * against the sandbox carrier.
 */
describe(`carrier A CP dashboard and settings (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let staff: ShopClient;
  let classic: string;
  beforeAll(async () => {
    shop = await startTestApp({ listen: true });
    staff = new ShopClient(shop.server);
    await staff.loginCp();
    const methods = shop.dataSource.getRepository(ShippingMethod);
    await methods.update({ type: 'carrier-a' }, { enabled: true });
    shop.app.get(ShippingMethodRegistry).forgetMethods();
    classic = `carrier-a:classic:${(await methods.findOneByOrFail({ type: 'carrier-a', handle: 'classic' })).id}`;
  });
  afterAll(() => shop.close());
  beforeEach(async () => {
    await shop.app.get(SettingsService).save(BASELINE);
    await request(shop.server).post(`${CONTROL}/reset`).expect(200);
  });

  const page = (path: string, client = staff) => client.get(path).set('Accept', 'text/html');
  const stored = (key: string) => storedSetting(shop, key);
  /** The widgets the dashboard shows, in page order. */
  const shownWidgets = (html: string) =>
    [...html.matchAll(/<section class="widget" id="widget-([a-z-]+)"/g)].map((m) => m[1]);
  const widgetHtml = (html: string, id: string) => {
    const start = html.indexOf(`<section class="widget" id="widget-${id}"`);
    return html.slice(start, html.indexOf('</section>', start));
  };

  /** A form post; the page it redirects to. */
  async function submit(path: string, fields: Record<string, string>, client = staff) {
    const res = await client.submitForm(path, fields);
    expect(res.status).toBe(303);
    const next = await page(res.headers.location as string, client).expect(200);
    return { location: res.headers.location as string, text: next.text };
  }

  /** A parcel registered with the sandbox carrier for a new cash-on-delivery order: one label used. */
  async function parcel(): Promise<CarrierAShipment> {
    const client = new ShopClient(shop.server);
    await addToCart(client, (await productBySku(shop.dataSource, 'DEMO-HEADLAMP')).id, 1);
    await fillCheckout(client, { shippingMethod: classic, paymentMethod: 'cod' });
    const placed = await placeOrder(client);
    expect(placed.status).toBe(200);
    const order = await shop.dataSource.getRepository(Order).findOneByOrFail({ number: placed.body.orderNumber });
    return shop.app.get(CarrierAShipments).createParcel(order.id);
  }

  /** A shipment row as if made on `createdAt` (no label is counted for it). */
  let parcelSequence = 0;
  async function shipment(status: string, createdAt: Date): Promise<CarrierAShipment> {
    parcelSequence += 1;
    const rows = shop.dataSource.getRepository(CarrierAShipment);
    const saved = await rows.save(
      rows.create({
        orderId: parcelSequence,
        parcelId: `parcel-${parcelSequence}`,
        parcelNumber: `0990000${parcelSequence}`,
        status,
        service: 'CLASSIC',
        pickupPointId: null,
        codAmount: null,
        labelFilePath: null,
        payload: {},
        response: {},
      }),
    );
    await rows.createQueryBuilder().update().set({ dateCreated: createdAt }).where({ id: saved.id }).execute();
    return rows.findOneByOrFail({ id: saved.id });
  }

  async function job(name: string, status: Job['status']): Promise<void> {
    const jobs = shop.dataSource.getRepository(Job);
    // Not due for a day: the app's own worker leaves it alone.
    const runAt = Date.now() + DAY_MS;
    await jobs.save(jobs.create({ name, status, payload: {}, maxAttempts: 5, runAt, attempts: 5 }));
  }

  describe('access', () => {
    it('sends a visitor without a CP session to the CP login', async () => {
      for (const path of ['dashboard', 'settings']) {
        const res = await request(shop.server).get(`/admin/carrier-a/${path}`).expect(302);
        expect(res.headers.location).toBe(`/admin/login?next=%2Fadmin%2Fcarrier-a%2F${path}`);
      }
      const script = await new ShopClient(shop.server).post('/admin/carrier-a/api/test-connection');
      expect(script.status).toBe(401);
      expect(script.body).toEqual({
        success: false,
        error: { code: 'login_required', message: 'Log in to the control panel first.' },
      });
      expect((await request(shop.server).get(`${CONTROL}/stats`)).body.requests).toEqual({});
    });

    it('answers 403 without accessPlugin-carrier-a (carrier B’s is not enough) and opens for one with it', async () => {
      const users = shop.app.get(CpUsersService);
      await users.create({ email: 'clerk-a@example.com', password: 'clerk-password-1' });
      await users.create({
        email: 'b-only@example.com',
        password: 'b-only-password',
        permissions: ['accessPlugin-carrier-b'],
      });
      await users.create({
        email: 'shipper-a@example.com',
        password: 'shipper-password',
        permissions: ['accessPlugin-carrier-a'],
      });
      for (const email of ['clerk-a@example.com', 'b-only@example.com']) {
        const denied = new ShopClient(shop.server);
        await denied.loginCp(email, email.startsWith('clerk') ? 'clerk-password-1' : 'b-only-password');
        const forbidden = await denied.get('/admin/carrier-a/dashboard').expect(403);
        expect(forbidden.body.error).toEqual({
          code: 'forbidden',
          message: 'You need the accessPlugin-carrier-a permission to open this page.',
        });
        expect((await page('/admin/carrier-a/settings', denied)).status).toBe(403);
        expect((await page('/admin/carrier-a', denied)).status).toBe(403);
        const save = await denied.post('/admin/carrier-a/settings', { ...FORM, username: 'intruder' });
        expect(save.status).toBe(403);
        const layout = await denied.post('/admin/carrier-a/dashboard/save-layout', { widgets: [] });
        expect(layout.status).toBe(403);
        expect((await denied.post('/admin/carrier-a/api/test-connection')).status).toBe(403);
      }
      expect(await stored('carrier-a.username')).toBe('sandbox');
      expect((await request(shop.server).get(`${CONTROL}/stats`)).body.requests).toEqual({});

      const shipper = new ShopClient(shop.server);
      await shipper.loginCp('shipper-a@example.com', 'shipper-password');
      const landing = await shipper.get('/admin/carrier-a').expect(302);
      expect(landing.headers.location).toBe('/admin/carrier-a/dashboard');
      const dashboard = await page('/admin/carrier-a/dashboard', shipper).expect(200);
      expect(dashboard.text).toContain('<h1>Carrier A</h1>');
      expect(dashboard.text).toContain('<a href="/admin/carrier-a/dashboard">Carrier A</a>');
      await page('/admin/carrier-a/settings', shipper).expect(200);
    });
  });

  describe('dashboard', () => {
    it('counts the last 30 days of shipments by status and by day, this month’s labels and failed jobs', async () => {
      expect(widgetHtml((await page('/admin/carrier-a/dashboard')).text, 'by-status')).toContain(
        'No shipments in the last 30 days',
      );
      const now = Date.now();
      const today = new Date(now);
      await parcel();
      await parcel();
      await shipment('DELIVERED', today);
      await shipment('IN_TRANSIT', new Date(now - 3 * DAY_MS));
      await shipment('DELIVERED', new Date(now - 29 * DAY_MS));
      await shipment('DELIVERED', new Date(now - 40 * DAY_MS));
      await job('carrier-a.auto-shipment', 'failed');
      await job('carrier-a.auto-shipment', 'failed');
      await job('carrier-a.auto-shipment', 'pending');
      await job('mail.send', 'failed');

      // What the page should count, from the table (UTC days; the 40-day-old parcel is out of range).
      const all = await shop.dataSource.getRepository(CarrierAShipment).find();
      const dayOf = (date: Date) => date.toISOString().slice(0, 10);
      const since = Date.parse(dayOf(new Date(now - 29 * DAY_MS)));
      const recent = all.filter((row) => row.dateCreated.getTime() >= since);
      expect(recent).toHaveLength(5);
      // Labels: the month's count the limit is enforced on, which only real parcels took.
      const month = await shop.dataSource
        .getRepository(CarrierALabelMonth)
        .findOneByOrFail({ month: dayOf(today).slice(0, 7) });
      expect(month.labels).toBe(2);
      const thisMonth = month.labels;

      const res = await page('/admin/carrier-a/dashboard').expect(200);
      expect(shownWidgets(res.text)).toEqual(WIDGETS);
      const byStatus = widgetHtml(res.text, 'by-status');
      for (const status of ['CREATED', 'DELIVERED', 'IN_TRANSIT']) {
        const count = recent.filter((row) => row.status === status).length;
        expect(byStatus).toContain(`<tr><td><span class="status">${status}</span></td><td>${count}</td></tr>`);
      }
      expect(byStatus).toContain('<tr><td><span class="status">CREATED</span></td><td>2</td></tr>');

      const byDay = widgetHtml(res.text, 'by-day');
      const days = [...byDay.matchAll(/<tr><td>(\d{4}-\d{2}-\d{2})<\/td><td>(\d+)<\/td>/g)];
      expect(days).toHaveLength(30);
      expect(days[0][1]).toBe(dayOf(today));
      expect(days[29][1]).toBe(dayOf(new Date(now - 29 * DAY_MS)));
      for (const [, day, count] of days) {
        expect(Number(count)).toBe(recent.filter((row) => dayOf(row.dateCreated) === day).length);
      }
      expect(Number(days[0][2])).toBe(3);
      expect(Number(days[3][2])).toBe(1);

      const labels = widgetHtml(res.text, 'label-usage');
      expect(labels).toContain(`<strong>${thisMonth}</strong> labels used this month · no monthly limit`);
      const failed = widgetHtml(res.text, 'failed-jobs');
      expect(failed).toContain('<strong>2</strong> automatic parcel jobs failed');
      expect(failed).toContain('<a href="/admin/jobs?status=failed">See failed jobs</a>');

      // Against a limit: used of limit, and a warning once it is reached.
      await shop.app.get(SettingsService).save({ 'carrier-a.labelLimit': thisMonth + 5 });
      const limited = widgetHtml((await page('/admin/carrier-a/dashboard')).text, 'label-usage');
      expect(limited).toContain(`<strong>${thisMonth}</strong> of ${thisMonth + 5} labels used this month</p>`);
      expect(limited).toContain(`<meter min="0" max="${thisMonth + 5}" value="${thisMonth}"`);
      await shop.app.get(SettingsService).save({ 'carrier-a.labelLimit': thisMonth });
      const reached = widgetHtml((await page('/admin/carrier-a/dashboard')).text, 'label-usage');
      expect(reached).toContain('limit reached: automatic parcels are skipped');
    });
  });

  describe('widget layout', () => {
    it('saves a JSON layout: widgets in its order, the hidden ones left out, unnamed ones appended', async () => {
      const res = await staff.post('/admin/carrier-a/dashboard/save-layout', {
        widgets: [
          { id: 'failed-jobs', hidden: false },
          { id: 'by-status', hidden: true },
          { id: 'label-usage', hidden: false },
        ],
      });
      expect(res.status).toBe(200);
      const layout = [
        { id: 'failed-jobs', hidden: false },
        { id: 'by-status', hidden: true },
        { id: 'label-usage', hidden: false },
        { id: 'by-day', hidden: false },
      ];
      expect(res.body).toEqual({ success: true, message: 'Dashboard layout saved.', widgets: layout });
      expect(await stored('carrier-a.dashboardLayout')).toEqual(layout);

      const dashboard = await page('/admin/carrier-a/dashboard').expect(200);
      expect(shownWidgets(dashboard.text)).toEqual(['failed-jobs', 'label-usage', 'by-day']);
      expect(dashboard.text).not.toContain('<h2 id="widget-by-status-title">');
      // The arrange form lists every widget in the saved order, the hidden one ticked.
      const positions = [...dashboard.text.matchAll(/name="widgets\[(\d)\]\[id\]" value="([a-z-]+)"/g)];
      expect(positions.map((match) => match[2])).toEqual(['failed-jobs', 'by-status', 'label-usage', 'by-day']);
      expect(dashboard.text).toContain(
        '<input name="widgets[1][hidden]" type="checkbox" value="on" checked> Hide<span class="visually-hidden"> Shipments by status</span>',
      );
      expect(dashboard.text).toContain('<input name="widgets[0][hidden]" type="checkbox" value="on" >');
    });

    it('saves the arrange form: positions reorder, ticked boxes hide', async () => {
      const saved = await submit('/admin/carrier-a/dashboard/save-layout', {
        'widgets[0][id]': 'by-status',
        'widgets[0][position]': '4',
        'widgets[1][id]': 'by-day',
        'widgets[1][position]': '1',
        'widgets[1][hidden]': 'on',
        'widgets[2][id]': 'label-usage',
        'widgets[2][position]': '2',
        'widgets[3][id]': 'failed-jobs',
        'widgets[3][position]': '3',
      });
      expect(saved.location).toBe('/admin/carrier-a/dashboard');
      expect(saved.text).toContain('<p class="flash flash-success" role="status">Dashboard layout saved.</p>');
      expect(shownWidgets(saved.text)).toEqual(['label-usage', 'failed-jobs', 'by-status']);
      expect(await stored('carrier-a.dashboardLayout')).toEqual([
        { id: 'by-day', hidden: true },
        { id: 'label-usage', hidden: false },
        { id: 'failed-jobs', hidden: false },
        { id: 'by-status', hidden: false },
      ]);
    });

    it('refuses unknown or repeated widgets and anything that is not a list, keeping the layout', async () => {
      const before = await stored('carrier-a.dashboardLayout');
      const unknown = await staff.post('/admin/carrier-a/dashboard/save-layout', {
        widgets: [
          { id: 'by-status', hidden: false },
          { id: 'revenue', hidden: false },
        ],
      });
      expect(unknown.status).toBe(400);
      expect(unknown.body).toEqual({
        success: false,
        error: {
          code: 'validation_failed',
          message:
            'The dashboard layout was not saved: there is no widget "revenue" (the widgets are by-status, by-day, label-usage, failed-jobs).',
          fields: {
            widgets: ['there is no widget "revenue" (the widgets are by-status, by-day, label-usage, failed-jobs)'],
          },
        },
      });
      const twice = await staff.post('/admin/carrier-a/dashboard/save-layout', {
        widgets: [{ id: 'by-day' }, { id: 'by-day', hidden: true }],
      });
      expect(twice.status).toBe(400);
      expect(twice.body.error.fields).toEqual({ widgets: ['by-day is listed twice'] });
      for (const body of [
        {},
        { widgets: 'by-day' },
        { widgets: [{ hidden: true }] },
        { widgets: [{ id: 'by-day', hidden: 'maybe' }] },
      ]) {
        const res = await staff.post('/admin/carrier-a/dashboard/save-layout', body);
        expect(res.status).toBe(400);
        expect(res.body.success).toBe(false);
        expect(res.body.error.code).toBe('validation_failed');
      }
      // A browser form gets the message as a flash on the dashboard.
      const form = await submit('/admin/carrier-a/dashboard/save-layout', { 'widgets[0][id]': 'revenue' });
      expect(form.location).toBe('/admin/carrier-a/dashboard');
      expect(form.text).toContain(
        '<p class="flash flash-error" role="alert">The dashboard layout was not saved: there is no widget',
      );
      expect(await stored('carrier-a.dashboardLayout')).toEqual(before);
      expect(shownWidgets(form.text)).toEqual(WIDGETS);
    });
  });

  describe('settings', () => {
    it('shows every carrier A setting but the layout, the password only masked', async () => {
      await shop.app.get(SettingsService).save({ 'carrier-a.password': 'correct-horse-battery' });
      const res = await page('/admin/carrier-a/settings').expect(200);
      for (const name of Object.keys(FORM)) expect(res.text).toContain(`name="${name}"`);
      expect(res.text).not.toContain('name="dashboardLayout"');
      expect(res.text).toMatch(/id="sandbox" name="sandbox" type="checkbox" value="on" checked/);
      expect(res.text).toContain('name="username" value="sandbox"');
      expect(res.text).toContain('name="defaultWeight" type="number" min="0" step="1" value="1000"');
      expect(res.text).toContain('placeholder="••••••••tery (leave blank to keep)"');
      expect(res.text).not.toContain('correct-horse-battery');
      expect(res.text).not.toMatch(/name="password"[^>]* value=/);
      expect(res.text).toContain('<label for="labelLimit">Label limit per month</label>');
      expect(res.text).toContain('action="/admin/carrier-a/api/test-connection"');
    });

    it('saves the form, keeping the password when left blank and replacing it when typed', async () => {
      const saved = await submit('/admin/carrier-a/settings', {
        ...FORM,
        pickupPointsEnabled: '',
        defaultWeight: '2500',
        labelLimit: '40',
        autoCreateStatus: 'processing',
      });
      expect(saved.location).toBe('/admin/carrier-a/settings');
      expect(saved.text).toContain('<p class="flash flash-success" role="status">Carrier A settings saved.</p>');
      expect(saved.text).toContain('value="2500"');
      expect(await stored('carrier-a.defaultWeight')).toBe(2500);
      expect(await stored('carrier-a.labelLimit')).toBe(40);
      expect(await stored('carrier-a.autoCreateStatus')).toBe('processing');
      expect(await stored('carrier-a.pickupPointsEnabled')).toBe(false);
      expect(await stored('carrier-a.password')).toBe('sandbox');
      expect(shop.app.get(SettingsService).get('carrier-a.labelLimit')).toBe(40);
      // The dashboard measures against the new limit.
      expect((await page('/admin/carrier-a/dashboard')).text).toMatch(/of 40 labels used this month/);

      await submit('/admin/carrier-a/settings', { ...FORM, password: '  new-secret-9  ' });
      expect(await stored('carrier-a.password')).toBe('new-secret-9');

      // A script may post JSON; fields it leaves out keep their values, boxes too.
      const json = await staff.post('/admin/carrier-a/settings', { username: 'api-user', sandbox: true });
      expect(json.status).toBe(200);
      expect(json.body).toEqual({ success: true, message: 'Carrier A settings saved.' });
      expect(await stored('carrier-a.username')).toBe('api-user');
      expect(await stored('carrier-a.password')).toBe('new-secret-9');
      expect(await stored('carrier-a.defaultWeight')).toBe(1000);
      expect(await stored('carrier-a.pickupPointsEnabled')).toBe(FORM.pickupPointsEnabled === 'on');
    });

    it('saves nothing when a value is invalid, and shows the form again with the errors and what was typed', async () => {
      const res = await staff.submitForm('/admin/carrier-a/settings', {
        ...FORM,
        username: 'someone-else',
        password: 'typed-secret',
        defaultWeight: 'heavy',
        labelLimit: '1.5',
      });
      expect(res.status).toBe(400);
      expect(res.text).toContain(
        '<p class="flash flash-error" role="alert">Nothing was saved: carrier-a.defaultWeight must be an integer; carrier-a.labelLimit must be an integer</p>',
      );
      expect(res.text).toContain(
        '<p class="flash flash-error" role="alert">Default weight (g): must be an integer</p>',
      );
      expect(res.text).toContain(
        '<p class="flash flash-error" role="alert">Label limit per month: must be an integer</p>',
      );
      expect(res.text).toContain('name="username" value="someone-else"');
      expect(res.text).toContain('value="heavy"');
      expect(res.text).not.toContain('typed-secret');
      expect(await stored('carrier-a.username')).toBe('sandbox');
      expect(await stored('carrier-a.password')).toBe('sandbox');
      expect(await stored('carrier-a.defaultWeight')).toBe(1000);

      const json = await staff.post('/admin/carrier-a/settings', { ...FORM, sandbox: 'maybe', defaultWeight: 'x' });
      expect(json.status).toBe(400);
      expect(json.body).toEqual({
        success: false,
        error: {
          code: 'invalid_setting',
          message: 'carrier-a.sandbox must be true or false; carrier-a.defaultWeight must be an integer',
          fields: { sandbox: ['must be true or false'], defaultWeight: ['must be an integer'] },
        },
      });
      expect(await stored('carrier-a.sandbox')).toBe(true);
    });

    it('takes only an order status (or nothing) for the automatic parcels, in the CP and the CLI', async () => {
      const statuses =
        '(empty), pending_payment, payment_review, paid, processing, shipped, completed, canceled, refunded';
      const before = await stored('carrier-a.autoCreateStatus');
      const typo = await staff.post('/admin/carrier-a/settings', { ...FORM, autoCreateStatus: 'Payed' });
      expect(typo.status).toBe(400);
      expect(typo.body.error.fields).toEqual({ autoCreateStatus: [`must be one of ${statuses}`] });
      const cli = await runCli(shop.place, 'settings:set', 'carrier-a.autoCreateStatus', 'shiped');
      expect(cli).toMatchObject({ code: 1, json: { ok: false, error: { code: 'invalid_setting' } } });
      expect(cli.json.error).toMatchObject({ message: `carrier-a.autoCreateStatus must be one of ${statuses}` });
      expect(await stored('carrier-a.autoCreateStatus')).toBe(before);
      await staff.post('/admin/carrier-a/settings', { ...FORM, autoCreateStatus: '' }).then((res) => {
        expect(res.status).toBe(200);
      });
      expect(await stored('carrier-a.autoCreateStatus')).toBe('');
    });
  });

  describe('connection test', () => {
    const test = () => staff.post('/admin/carrier-a/api/test-connection');

    it('reports success against the sandbox carrier, asking it for one ParcelShop', async () => {
      const res = await test();
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, message: 'Carrier A accepted the connection and the credentials.' });
      const stats = (await request(shop.server).get(`${CONTROL}/stats`).expect(200)).body;
      expect(stats.requests['GET /v1/parcelshops']).toBe(1);

      // The settings page's button: back to the settings with a flash.
      const form = await submit('/admin/carrier-a/api/test-connection', {});
      expect(form.location).toBe('/admin/carrier-a/settings');
      expect(form.text).toContain(
        '<p class="flash flash-success" role="status">Carrier A accepted the connection and the credentials.</p>',
      );
    });

    it('reports the carrier’s own words when it is down or refuses the credentials, never the password', async () => {
      await request(shop.server).post(`${CONTROL}/mode`).send({ mode: 'error' }).expect(200);
      const down = await test();
      expect(down.status).toBe(200);
      expect(down.body.success).toBe(false);
      expect(down.body.message).toMatch(/^Carrier A: .* failed: HTTP 503: Service temporarily unavailable$/);
      await request(shop.server).post(`${CONTROL}/mode`).send({ mode: 'normal' }).expect(200);

      await submit('/admin/carrier-a/settings', { ...FORM, password: 'wrong-password-77' });
      const refused = await test();
      expect(refused.body.success).toBe(false);
      expect(refused.body.message).toContain('HTTP 401: Invalid username or password');
      expect(refused.body.message).not.toContain('wrong-password-77');
      const form = await submit('/admin/carrier-a/api/test-connection', {});
      expect(form.location).toBe('/admin/carrier-a/settings');
      expect(form.text).toContain('<p class="flash flash-error" role="alert">Carrier A: ');
      expect(form.text).toContain('Invalid username or password</p>');
      expect(form.text).not.toContain('wrong-password-77');
    });
  });
});
