import { Order } from '../../src/commerce/orders/order.entity';
import { CpPermissionCatalogue } from '../../src/common/cp-permissions';
import { CpUsersService } from '../../src/commerce/staff/cp-users.service';
import { productBySku } from '../support/catalog';
import { addToCart, fillCheckout, placeOrder, shippingValue } from '../support/checkout';
import { ExamplePluginModule } from '../support/example-plugin/example-plugin.module';
import { INVOICE } from '../support/example-plugin/invoice.gateway';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp } from '../support/test-app';

/** A fourth plugin, written against `src/plugin-api/` only, joins checkout, the storefront and the CP. */
describe('the plugin API', () => {
  let shop: TestApp;
  beforeAll(async () => (shop = await startTestApp({ extraModules: [ExamplePluginModule] })));
  afterAll(() => shop.close());

  const page = (client: ShopClient, path: string) => client.get(path).set('Accept', 'text/html');
  /** The dashboard's widgets, in page order. */
  const shownWidgets = (html: string) =>
    [...html.matchAll(/<section class="widget" id="widget-([a-z-]+)"/g)].map((match) => match[1]);

  it('offers its payment method at checkout, after the shop’s own and bankpay’s, and places orders with it', async () => {
    const client = new ShopClient(shop.server);
    const tent = await productBySku(shop.dataSource, 'DEMO-TENT-2P');
    await addToCart(client, tent.id);
    const flatRate = await shippingValue(shop.dataSource, 'flat-rate');

    const payments = await client.get(`/shop/checkout/get-payment-methods?code=SK&shipping-method=${flatRate}`);
    expect(payments.status).toBe(200);
    const codes = payments.body.payment_methods.map((method: { code: string }) => method.code);
    expect(codes).toEqual([
      'cod',
      'bank-transfer-manual',
      'bankpay',
      'bankpay-loan',
      'bankpay-bank',
      'bankpay-qr',
      INVOICE,
    ]);

    await fillCheckout(client, { shippingMethod: flatRate, paymentMethod: INVOICE });
    const placed = await placeOrder(client);
    expect(placed.status).toBe(200);
    const order = await shop.dataSource.getRepository(Order).findOneByOrFail({ number: placed.body.orderNumber });
    expect(order).toMatchObject({ paymentMethod: INVOICE, status: 'pending_payment' });
  });

  it('answers its storefront endpoint under index.php?p=, with its own setting', async () => {
    const res = await new ShopClient(shop.server).get('/index.php?p=example/api/greeting&name=Ada').expect(200);
    expect(res.body).toEqual({ success: true, greeting: 'Hello from the example plugin, Ada' });
  });

  it('adds its CP permission, and its header link and pages to staff who hold it only', async () => {
    expect(shop.app.get(CpPermissionCatalogue).all()).toContain('accessPlugin-example');
    const users = shop.app.get(CpUsersService);
    await users.create({
      email: 'example-clerk@example.com',
      password: 'staff-password-1',
      permissions: ['accessPlugin-example'],
    });
    await users.create({
      email: 'orders-clerk@example.com',
      password: 'staff-password-1',
      permissions: ['accessOrders'],
    });
    const navLabels = async (client: ShopClient) => {
      const page = await client.get('/admin').set('Accept', 'text/html').expect(200);
      const nav = /<nav aria-label="Control panel">([\s\S]*?)<\/nav>/.exec(page.text)![1];
      return [...nav.matchAll(/<a href="\/admin\/([^"]+)">([^<]+)<\/a>/g)].map((link) => `${link[2]} → ${link[1]}`);
    };

    const holder = new ShopClient(shop.server);
    await holder.loginCp('example-clerk@example.com', 'staff-password-1');
    expect(await navLabels(holder)).toEqual(['Example → example/dashboard']);
    expect((await holder.get('/admin/example').expect(302)).headers.location).toBe('/admin/example/dashboard');
    const dashboard = await page(holder, '/admin/example/dashboard').expect(200);
    expect(dashboard.text).toContain('<h1>Example</h1>');
    expect(shownWidgets(dashboard.text)).toEqual(['greeting', 'invoices']);
    expect(dashboard.text).toContain('<dt>Shoppers are greeted with</dt><dd>Hello from the example plugin</dd>');
    expect(dashboard.text).toContain('<dt>Pay by invoice</dt><dd>offered</dd>');
    expect(dashboard.text).toContain('<a href="/admin/example/settings">Settings</a>');
    await page(holder, '/admin/example/settings').expect(200);
    // It declared no license panel.
    await page(holder, '/admin/example/license').expect(404);

    const other = new ShopClient(shop.server);
    await other.loginCp('orders-clerk@example.com', 'staff-password-1');
    expect(await navLabels(other)).toEqual(['Orders → orders', 'Returns → returns', 'Withdrawals → withdrawals']);
    for (const path of ['/admin/example', '/admin/example/dashboard', '/admin/example/settings']) {
      const refused = await other.get(path).expect(403);
      expect(refused.body.error.message).toBe('You need the accessPlugin-example permission to open this page.');
    }
    expect((await other.post('/admin/example/settings', { greeting: 'Hijacked' })).status).toBe(403);
    expect((await other.post('/admin/example/dashboard/save-layout', { widgets: [] })).status).toBe(403);
  });

  it('saves its declared settings section and dashboard layout, and its endpoint follows', async () => {
    const admin = new ShopClient(shop.server);
    await admin.loginCp();
    const form = await page(admin, '/admin/example/settings').expect(200);
    expect(form.text).toContain('<h1>Example · Settings</h1>');
    expect(form.text).toContain('<label for="invoiceEnabled">Pay by invoice</label>');
    expect(form.text).toContain('name="greeting" value="Hello from the example plugin"');
    expect(form.text).toContain('action="/admin/example/settings"');

    const saved = await admin.submitForm('/admin/example/settings', { greeting: 'Ahoy', invoiceEnabled: '' });
    expect(saved.status).toBe(303);
    expect(saved.headers.location).toBe('/admin/example/settings');
    const greeting = await new ShopClient(shop.server).get('/index.php?p=example/api/greeting&name=Ada').expect(200);
    expect(greeting.body).toEqual({ success: true, greeting: 'Ahoy, Ada' });
    const json = await admin.post('/admin/example/settings', { greeting: 'Hello again' });
    expect(json.status).toBe(200);
    expect(json.body).toEqual({ success: true, message: 'Example settings saved.' });

    const layout = await admin.post('/admin/example/dashboard/save-layout', {
      widgets: [
        { id: 'invoices', hidden: false },
        { id: 'greeting', hidden: true },
      ],
    });
    expect(layout.status).toBe(200);
    expect(layout.body.widgets).toEqual([
      { id: 'invoices', hidden: false },
      { id: 'greeting', hidden: true },
    ]);
    const dashboard = await page(admin, '/admin/example/dashboard').expect(200);
    expect(shownWidgets(dashboard.text)).toEqual(['invoices']);
    expect(dashboard.text).toContain('<dt>Pay by invoice</dt><dd>off</dd>');
  });
});
