import request from 'supertest';
import { SettingsService } from '../../src/config/settings.service';
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

  it('seeds once', async () => {
    const count = await b.dataSource.query('SELECT COUNT(*) AS n FROM stores');
    expect(Number(count[0].n)).toBe(1);
  });

  it('spreads a settings change to the other instance within seconds', async () => {
    await a.app.get(SettingsService).save({ salesGiftCardsEnabled: false });
    await eventually(() => b.app.get(SettingsService).get('salesGiftCardsEnabled') === false, 5000);
  });
});
