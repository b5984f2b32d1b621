import { Controller, Get, Module, RequestMethod, Type } from '@nestjs/common';
import { METHOD_METADATA, MODULE_PATH, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, ModulesContainer, Reflector } from '@nestjs/core';
import { AuditEntry } from '../../src/commerce/audit/audit-entry.entity';
import { Coupon } from '../../src/commerce/coupons/coupon.entity';
import { Product } from '../../src/commerce/products/product.entity';
import { LOGIN_FAILURE_LIMIT } from '../../src/common/throttling/login-throttle.service';
import { CORE_CP_PERMISSIONS, CpPermissionCatalogue } from '../../src/common/cp-permissions';
import {
  CP_ACCESS,
  CP_ANY_STAFF,
  CP_PLUGIN_OF_HANDLE,
  CP_PUBLIC,
  CpAccess,
} from '../../src/common/decorators/cp-permission.decorator';
import { isCpRoute } from '../../src/common/guards/cp.guard';
import { CpUser } from '../../src/commerce/staff/cp-user.entity';
import { CpUsersService } from '../../src/commerce/staff/cp-users.service';
import { PluginDeclaration, StorefrontPlugin } from '../../src/plugin-api/storefront-plugin';
import { runCli } from '../support/cli';
import { cpNavLabels, cpStaff } from '../support/cp-staff';
import { insertOrder } from '../support/fixtures';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TEST_CP_PASSWORD, TestApp } from '../support/test-app';
import { TestPluginModule } from '../support/test-plugin.module';

/** A CP page someone forgot to give a permission: the guard must refuse it, and the route audit must find it. */
@Controller('admin/undeclared')
class UndeclaredCpController {
  @Get()
  page() {
    return { success: true, page: 'open by omission' };
  }
}

@Module({ controllers: [UndeclaredCpController] })
class UndeclaredCpModule {}

interface RouteAccess {
  route: string;
  access: CpAccess | undefined;
}

const normalize = (path: string) => `/${path.split('/').filter(Boolean).join('/')}`;

/** Every route Nest registered, with the full path it mounted it under and the CP access it declares. */
function nestRoutes(shop: TestApp): RouteAccess[] {
  const modules = shop.app.get(ModulesContainer);
  const reflector = shop.app.get(Reflector);
  const scanner = new MetadataScanner();
  const routes = new Map<string, CpAccess | undefined>();
  for (const module of modules.values()) {
    const modulePath: string =
      Reflect.getMetadata(MODULE_PATH + modules.applicationId, module.metatype) ??
      Reflect.getMetadata(MODULE_PATH, module.metatype) ??
      '';
    for (const { metatype } of module.controllers.values()) {
      const controller = metatype as Type;
      const controllerPaths = [Reflect.getMetadata(PATH_METADATA, controller) ?? ''].flat() as string[];
      for (const name of scanner.getAllMethodNames(controller.prototype)) {
        const handler = controller.prototype[name] as () => unknown;
        const methodPaths = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
        if (methodPaths === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
        const access = reflector.getAllAndOverride<CpAccess | undefined>(CP_ACCESS, [handler, controller]);
        for (const controllerPath of controllerPaths) {
          for (const methodPath of [methodPaths].flat()) {
            routes.set(`${method} ${normalize(`${modulePath}/${controllerPath}/${methodPath}`)}`, access);
          }
        }
      }
    }
  }
  return [...routes].map(([route, access]) => ({ route, access }));
}

/** Every route the Express router serves (whoever registered it). */
function expressRoutes(shop: TestApp): string[] {
  const router = shop.app.getHttpAdapter().getInstance().router as {
    stack: Array<{ route?: { path: string; methods: Record<string, boolean> } }>;
  };
  return router.stack.flatMap((layer) =>
    layer.route
      ? Object.keys(layer.route.methods).map((method) => `${method.toUpperCase()} ${normalize(layer.route!.path)}`)
      : [],
  );
}

const underCp = (route: string) => isCpRoute(route.split(' ')[1], 'admin');

describe('CP permissions', () => {
  let shop: TestApp;
  beforeAll(async () => (shop = await startTestApp({ extraModules: [TestPluginModule, UndeclaredCpModule] })));
  afterAll(() => shop.close());

  const staff = (email: string, permissions: string[]) => cpStaff(shop, email, permissions);

  const HUNDRED_PERCENT = {
    code: 'everything-free',
    type: 'percent',
    value: '100',
    usageLimit: '',
    perCustomerLimit: '',
    minSubtotal: '',
    startsAt: '',
    endsAt: '',
    enabled: 'on',
  };

  it('declares a permission or an explicit opening on every CP route, and refuses one that declares neither', async () => {
    const routes = nestRoutes(shop).filter(({ route }) => underCp(route));
    // The audit sees every CP route there is: nothing under the CP is served past Nest's guards.
    // A route with middleware of its own (the catalog upload) has a router layer for each: the same route.
    expect(routes.map(({ route }) => route).sort()).toEqual([...new Set(expressRoutes(shop).filter(underCp))].sort());
    expect(routes.length).toBeGreaterThan(60);

    // Only the one planted above declares nothing.
    expect(routes.filter(({ access }) => access === undefined).map(({ route }) => route)).toEqual([
      'GET /admin/undeclared',
    ]);
    const opened = (kind: CpAccess) =>
      routes
        .filter(({ access }) => access === kind)
        .map(({ route }) => route)
        .sort();
    expect(opened(CP_PUBLIC)).toEqual([
      'GET /admin/login',
      'GET /admin/set-password/:token',
      'POST /admin/login',
      'POST /admin/logout',
      'POST /admin/set-password/:token',
    ]);
    expect(opened(CP_ANY_STAFF)).toEqual(['GET /admin']);
    // The pages the core serves for every plugin ask for the permission of the plugin their `:handle` names.
    expect(opened(CP_PLUGIN_OF_HANDLE)).toEqual([
      'GET /admin/:handle',
      'GET /admin/:handle/dashboard',
      'GET /admin/:handle/license',
      'GET /admin/:handle/settings',
      'POST /admin/:handle/dashboard/save-layout',
      'POST /admin/:handle/license/activate',
      'POST /admin/:handle/license/redeem',
      'POST /admin/:handle/license/revoke',
      'POST /admin/:handle/settings',
    ]);
    const servedPlugins = shop.app
      .get(DiscoveryService)
      .getProviders({ metadataKey: PluginDeclaration.KEY })
      .map(({ instance }) => instance as StorefrontPlugin)
      .filter(({ cp }) => cp?.dashboard || cp?.settings || cp?.license)
      .map(({ handle }) => `accessPlugin-${handle}`);

    // Every permission a route asks for can be granted.
    const grantable = shop.app.get(CpPermissionCatalogue).all();
    const asked = new Set([
      ...routes.map(({ access }) => access).filter((access) => access?.startsWith('access')),
      ...servedPlugins,
    ]);
    for (const permission of asked) expect(grantable).toContain(permission);
    expect([...asked].sort()).toEqual(
      [
        ...CORE_CP_PERMISSIONS,
        'accessPlugin-bankpay',
        'accessPlugin-carrier-a',
        'accessPlugin-carrier-b',
        'accessPlugin-test-plugin',
      ].sort(),
    );

    const admin = new ShopClient(shop.server);
    await admin.loginCp();
    const refused = await admin.get('/admin/undeclared').expect(403);
    expect(refused.body.error).toEqual({
      code: 'forbidden',
      message: 'This control-panel page declares no permission, so nobody may open it.',
    });
    await new ShopClient(shop.server).get('/admin/undeclared').expect(302);

    // A handle no plugin declared is a page that is not there, to a visitor as to an admin; so is a page a plugin did
    // not declare. A plugin's own page at such a path (the test plugin's dashboard) is served, not shadowed.
    await new ShopClient(shop.server).get('/admin/no-such-plugin/dashboard').expect(404);
    await admin.get('/admin/no-such-plugin/settings').expect(404);
    await admin.get('/admin/test-plugin/settings').expect(404);
    expect((await admin.get('/admin/test-plugin/dashboard').expect(200)).body.page).toBe('test-plugin dashboard');
  });

  it('refuses a clerk holding only a carrier permission every core area, and links none of them', async () => {
    const order = await insertOrder(shop.dataSource);
    const product = await shop.dataSource.getRepository(Product).findOneByOrFail({ sku: 'DEMO-TENT-2P' });
    const clerk = await staff('carrier-clerk@example.com', ['accessPlugin-carrier-a']);

    const coupon = await clerk.post('/admin/coupons', HUNDRED_PERCENT);
    expect(coupon.status).toBe(403);
    expect(coupon.body.error).toEqual({
      code: 'forbidden',
      message: 'You need the accessMarketing permission to open this page.',
    });
    // A browser's form gets the same refusal as a flash.
    const form = await clerk.submitForm('/admin/coupons', HUNDRED_PERCENT);
    expect(form.status).toBe(303);
    expect(await shop.dataSource.getRepository(Coupon).countBy({ code: 'EVERYTHING-FREE' })).toBe(0);

    const pages: Array<[string, string]> = [
      ['/admin/orders', 'accessOrders'],
      [`/admin/orders/${order.id}`, 'accessOrders'],
      [`/admin/orders/${order.id}/invoice`, 'accessOrders'],
      ['/admin/returns', 'accessOrders'],
      ['/admin/returns/1', 'accessOrders'],
      ['/admin/withdrawals', 'accessOrders'],
      ['/admin/withdrawals/1', 'accessOrders'],
      ['/admin/products', 'accessProducts'],
      [`/admin/products/${product.id}`, 'accessProducts'],
      ['/admin/customers', 'accessCustomers'],
      ['/admin/customers/1', 'accessCustomers'],
      ['/admin/jobs', 'accessJobs'],
      ['/admin/shipping', 'accessShipping'],
      ['/admin/shipping/methods/new', 'accessShipping'],
      ['/admin/coupons', 'accessMarketing'],
      ['/admin/coupons/new', 'accessMarketing'],
      ['/admin/gift-cards', 'accessMarketing'],
      ['/admin/marketing/abandoned-carts', 'accessMarketing'],
      ['/admin/flows', 'accessFlows'],
      ['/admin/content-pages', 'accessContent'],
      ['/admin/content-pages/terms/en', 'accessContent'],
      ['/admin/reports/oss', 'accessReports'],
      ['/admin/reports/oss.csv', 'accessReports'],
      ['/admin/store', 'accessSettings'],
      ['/admin/store/demo', 'accessSettings'],
      // Express matches paths whatever their case; the guard goes by the route, not the spelling.
      ['/ADMIN/Orders', 'accessOrders'],
    ];
    for (const [page, permission] of pages) {
      const res = await clerk.get(page);
      expect({ page, status: res.status, message: res.body.error?.message }).toEqual({
        page,
        status: 403,
        message: `You need the ${permission} permission to open this page.`,
      });
    }
    const posts: Array<[string, object]> = [
      [`/admin/core/payment-transactions/check-payment-status/${order.id}`, {}],
      [`/admin/orders/${order.id}/status`, { status: 'canceled' }],
      [`/admin/orders/${order.id}/refunds`, { full: true, reason: 'Not allowed', reference: 'X' }],
      [`/admin/orders/${order.id}/shipments`, { carrierName: 'Post', trackingNumber: 'RR1' }],
      [`/admin/orders/${order.id}/edit/contact`, { email: 'clerk@example.com' }],
      [`/admin/orders/${order.id}/edit/note`, { text: 'hello', visibility: 'customer' }],
      ['/admin/returns/1/approve', {}],
      ['/admin/returns/1/refund', { reason: 'Not allowed' }],
      ['/admin/withdrawals/1/return', {}],
      [`/admin/products/${product.id}`, { price: '0.01' }],
      ['/admin/customers/1/block', {}],
      ['/admin/jobs/1/retry', {}],
      ['/admin/shipping/methods', { name: 'Free for all' }],
      ['/admin/content-pages/terms/en', { title: 'Anything goes', body: 'x', version: 1 }],
      ['/admin/store', { name: 'Not yours' }],
      ['/admin/store/demo', {}],
    ];
    for (const [path, body] of posts) {
      const res = await clerk.post(path, body);
      expect({ path, status: res.status }).toEqual({ path, status: 403 });
    }

    // The dashboard is open to all staff, but shows neither order nor job figures to this clerk.
    const dashboard = await clerk.get('/admin').set('Accept', 'text/html').expect(200);
    expect(dashboard.text).not.toContain('/admin/orders');
    expect(dashboard.text).not.toContain('/admin/jobs');
    expect(await cpNavLabels(clerk)).toEqual(['Carrier A']);
    await clerk.get('/admin/carrier-a/dashboard').expect(200);
  });

  it('lets a clerk with accessMarketing create a coupon, and nothing outside marketing', async () => {
    const marketer = await staff('marketer@example.com', ['accessMarketing']);
    const created = await marketer.submitForm('/admin/coupons', { ...HUNDRED_PERCENT, code: 'marketing-made' });
    expect(created.status).toBe(303);
    expect(created.headers.location).toBe('/admin/coupons');
    expect(await shop.dataSource.getRepository(Coupon).findOneByOrFail({ code: 'MARKETING-MADE' })).toMatchObject({
      type: 'percent',
      value: 100,
    });
    await marketer.get('/admin/coupons').expect(200);
    await marketer.get('/admin/orders').expect(403);
    expect(await cpNavLabels(marketer)).toEqual(['Coupons', 'Abandoned carts', 'Gift cards']);
  });

  it('lets an admin open every area', async () => {
    const order = await insertOrder(shop.dataSource);
    const product = await shop.dataSource.getRepository(Product).findOneByOrFail({ sku: 'DEMO-TENT-2P' });
    const admin = new ShopClient(shop.server);
    await admin.loginCp();
    for (const page of [
      '/admin',
      '/admin/orders',
      `/admin/orders/${order.id}`,
      '/admin/returns',
      '/admin/withdrawals',
      '/admin/products',
      `/admin/products/${product.id}`,
      '/admin/customers',
      '/admin/jobs',
      '/admin/shipping',
      '/admin/shipping/methods/new',
      '/admin/coupons',
      '/admin/coupons/new',
      '/admin/gift-cards',
      '/admin/marketing/abandoned-carts',
      '/admin/flows',
      '/admin/content-pages',
      '/admin/content-pages/privacy/sk',
      '/admin/reports/oss',
      '/admin/store',
      '/admin/store/demo',
      '/admin/bankpay/dashboard',
      '/admin/carrier-a/dashboard',
      '/admin/carrier-b/dashboard',
      '/admin/test-plugin/dashboard',
    ]) {
      const res = await admin.get(page).set('Accept', 'text/html');
      expect({ page, status: res.status }).toEqual({ page, status: 200 });
    }
    const created = await admin.submitForm('/admin/coupons', { ...HUNDRED_PERCENT, code: 'admin-made' });
    expect(created.headers.location).toBe('/admin/coupons');
    expect(await shop.dataSource.getRepository(Coupon).countBy({ code: 'ADMIN-MADE' })).toBe(1);
  });

  it('grants known permissions from the command line and refuses unknown ones', async () => {
    const granted = await runCli(
      shop.place,
      'cp:create-user',
      'cli-clerk@example.com',
      '--password',
      'cli-clerk-password',
      '--permission',
      'accessOrders',
      '--permission',
      'accessPlugin-bankpay',
    );
    expect(granted.json).toMatchObject({ ok: true, permissions: ['accessOrders', 'accessPlugin-bankpay'] });
    const audited = await shop.dataSource
      .getRepository(AuditEntry)
      .findOneByOrFail({ area: 'staff', subject: 'cli-clerk@example.com' });
    expect(audited).toMatchObject({
      actor: 'cli',
      action: 'created',
      changes: {
        name: { from: null, to: '' },
        admin: { from: null, to: false },
        permissions: { from: null, to: ['accessOrders', 'accessPlugin-bankpay'] },
        enabled: { from: null, to: true },
      },
    });
    const clerk = new ShopClient(shop.server);
    await clerk.loginCp('cli-clerk@example.com', 'cli-clerk-password');
    await clerk.get('/admin/orders').expect(200);
    await clerk.get('/admin/bankpay/dashboard').expect(200);
    await clerk.get('/admin/products').expect(403);

    const refused = await runCli(
      shop.place,
      'cp:create-user',
      'typo@example.com',
      '--password',
      'typo-password-1',
      '--permission',
      'accessOrder',
      '--permission',
      'accessPlugin-nonesuch',
    );
    expect(refused.code).toBe(1);
    expect(refused.json).toMatchObject({
      ok: false,
      error: {
        code: 'validation_failed',
        message: expect.stringMatching(
          /^Unknown CP permission accessOrder, accessPlugin-nonesuch\. Known permissions: accessOrders, /,
        ),
      },
    });
    expect(await shop.dataSource.getRepository(CpUser).countBy({ email: 'typo@example.com' })).toBe(0);
  });
  describe('a CP login follows its user, not what the session saw at login', () => {
    const users = () => shop.dataSource.getRepository(CpUser);

    /** A logged-out CP session: pages send it to the login, scripts get 401 `login_required`. */
    async function expectLoggedOut(client: ShopClient, page: string) {
      const res = await client.get(page).set('Accept', 'text/html').expect(302);
      expect(res.headers.location).toBe(`/admin/login?next=${encodeURIComponent(page)}`);
      const json = await client.post('/admin/jobs/1/retry');
      expect({ status: json.status, error: json.body.error }).toEqual({
        status: 401,
        error: { code: 'login_required', message: 'Log in to the control panel first.' },
      });
    }

    it('logs out a session opened with the old password once setup sets a new one', async () => {
      await shop.app
        .get(CpUsersService)
        .create({ email: 'owner@example.com', password: 'demo-owner-pass', name: 'Owner', admin: true });
      const before = new ShopClient(shop.server);
      await before.loginCp('owner@example.com', 'demo-owner-pass');
      await before.get('/admin/orders').expect(200);

      const operator = { ...shop.place, env: { ...shop.place.env, CP_ADMIN_PASSWORD: 'live-owner-pass' } };
      const setup = await runCli(operator, 'setup', '--admin-email', 'owner@example.com');
      expect(setup.json).toMatchObject({ ok: true, admin: { email: 'owner@example.com', created: false } });
      // The new password is on record as set up, with no trace of it.
      const audited = await shop.dataSource
        .getRepository(AuditEntry)
        .findOneByOrFail({ area: 'staff', subject: 'owner@example.com', action: 'setup' });
      expect(audited).toMatchObject({ actor: 'cli', changes: {} });

      await expectLoggedOut(before, '/admin/orders');
      const after = new ShopClient(shop.server);
      await after.loginCp('owner@example.com', 'live-owner-pass');
      await after.get('/admin/orders').expect(200);
    });

    it('logs out a user disabled in the database at their next request, for good', async () => {
      const clerk = await staff('leaver@example.com', ['accessOrders', 'accessJobs']);
      await clerk.get('/admin/orders').expect(200);

      await users().update({ email: 'leaver@example.com' }, { enabled: false });
      await expectLoggedOut(clerk, '/admin/orders');
      // The guard ended the login: enabling the user again does not bring this session back.
      await users().update({ email: 'leaver@example.com' }, { enabled: true });
      await expectLoggedOut(clerk, '/admin');
    });

    it('checks and shows the permissions the database holds now, removed or granted', async () => {
      const clerk = await staff('mover@example.com', ['accessOrders', 'accessShipping']);
      await clerk.get('/admin/orders').expect(200);
      expect(await cpNavLabels(clerk)).toEqual(['Orders', 'Returns', 'Withdrawals', 'Shipping']);

      await users().update({ email: 'mover@example.com' }, { permissions: ['accessShipping', 'accessJobs'] });
      const refused = await clerk.get('/admin/orders').expect(403);
      expect(refused.body.error.message).toBe('You need the accessOrders permission to open this page.');
      await clerk.get('/admin/jobs').expect(200);
      await clerk.get('/admin/shipping').expect(200);
      expect(await cpNavLabels(clerk)).toEqual(['Jobs', 'Shipping']);

      // An admin made a clerk in the database loses the areas the clerk has no permission for.
      const admin = await staff('demoted@example.com', []);
      await users().update({ email: 'demoted@example.com' }, { admin: true });
      await admin.get('/admin/products').expect(200);
      await users().update({ email: 'demoted@example.com' }, { admin: false });
      await admin.get('/admin/products').expect(403);
      expect(await cpNavLabels(admin)).toEqual([]);
    });
  });
});

describe('CP permissions under another CP trigger', () => {
  let shop: TestApp;
  beforeAll(async () => (shop = await startTestApp({ env: { CP_TRIGGER: 'backoffice' } })));
  afterAll(() => shop.close());

  async function login(email: string, password: string): Promise<ShopClient> {
    const client = new ShopClient(shop.server);
    const res = await client.submitForm('/backoffice/login', { email, password });
    expect(res.headers.location).toBe('/backoffice');
    return client;
  }

  it('guards the areas and throttles the login wherever the CP is mounted', async () => {
    await shop.app
      .get(CpUsersService)
      .create({ email: 'clerk@example.com', password: 'clerk-password-1', permissions: ['accessPlugin-carrier-b'] });
    const clerk = await login('clerk@example.com', 'clerk-password-1');
    await clerk.get('/backoffice/orders').expect(403);
    await clerk.get('/backoffice/carrier-b/dashboard').expect(200);
    const admin = await login('admin@example.com', TEST_CP_PASSWORD);
    await admin.get('/backoffice/orders').expect(200);

    const guesser = new ShopClient(shop.server);
    const answers: number[] = [];
    for (let i = 0; i <= LOGIN_FAILURE_LIMIT; i++) {
      answers.push((await guesser.post('/backoffice/login', { email: 'clerk@example.com', password: 'guess' })).status);
    }
    expect(answers).toEqual([...Array(LOGIN_FAILURE_LIMIT).fill(401), 429]);
  });
});
