import request from 'supertest';
import { Order } from '../../src/commerce/orders/order.entity';
import { SettingsService } from '../../src/config/settings.service';
import { CpUsersService } from '../../src/commerce/staff/cp-users.service';
import { productBySku } from '../support/catalog';
import { ADDRESS, addToCart, placeOrder, shippingValue } from '../support/checkout';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp, usingMysql } from '../support/test-app';
import { storedSetting } from '../support/settings';

const WIDGETS = ['configuration', 'prices', 'orders-by-country'];
const PICKUP_POINT = { id: '101', name: 'Sandbox point Hlavná', street: 'Hlavná 1', city: 'Bratislava', zip: '81101' };

/** The carrier B settings as the demo seed leaves them, plus the defaults of those it does not set. */
const BASELINE: Record<string, unknown> = {
  'carrier-b.apiKey': 'sandbox-widget-key',
  'carrier-b.countries': 'sk,cz',
  'carrier-b.language': 'en',
  'carrier-b.defaultPrice': 0,
  'carrier-b.defaultFreeShippingThreshold': 0,
  'carrier-b.defaultCurrency': 'EUR',
  'carrier-b.countryPricesEnabled': true,
  'carrier-b.countryPrices': { sk: 290, cz: 350 },
  'carrier-b.countryFreeShippingThresholds': { sk: 5000, cz: 6000 },
  'carrier-b.dropOffWeight': 0,
  'carrier-b.claimAssistantOnly': false,
  'carrier-b.packetConsignmentOnly': false,
  'carrier-b.dashboardLayout': WIDGETS.map((id) => ({ id, hidden: false })),
};

/** The settings form as the page posts it when nothing is changed (the API key blank: kept). */
const FORM: Record<string, string> = {
  apiKey: '',
  countries: 'sk,cz',
  language: 'en',
  defaultPrice: '0',
  defaultFreeShippingThreshold: '0',
  defaultCurrency: 'EUR',
  countryPricesEnabled: 'on',
  countryPrices: '{"sk":290,"cz":350}',
  countryFreeShippingThresholds: '{"sk":5000,"cz":6000}',
  dropOffWeight: '0',
};

/**
 * Carrier B's CP dashboard (its configuration and this month's carrier B orders by country, in a widget
 * layout staff can change) and its settings form, whose changes the checkout widget's options follow.
 */
describe(`carrier B CP dashboard and settings (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let staff: ShopClient;
  beforeAll(async () => {
    shop = await startTestApp();
    staff = new ShopClient(shop.server);
    await staff.loginCp();
  });
  afterAll(() => shop.close());
  beforeEach(() => shop.app.get(SettingsService).save(BASELINE));

  const page = (path: string, client = staff) => client.get(path).set('Accept', 'text/html');
  const stored = (key: string) => storedSetting(shop, key);
  const widgetOptions = async () =>
    (await request(shop.server).get('/index.php?p=carrier-b/api/options').expect(200)).body;
  const shownWidgets = (html: string) =>
    [...html.matchAll(/<section class="widget" id="widget-([a-z-]+)"/g)].map((m) => m[1]);
  const widgetHtml = (html: string, id: string) => {
    const start = html.indexOf(`<section class="widget" id="widget-${id}"`);
    return html.slice(start, html.indexOf('</section>', start));
  };

  async function submit(path: string, fields: Record<string, string>) {
    const res = await staff.submitForm(path, fields);
    expect(res.status).toBe(303);
    const next = await page(res.headers.location as string).expect(200);
    return { location: res.headers.location as string, text: next.text };
  }

  /** An order placed at checkout with `shippingMethod` to an address in `country`. */
  async function orderTo(country: string, shippingMethod: string): Promise<Order> {
    const client = new ShopClient(shop.server);
    await addToCart(client, (await productBySku(shop.dataSource, 'DEMO-HEADLAMP')).id, 1);
    const address = { ...ADDRESS, country, ...(country === 'CZ' && { city: 'Praha', zipCode: '110 00' }) };
    const steps: Array<[string, object]> = [
      ['/shop/checkout/save', { email: 'ada@example.com', billingAddress: address }],
      ['/shop/checkout/save-shipping-method', { shippingMethod, pickupPoint: PICKUP_POINT }],
      ['/shop/checkout/save-payment-method', { paymentMethod: 'bank-transfer-manual' }],
    ];
    for (const [path, body] of steps) {
      const res = await client.post(path, body);
      if (res.status !== 200) throw new Error(`${path} failed: ${res.status} ${JSON.stringify(res.body)}`);
    }
    const placed = await placeOrder(client);
    expect(placed.status).toBe(200);
    return shop.dataSource.getRepository(Order).findOneByOrFail({ number: placed.body.orderNumber });
  }

  describe('access', () => {
    it('sends a visitor without a CP session to the CP login', async () => {
      for (const path of ['dashboard', 'settings']) {
        const res = await request(shop.server).get(`/admin/carrier-b/${path}`).expect(302);
        expect(res.headers.location).toBe(`/admin/login?next=%2Fadmin%2Fcarrier-b%2F${path}`);
      }
    });

    it('answers 403 without accessPlugin-carrier-b (carrier A’s is not enough) and opens for one with it', async () => {
      const users = shop.app.get(CpUsersService);
      await users.create({ email: 'clerk-b@example.com', password: 'clerk-password-1' });
      await users.create({
        email: 'a-only@example.com',
        password: 'a-only-password',
        permissions: ['accessPlugin-carrier-a'],
      });
      await users.create({
        email: 'shipper-b@example.com',
        password: 'shipper-password',
        permissions: ['accessPlugin-carrier-b'],
      });
      for (const [email, password] of [
        ['clerk-b@example.com', 'clerk-password-1'],
        ['a-only@example.com', 'a-only-password'],
      ]) {
        const denied = new ShopClient(shop.server);
        await denied.loginCp(email, password);
        const forbidden = await denied.get('/admin/carrier-b/dashboard').expect(403);
        expect(forbidden.body.error).toEqual({
          code: 'forbidden',
          message: 'You need the accessPlugin-carrier-b permission to open this page.',
        });
        expect((await page('/admin/carrier-b/settings', denied)).status).toBe(403);
        const save = await denied.post('/admin/carrier-b/settings', { ...FORM, defaultPrice: '999' });
        expect(save.status).toBe(403);
        const layout = await denied.post('/admin/carrier-b/dashboard/save-layout', { widgets: [] });
        expect(layout.status).toBe(403);
      }
      expect(await stored('carrier-b.defaultPrice')).toBe(0);

      const shipper = new ShopClient(shop.server);
      await shipper.loginCp('shipper-b@example.com', 'shipper-password');
      const landing = await shipper.get('/admin/carrier-b').expect(302);
      expect(landing.headers.location).toBe('/admin/carrier-b/dashboard');
      const dashboard = await page('/admin/carrier-b/dashboard', shipper).expect(200);
      expect(dashboard.text).toContain('<h1>Carrier B</h1>');
      expect(dashboard.text).toContain('<a href="/admin/carrier-b/dashboard">Carrier B</a>');
      await page('/admin/carrier-b/settings', shipper).expect(200);
    });
  });

  describe('dashboard', () => {
    it('summarises the configuration with the API key masked, and the prices per country', async () => {
      const res = await page('/admin/carrier-b/dashboard').expect(200);
      expect(shownWidgets(res.text)).toEqual(WIDGETS);
      const configuration = widgetHtml(res.text, 'configuration');
      expect(configuration).toContain('<dt>Countries</dt><dd>SK CZ </dd>');
      expect(configuration).toContain('<dt>API key</dt><dd>set (••••••••-key)</dd>');
      expect(configuration).toContain('<dt>Drop-off weight</dt><dd>off</dd>');
      expect(res.text).not.toContain('sandbox-widget-key');
      const prices = widgetHtml(res.text, 'prices');
      expect(prices).toContain('Country prices are on.');
      expect(prices).toContain('<tr><td>SK</td><td>2.90 EUR</td><td>50.00 EUR</td></tr>');
      expect(prices).toContain('<tr><td>CZ</td><td>3.50 EUR</td><td>60.00 EUR</td></tr>');

      await shop.app.get(SettingsService).save({
        'carrier-b.apiKey': '',
        'carrier-b.countryPricesEnabled': false,
        'carrier-b.defaultPrice': 349,
        'carrier-b.dropOffWeight': 5,
      });
      const changed = await page('/admin/carrier-b/dashboard').expect(200);
      expect(widgetHtml(changed.text, 'configuration')).toContain(
        '<dt>API key</dt><dd><span class="status status-failed">not set</span></dd>',
      );
      expect(widgetHtml(changed.text, 'configuration')).toContain('<dt>Drop-off weight</dt><dd>up to 5 kg</dd>');
      const defaults = widgetHtml(changed.text, 'prices');
      expect(defaults).toContain('Every country pays the default price.');
      expect(defaults).toContain('<tr><td>SK</td><td>3.49 EUR</td><td>never</td></tr>');
    });

    it('counts this month’s orders shipped with carrier B by delivery country', async () => {
      const carrierB = await shippingValue(shop.dataSource, 'pickup-point', 'carrier-b');
      const flatRate = await shippingValue(shop.dataSource, 'flat-rate');
      await orderTo('SK', carrierB);
      await orderTo('SK', carrierB);
      await orderTo('CZ', carrierB);
      await orderTo('SK', flatRate);
      const lastMonth = await orderTo('CZ', carrierB);
      const now = new Date();
      await shop.dataSource
        .getRepository(Order)
        .createQueryBuilder()
        .update()
        .set({ dateCreated: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) - 1000) })
        .where({ id: lastMonth.id })
        .execute();

      const res = await page('/admin/carrier-b/dashboard').expect(200);
      const orders = widgetHtml(res.text, 'orders-by-country');
      expect(orders).toContain('<tbody><tr><td>SK</td><td>2</td></tr><tr><td>CZ</td><td>1</td></tr></tbody>');
      expect(orders).toContain('<tfoot><tr><th scope="row">Total</th><td>3</td></tr></tfoot>');
    });
  });

  describe('widget layout', () => {
    it('reorders and hides widgets, from JSON and from the arrange form', async () => {
      const res = await staff.post('/admin/carrier-b/dashboard/save-layout', {
        widgets: [
          { id: 'orders-by-country', hidden: false },
          { id: 'configuration', hidden: true },
        ],
      });
      expect(res.status).toBe(200);
      expect(res.body.widgets).toEqual([
        { id: 'orders-by-country', hidden: false },
        { id: 'configuration', hidden: true },
        { id: 'prices', hidden: false },
      ]);
      const dashboard = await page('/admin/carrier-b/dashboard').expect(200);
      expect(shownWidgets(dashboard.text)).toEqual(['orders-by-country', 'prices']);
      expect(dashboard.text).not.toContain('sandbox-widget-key');

      const form = await submit('/admin/carrier-b/dashboard/save-layout', {
        'widgets[0][id]': 'orders-by-country',
        'widgets[0][position]': '3',
        'widgets[1][id]': 'configuration',
        'widgets[1][position]': '1',
        'widgets[2][id]': 'prices',
        'widgets[2][position]': '2',
        'widgets[2][hidden]': 'on',
      });
      expect(form.location).toBe('/admin/carrier-b/dashboard');
      expect(form.text).toContain('Dashboard layout saved.');
      expect(shownWidgets(form.text)).toEqual(['configuration', 'orders-by-country']);
      expect(await stored('carrier-b.dashboardLayout')).toEqual([
        { id: 'configuration', hidden: false },
        { id: 'prices', hidden: true },
        { id: 'orders-by-country', hidden: false },
      ]);
    });

    it('refuses a widget carrier B has not got (carrier A’s, say), keeping the layout', async () => {
      const res = await staff.post('/admin/carrier-b/dashboard/save-layout', {
        widgets: [{ id: 'by-status', hidden: false }],
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        success: false,
        error: {
          code: 'validation_failed',
          fields: {
            widgets: ['there is no widget "by-status" (the widgets are configuration, prices, orders-by-country)'],
          },
        },
      });
      expect(await stored('carrier-b.dashboardLayout')).toEqual(BASELINE['carrier-b.dashboardLayout']);
    });
  });

  describe('settings', () => {
    it('shows every carrier B setting but the layout, the API key only masked', async () => {
      const res = await page('/admin/carrier-b/settings').expect(200);
      for (const name of [...Object.keys(FORM), 'claimAssistantOnly', 'packetConsignmentOnly']) {
        expect(res.text).toContain(`name="${name}"`);
      }
      expect(res.text).not.toContain('name="dashboardLayout"');
      expect(res.text).toContain('placeholder="••••••••-key (leave blank to keep)"');
      expect(res.text).not.toContain('sandbox-widget-key');
      expect(res.text).toContain(
        '<textarea id="countryPrices" name="countryPrices" aria-describedby="countryPrices-help">{&quot;sk&quot;:290,&quot;cz&quot;:350}</textarea>',
      );
      expect(res.text).toMatch(
        /id="countryPricesEnabled" name="countryPricesEnabled" type="checkbox" value="on" checked/,
      );
    });

    it('saves the form, and the checkout widget’s options follow at once', async () => {
      const before = await widgetOptions();
      expect(before).toMatchObject({ country: 'sk,cz', language: 'en', countryPrices: { sk: 2.9, cz: 3.5 } });

      const saved = await submit('/admin/carrier-b/settings', {
        ...FORM,
        countries: 'sk, cz, hu',
        language: 'sk',
        defaultPrice: '399',
        countryPricesEnabled: '',
        dropOffWeight: '10',
        packetConsignmentOnly: 'on',
      });
      expect(saved.location).toBe('/admin/carrier-b/settings');
      expect(saved.text).toContain('<p class="flash flash-success" role="status">Carrier B settings saved.</p>');
      expect(await stored('carrier-b.apiKey')).toBe('sandbox-widget-key');
      expect(await stored('carrier-b.defaultPrice')).toBe(399);
      expect(await stored('carrier-b.countryPricesEnabled')).toBe(false);

      const after = await widgetOptions();
      expect(after).toMatchObject({
        country: 'sk,cz,hu',
        language: 'sk',
        defaultPrice: 3.99,
        weight: 10,
        packetConsignment: 'true',
      });
      expect(after).not.toHaveProperty('countryPrices');
      expect(after).not.toHaveProperty('claimAssistant');

      await submit('/admin/carrier-b/settings', { ...FORM, apiKey: 'live-widget-key-2' });
      expect(await stored('carrier-b.apiKey')).toBe('live-widget-key-2');
    });

    it('saves nothing when a value is invalid, and the widget’s options stay as they were', async () => {
      const before = await widgetOptions();
      const res = await staff.submitForm('/admin/carrier-b/settings', {
        ...FORM,
        apiKey: 'typed-key-123',
        language: 'de',
        countries: 'Slovakia',
        countryPrices: '{"SK": 290}',
      });
      expect(res.status).toBe(400);
      expect(res.text).toContain('Countries: must be codes such as sk,cz');
      expect(res.text).toContain('Price by country: has SK, not a lowercase two-letter country code');
      expect(res.text).toContain('name="countries" value="Slovakia"');
      expect(res.text).toContain('name="language" value="de"');
      expect(res.text).not.toContain('typed-key-123');
      expect(await stored('carrier-b.language')).toBe('en');
      expect(await stored('carrier-b.apiKey')).toBe('sandbox-widget-key');
      expect(await widgetOptions()).toEqual(before);

      const json = await staff.post('/admin/carrier-b/settings', {
        ...FORM,
        countryFreeShippingThresholds: '{"sk": -1}',
      });
      expect(json.status).toBe(400);
      expect(json.body.error).toEqual({
        code: 'invalid_setting',
        message: 'carrier-b.countryFreeShippingThresholds must give sk a whole amount ≥ 0',
        fields: { countryFreeShippingThresholds: ['must give sk a whole amount ≥ 0'] },
      });
      expect(await stored('carrier-b.countryFreeShippingThresholds')).toEqual({ sk: 5000, cz: 6000 });
    });
  });
});
