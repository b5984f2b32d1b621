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

  it('adds its CP permission, and its header link and page to staff who hold it only', async () => {
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
    expect((await holder.get('/admin/example/dashboard').expect(200)).body).toEqual({
      success: true,
      page: 'example dashboard',
    });

    const other = new ShopClient(shop.server);
    await other.loginCp('orders-clerk@example.com', 'staff-password-1');
    expect(await navLabels(other)).toEqual(['Orders → orders']);
    await other.get('/admin/example/dashboard').expect(403);
  });
});
