import { EventEmitter2 } from '@nestjs/event-emitter';
import request from 'supertest';
import { ORDER_STATUS_CHANGE } from '../../src/commerce/events';
import { OrderStatusChange } from '../../src/commerce/orders/order-status.service';
import { Order } from '../../src/commerce/orders/order.entity';
import { CpUsersService } from '../../src/commerce/staff/cp-users.service';
import { runCli } from '../support/cli';
import { insertOrder } from '../support/fixtures';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TEST_CP_PASSWORD, TestApp } from '../support/test-app';
import { TestPluginModule } from '../support/test-plugin.module';

describe('control panel', () => {
  let shop: TestApp;
  beforeAll(async () => (shop = await startTestApp({ extraModules: [TestPluginModule] })));
  afterAll(() => shop.close());

  /** Creates a CP user holding `permission` with the CLI, and logs them in. */
  async function staffWith(permission: string): Promise<ShopClient> {
    const email = `${permission.toLowerCase()}@example.com`;
    const created = await runCli(
      shop.place,
      'cp:create-user',
      email,
      '--password',
      'staff-password',
      '--permission',
      permission,
    );
    expect(created.json).toMatchObject({ ok: true, permissions: [permission] });
    const client = new ShopClient(shop.server);
    await client.loginCp(email, 'staff-password');
    return client;
  }

  it('sends a CP page without a CP session to the login page', async () => {
    const res = await request(shop.server).get('/admin/orders?status=paid').expect(302);
    expect(res.headers.location).toBe('/admin/login?next=%2Fadmin%2Forders%3Fstatus%3Dpaid');
    const json = await request(shop.server)
      .get('/admin/test-plugin/dashboard')
      .set('X-Requested-With', 'XMLHttpRequest');
    expect(json.status).toBe(302);
  });

  it('logs in, lands on the requested page and logs out', async () => {
    const client = new ShopClient(shop.server);
    const before = await client.get('/admin/login?next=/admin/jobs').expect(200);
    expect(before.text).toContain('name="next" value="/admin/jobs"');
    const login = await client.submitForm('/admin/login', {
      email: 'ADMIN@example.com',
      password: TEST_CP_PASSWORD,
      next: '/admin/jobs',
    });
    expect(login.status).toBe(303);
    expect(login.headers.location).toBe('/admin/jobs');
    // The session id changes on login, so a planted one is useless.
    expect(String(login.headers['set-cookie'])).toMatch(/shop\.sid=/);
    const dashboard = await client.get('/admin').set('Accept', 'text/html').expect(200);
    expect(dashboard.text).toContain('Dashboard');
    expect(dashboard.text).toContain('Log out');
    expect(dashboard.text).toMatch(/<meta name="csrf-token" content="[0-9a-f]{64}">/);
    expect(dashboard.headers['cache-control']).toBe('no-store');

    const logout = await client.submitForm('/admin/logout', {});
    expect(logout.status).toBe(303);
    await client.get('/admin').expect(302);
  });

  it('never redirects off-site after login', async () => {
    const client = new ShopClient(shop.server);
    const login = await client.submitForm('/admin/login', {
      email: 'admin@example.com',
      password: TEST_CP_PASSWORD,
      next: '//evil.example/admin/',
    });
    expect(login.headers.location).toBe('/admin');
  });

  it('answers 403 to a CP user without the route permission, and 200 once granted', async () => {
    const limited = await runCli(shop.place, 'cp:create-user', 'clerk@example.com', '--password', 'clerk-password-1');
    expect(limited.json).toMatchObject({ ok: true, email: 'clerk@example.com', admin: false, permissions: [] });
    const clerk = new ShopClient(shop.server);
    await clerk.loginCp('clerk@example.com', 'clerk-password-1');
    const denied = await clerk.get('/admin/test-plugin/dashboard').expect(403);
    expect(denied.body.error).toEqual({
      code: 'forbidden',
      message: 'You need the accessPlugin-test-plugin permission to open this page.',
    });
    await clerk.get('/admin/orders').expect(403);
    await clerk.get('/admin').expect(200);

    // The test plugin is not loaded in the CLI's process, so this clerk is created in the app's.
    await shop.app
      .get(CpUsersService)
      .create({ email: 'tester@example.com', password: 'tester-password', permissions: ['accessPlugin-test-plugin'] });
    const granted = new ShopClient(shop.server);
    await granted.loginCp('tester@example.com', 'tester-password');
    await granted.get('/admin/test-plugin/dashboard').expect(200, { success: true, page: 'test-plugin dashboard' });
    const orderClerk = await staffWith('accessOrders');
    await orderClerk.get('/admin/orders').expect(200);
  });

  it("links in the CP header only the pages a staff member's permissions open", async () => {
    const navLabels = async (client: ShopClient) => {
      const page = await client.get('/admin').set('Accept', 'text/html').expect(200);
      const nav = /<nav aria-label="Control panel">([\s\S]*?)<\/nav>/.exec(page.text)![1];
      return [...nav.matchAll(/<a href="\/admin\/[^"]+">([^<]+)<\/a>/g)].map((link) => link[1]);
    };
    const admin = new ShopClient(shop.server);
    await admin.loginCp();
    expect(await navLabels(admin)).toEqual([
      'Orders',
      'Returns',
      'Withdrawals',
      'Products',
      'Categories',
      'Attributes',
      'Search',
      'Customers',
      'Jobs',
      'Coupons',
      'Abandoned carts',
      'Gift cards',
      'Shipping',
      'Flows',
      'Content pages',
      'OSS report',
      'Settings',
      'Audit log',
      'Store details',
      'Staff',
      'Bank payments',
      'Carrier A',
      'Carrier B',
    ]);

    expect(await navLabels(await staffWith('accessMarketing'))).toEqual(['Coupons', 'Abandoned carts', 'Gift cards']);
  });

  it('keeps CP users and customers apart: a duplicate CP e-mail is a conflict', async () => {
    const again = await runCli(shop.place, 'cp:create-user', 'admin@example.com', '--password', 'another-password');
    expect(again.code).toBe(1);
    expect(again.json).toMatchObject({ ok: false, error: { code: 'cp_user_exists' } });
  });

  it('lists, filters and shows orders, and changes a status through the order machine', async () => {
    const pending = await insertOrder(shop.dataSource);
    const paid = await insertOrder(shop.dataSource, 'paid');
    const changes: OrderStatusChange[] = [];
    shop.app.get(EventEmitter2).on(ORDER_STATUS_CHANGE, (change: OrderStatusChange) => changes.push(change));
    const client = new ShopClient(shop.server);
    await client.loginCp();

    const list = await client.get('/admin/orders?status=paid').set('Accept', 'text/html').expect(200);
    expect(list.text).toContain(paid.reference);
    expect(list.text).not.toContain(pending.reference);
    const search = await client.get(`/admin/orders?q=${pending.number}`).expect(200);
    expect(search.text).toContain(pending.reference);

    const detail = await client.get(`/admin/orders/${pending.id}`).expect(200);
    expect(detail.text).toContain(pending.number);
    expect(detail.text).toContain('<option value="canceled">');

    const change = await client.submitForm(`/admin/orders/${pending.id}/status`, {
      status: 'canceled',
      note: 'customer called',
    });
    expect(change.status).toBe(303);
    expect((await shop.dataSource.getRepository(Order).findOneByOrFail({ id: pending.id })).status).toBe('canceled');
    expect(changes).toEqual([
      expect.objectContaining({
        orderId: pending.id,
        from: 'pending_payment',
        to: 'canceled',
        actor: 'cp:admin@example.com',
      }),
    ]);
    const history = await client.get(`/admin/orders/${pending.id}`).expect(200);
    expect(history.text).toContain('customer called');

    const illegal = await client.submitForm(`/admin/orders/${pending.id}/status`, { status: 'paid' });
    expect(illegal.status).toBe(303);
    const flashed = await client.get(`/admin/orders/${pending.id}`).set('Accept', 'text/html').expect(200);
    expect(flashed.text).toContain('An order in status canceled cannot become paid.');
    await client.get('/admin/orders/999999').expect(404);
  });

  it('changes a status from the command line as well, the order named by its number or its reference', async () => {
    const order = await insertOrder(shop.dataSource, 'paid');
    const { number, reference } = order;
    const res = await runCli(shop.place, 'orders:set-status', number, 'shipped');
    expect(res.json).toEqual({ ok: true, orderNumber: number, reference, from: 'paid', to: 'shipped', changed: true });
    const byReference = await runCli(shop.place, 'orders:set-status', reference.toLowerCase(), 'completed');
    expect(byReference.json).toEqual({
      ok: true,
      orderNumber: number,
      reference,
      from: 'shipped',
      to: 'completed',
      changed: true,
    });
    const bad = await runCli(shop.place, 'orders:set-status', number, 'lost');
    expect(bad.code).toBe(1);
    const unknown = await runCli(shop.place, 'orders:set-status', 'ZZZZZZZZ', 'shipped');
    expect(unknown).toMatchObject({ code: 1, json: { ok: false, error: { message: 'No order ZZZZZZZZ' } } });
  });
});
