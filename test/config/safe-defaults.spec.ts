import request from 'supertest';
import { Product } from '../../src/commerce/products/product.entity';
import { Currency } from '../../src/commerce/stores/currency.entity';
import { Store } from '../../src/commerce/stores/store.entity';
import { hashPassword, usePasswordCost, verifyPassword } from '../../src/common/password';
import { loadConfig } from '../../src/config/app-config';
import { LoosenedSwitches } from '../../src/config/loosened-switches';
import { SettingRow } from '../../src/config/setting.entity';
import { SettingsService } from '../../src/config/settings.service';
import { CpUser } from '../../src/commerce/staff/cp-user.entity';
import { ShopClient } from '../support/shop-client';
import { createTestPlace, startTestApp, TestApp, usingMysql } from '../support/test-app';

const base = { DATABASE_URL: 'sqlite::memory:', SESSION_SECRET: 'x'.repeat(32) };

/** Whatever loosens security is off unless it is switched on explicitly. */
describe(`safe defaults (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  describe('the environment', () => {
    it.each([undefined, 'development', 'prod', 'staging', 'Production', 'test'])(
      'leaves sandboxes, the demo seed and the API docs off with NODE_ENV=%s',
      (nodeEnv) => {
        expect(loadConfig({ ...base, NODE_ENV: nodeEnv })).toMatchObject({
          sandboxes: false,
          demoSeed: false,
          apiDocs: false,
          licensePublicKey: null,
          licenseServerUrl: null,
        });
      },
    );

    it('refuses to start production with a sandbox or the demo seed, in one line naming the variable', () => {
      const production = { ...base, NODE_ENV: 'production' };
      expect(() => loadConfig({ ...production, SANDBOXES: 'on' })).toThrow(
        /^Invalid environment variable SANDBOXES: must be off when NODE_ENV=production$/,
      );
      expect(() => loadConfig({ ...production, SANDBOXES: 'on', DEMO_SEED: 'on' })).toThrow(/SANDBOXES/);
      expect(() => loadConfig({ ...production, DEMO_SEED: 'true' })).toThrow(
        /^Invalid environment variable DEMO_SEED: must be off when NODE_ENV=production$/,
      );
    });

    it('hashes passwords at full cost everywhere but in the test suite', async () => {
      expect(loadConfig(base).fastPasswordHashes).toBe(false);
      for (const nodeEnv of [undefined, 'development', 'production', 'staging']) {
        expect(() => loadConfig({ ...base, NODE_ENV: nodeEnv, FAST_PASSWORD_HASHES: 'on' })).toThrow(
          /^Invalid environment variable FAST_PASSWORD_HASHES: is for the test suite \(NODE_ENV=test\) only$/,
        );
      }
      expect(loadConfig({ ...base, NODE_ENV: 'test', FAST_PASSWORD_HASHES: 'on' }).fastPasswordHashes).toBe(true);
      usePasswordCost(false);
      expect(await hashPassword('secret')).toMatch(/^scrypt\$16384\$8\$5\$/);
      usePasswordCost(true);
      const fast = await hashPassword('secret');
      expect(fast).toMatch(/^scrypt\$1024\$8\$1\$/);
      // Whatever the cost of new hashes, each verifies with its own.
      usePasswordCost(false);
      expect(await verifyPassword('secret', fast)).toBe(true);
      usePasswordCost(true);
    });

    it('never seeds the demo without its sandboxes', () => {
      expect(() => loadConfig({ ...base, DEMO_SEED: 'on' })).toThrow(
        'Invalid environment variable DEMO_SEED: needs SANDBOXES=on',
      );
      expect(loadConfig({ ...base, DEMO_SEED: 'on', SANDBOXES: 'on' })).toMatchObject({ demoSeed: true });
    });

    it('trusts X-Forwarded-For from loopback only, unless TRUST_PROXY names other proxies', () => {
      expect(loadConfig(base).trustProxy).toEqual(['loopback']);
      expect(loadConfig({ ...base, TRUST_PROXY: 'uniquelocal, 10.0.0.5, 172.16.0.0/12' }).trustProxy).toEqual([
        'uniquelocal',
        '10.0.0.5',
        '172.16.0.0/12',
      ]);
      expect(loadConfig({ ...base, TRUST_PROXY: '2' }).trustProxy).toBe(2);
      for (const wrong of ['everyone', '10.0.0.300', '10.0.0.0/8/1', 'true']) {
        expect(() => loadConfig({ ...base, TRUST_PROXY: wrong })).toThrow(/^Invalid environment variable TRUST_PROXY/);
      }
    });

    it('reads the default store of a fresh install from SHOP_*, refusing what cannot be a store', () => {
      expect(loadConfig(base).defaultStore).toEqual({
        name: 'My shop',
        baseCurrency: 'EUR',
        country: 'SK',
        language: 'en',
      });
      expect(
        loadConfig({ ...base, SHOP_NAME: ' Kávička ', SHOP_CURRENCY: 'czk', SHOP_COUNTRY: 'cz', SHOP_LANGUAGE: 'SK' })
          .defaultStore,
      ).toEqual({ name: 'Kávička', baseCurrency: 'CZK', country: 'CZ', language: 'sk' });
      expect(() => loadConfig({ ...base, SHOP_CURRENCY: 'EURO' })).toThrow(
        'Invalid environment variable SHOP_CURRENCY: must be an ISO 4217 currency code such as EUR',
      );
      expect(() => loadConfig({ ...base, SHOP_CURRENCY: 'ABC' })).toThrow('SHOP_CURRENCY');
      expect(() => loadConfig({ ...base, SHOP_COUNTRY: 'Slovakia' })).toThrow('SHOP_COUNTRY');
      expect(() => loadConfig({ ...base, CP_ADMIN_PASSWORD: 'short' })).toThrow(
        'Invalid environment variable CP_ADMIN_PASSWORD: must be at least 10 characters',
      );
    });
  });

  describe('a fresh install without the demo', () => {
    let shop: TestApp;
    beforeAll(async () => {
      shop = await startTestApp({
        env: { SANDBOXES: 'off', SHOP_NAME: 'Kávička', SHOP_CURRENCY: 'HUF' },
        demoShop: false,
      });
    });
    afterAll(() => shop.close());

    it('mounts no sandbox: nobody can plant an OAuth user for a victim e-mail', async () => {
      const planted = await request(shop.server)
        .post('/_sandbox/oauth/_control/users')
        .send({ provider: 'google', email: 'victim@example.com', emailVerified: true });
      expect(planted.status).toBe(404);
      await request(shop.server).get('/_sandbox/bankpay/cardpay').expect(404);
      await request(shop.server).get('/_sandbox/vies/check-vat-number').expect(404);
    });

    it('serves no API document', async () => {
      await request(shop.server).get('/api-docs').expect(404);
      await request(shop.server).get('/api-docs-json').expect(404);
    });

    it('has its default store and base currency, the first admin from CP_ADMIN_PASSWORD, and no demo', async () => {
      expect(await shop.dataSource.getRepository(Store).find()).toEqual([
        expect.objectContaining({ handle: 'default', name: 'Kávička', baseCurrency: 'HUF', isDefault: true }),
      ]);
      expect(await shop.dataSource.getRepository(Currency).find()).toEqual([
        expect.objectContaining({ code: 'HUF', decimals: 0, rate: 1 }),
      ]);
      expect(await shop.dataSource.getRepository(Product).count()).toBe(0);
      expect(await shop.dataSource.getRepository(CpUser).find()).toEqual([
        expect.objectContaining({ email: 'admin@example.com', admin: true }),
      ]);
      const catalog = await request(shop.server)
        .get('/shop/catalog/products')
        .set('Accept', 'application/json')
        .expect(200);
      expect(catalog.body).toMatchObject({ success: true, products: [], total: 0 });
    });

    it('keeps the gateway out of its sandbox mode and names no loosened switch', async () => {
      expect(shop.app.get(SettingsService).isOn('bankpay.sandbox')).toBe(false);
      expect(shop.app.get(LoosenedSwitches).current()).toEqual([]);
      const staff = new ShopClient(shop.server);
      await staff.loginCp();
      const page = await staff.get('/admin').set('Accept', 'text/html').expect(200);
      expect(page.text).not.toContain('cp-security-warning');
    });

    it('warns on every CP page while the gateway sandbox mode is on', async () => {
      const settings = shop.app.get(SettingsService);
      await settings.save({ 'bankpay.sandbox': true });
      try {
        expect(shop.app.get(LoosenedSwitches).current()).toEqual([
          { name: 'bankpay.sandbox', effect: expect.stringContaining('counts as paid') },
        ]);
        const staff = new ShopClient(shop.server);
        await staff.loginCp();
        for (const page of ['/admin', '/admin/orders', '/admin/bankpay/settings/general']) {
          const html = (await staff.get(page).set('Accept', 'text/html').expect(200)).text;
          expect(html).toContain('cp-security-warning');
          expect(html).toContain('<code>bankpay.sandbox</code>');
        }
      } finally {
        await settings.save({ 'bankpay.sandbox': false });
      }
    });
  });

  it('refuses a switch that loosens security in production, and reads one stored on as off', async () => {
    const live = await startTestApp({
      env: { NODE_ENV: 'production', SANDBOXES: 'off', LOG_LEVEL: 'silent' },
      demoShop: false,
    });
    try {
      const settings = live.app.get(SettingsService);
      await expect(settings.save({ 'bankpay.sandbox': true })).rejects.toThrow(
        'bankpay.sandbox cannot be switched on when NODE_ENV=production',
      );
      await settings.save({ 'bankpay.sandbox': false });
      // As a database brought over from a test shop would have it.
      await live.dataSource.getRepository(SettingRow).update({ key: 'bankpay.sandbox' }, { value: 'true' });
      await settings.reload();
      expect(settings.isOn('bankpay.sandbox')).toBe(false);
      expect(live.app.get(LoosenedSwitches).current()).toEqual([]);
    } finally {
      await live.close();
    }
  });

  it('names SANDBOXES and DEMO_SEED while the demo runs, on start-up and on every CP page', async () => {
    const demo = await startTestApp();
    try {
      expect(
        demo.app
          .get(LoosenedSwitches)
          .current()
          .map((on) => on.name),
      ).toEqual(['SANDBOXES', 'DEMO_SEED']);
      const staff = new ShopClient(demo.server);
      await staff.loginCp();
      const html = (await staff.get('/admin/orders').set('Accept', 'text/html').expect(200)).text;
      expect(html).toContain('<code>SANDBOXES</code>');
      expect(html).toContain('<code>DEMO_SEED</code>');
    } finally {
      await demo.close();
    }
  });

  it('counts a client that is no trusted proxy by its own address, whatever X-Forwarded-For it sends', async () => {
    const shop = await startTestApp({ env: { TRUST_PROXY: '10.0.0.9' } });
    try {
      const login = async (i: number) => {
        const client = new ShopClient(shop.server);
        const token = await client.csrfToken();
        return client.agent
          .post('/admin/login')
          .set('X-CSRF-Token', token)
          .set('X-Forwarded-For', `198.51.100.${i}`)
          .send({ email: `nobody${i}@example.com`, password: 'wrong password' });
      };
      const answers: number[] = [];
      for (let i = 1; i <= 6; i++) answers.push((await login(i)).status);
      expect(answers).toEqual([401, 401, 401, 401, 401, 429]);
    } finally {
      await shop.close();
    }
  });

  it('opens the CP with the demo password only while DEMO_SEED is on, even where it is stored', async () => {
    const place = await createTestPlace();
    try {
      // The demo as `npm start` makes it: the admin gets the demo password.
      const demo = await startTestApp({ place, env: { CP_ADMIN_PASSWORD: '' } });
      await new ShopClient(demo.server).loginCp('admin@example.com', 'demo-admin-pass');
      await demo.close();

      // The same database started without the demo, as a shop that began as the demo and went live.
      const live = await startTestApp({ place, env: { SANDBOXES: 'off' }, demoShop: false });
      try {
        const refused = await new ShopClient(live.server).submitForm('/admin/login', {
          email: 'admin@example.com',
          password: 'demo-admin-pass',
        });
        expect(refused.status).toBe(303);
        expect(refused.headers.location).toMatch(/^\/admin\/login/);
      } finally {
        await live.close();
      }
    } finally {
      await place.dispose();
    }
  });

  it('stores no published CardPay key: the demo key is made from the install secret', async () => {
    const [one, two] = [await startTestApp(), await startTestApp()];
    try {
      const key = (shop: TestApp) => shop.app.get(SettingsService).get('bankpay.secretKey');
      expect(key(one)).toMatch(/^[0-9a-f]{128}$/);
      expect(key(two)).toMatch(/^[0-9a-f]{128}$/);
      expect(key(one)).not.toBe(key(two));
      expect(key(one)).not.toBe('0123456789abcdef'.repeat(8));
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });
});
