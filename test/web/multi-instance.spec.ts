import request from 'supertest';
import { SettingsService } from '../../src/config/settings.service';
import { CartLine } from '../../src/commerce/carts/cart-line.entity';
import { CpUsersService } from '../../src/commerce/staff/cp-users.service';
import { productBySku } from '../support/catalog';
import { ShopClient } from '../support/shop-client';
import {
  createTestPlace,
  eventually,
  startTestApp,
  TestApp,
  TestPlace,
  usingMysql,
  usingRedis,
} from '../support/test-app';

/** Two app instances on one database (+ Redis): what one writes, the other sees. */
describe(`two instances on one ${usingMysql ? 'MariaDB' : 'SQLite file'}${usingRedis ? ' + Redis' : ''}`, () => {
  let place: TestPlace;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    place = await createTestPlace();
    a = await startTestApp({ place });
    b = await startTestApp({ place });
  });
  afterAll(async () => {
    await a.app.close();
    await b.app.close();
    await place.dispose();
  });

  it('shares a session: log in on A, use the session on B', async () => {
    const onA = new ShopClient(a.server);
    const login = await onA.loginCp();
    const cookie = String(login.headers['set-cookie']).split(';')[0];
    const page = await request(b.server)
      .get('/admin/orders')
      .set('Cookie', cookie)
      .set('Accept', 'text/html')
      .expect(200);
    expect(page.text).toContain('Orders');
  });

  it('starts two instances together on a fresh install: one store, and one first admin however they race', async () => {
    const fresh = await createTestPlace();
    const env = { SANDBOXES: 'off', CP_ADMIN_PASSWORD: '' };
    const both = await Promise.all([0, 1].map(() => startTestApp({ place: fresh, env, demoShop: false })));
    try {
      const count = async (table: string) =>
        Number((await both[0].dataSource.query(`SELECT COUNT(*) AS n FROM ${table}`))[0].n);
      expect(await count('stores')).toBe(1);
      // Both instances make the first admin at the same moment, as two replicas starting with CP_ADMIN_PASSWORD do.
      const made = await Promise.all(
        both.map((instance) =>
          instance.app.get(CpUsersService).createFirstAdmin('boss@example.com', 'boss-password-1'),
        ),
      );
      expect(made.filter(Boolean)).toHaveLength(1);
      expect(await count('cp_users')).toBe(1);
      for (const instance of both) await new ShopClient(instance.server).loginCp('boss@example.com', 'boss-password-1');
    } finally {
      for (const instance of both) await instance.app.close();
      await fresh.dispose();
    }
  });

  it('takes the requests of one session in turns across instances: 20 first adds over both make one cart line', async () => {
    const session = await request(a.server).get('/shop/customer/csrf-token').expect(200);
    const cookie = String(session.headers['set-cookie']).split(';')[0];
    const token = session.body.csrfToken as string;
    const product = (await productBySku(a.dataSource, 'DEMO-MATCHES-STORM')).id;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        request(i % 2 ? b.server : a.server)
          .post('/shop/cart/add')
          .set('Cookie', cookie)
          .set('X-CSRF-Token', token)
          .set('X-Requested-With', 'XMLHttpRequest')
          .send({ product, qty: 1 }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    const lines = await a.dataSource.getRepository(CartLine).findBy({ productId: product });
    expect(lines.map((line) => line.qty)).toEqual([20]);
  });

  it('seeds once', async () => {
    const count = await b.dataSource.query('SELECT COUNT(*) AS n FROM stores');
    expect(Number(count[0].n)).toBe(1);
  });

  it('spreads a settings change to the other instance within seconds', async () => {
    await a.app.get(SettingsService).save({ salesGiftCardsEnabled: false });
    await eventually(() => b.app.get(SettingsService).get('salesGiftCardsEnabled') === false, 5000);
  });
});
