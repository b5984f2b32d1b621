import request from 'supertest';
import { ShippingMethod } from '../../src/commerce/shipping/shipping-method.entity';
import { ShippingMethodRegistry } from '../../src/commerce/shipping/shipping-method.registry';
import { SettingsService } from '../../src/config/settings.service';
import { productBySku } from '../support/catalog';
import { addToCart } from '../support/checkout';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp, usingMysql } from '../support/test-app';

const CONTROL = '/_sandbox/carrier-a/_control';
const PICKUP_POINTS = '/index.php?p=carrier-a/api/pickup-points';

/** Carrier A at checkout: its shipping methods, and the anonymous pickup-point lookup with its cache. */
describe(`carrier A at checkout (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let settings: SettingsService;
  beforeAll(async () => {
    shop = await startTestApp({ listen: true });
    settings = shop.app.get(SettingsService);
    // The demo settings turn pickup points on; this file starts from the plugin's default.
    await settings.save({ 'carrier-a.pickupPointsEnabled': false });
  });
  afterAll(() => shop.close());
  afterEach(() => request(shop.server).post(`${CONTROL}/reset`).expect(200));

  const lookups = async () =>
    (await request(shop.server).get(`${CONTROL}/stats`).expect(200)).body.requests['GET /v1/parcelshops'] ?? 0;

  it('answers pickup points in the shape the widget reads, for the shop country when the widget sends the plugin handle', async () => {
    const answer = await request(shop.server).get(`${PICKUP_POINTS}&country=carrier-a&zipCode=811%2001`).expect(200);
    expect(answer.body.success).toBe(true);
    expect(answer.body.points.length).toBeGreaterThan(0);
    const [point] = answer.body.points;
    expect(point).toEqual({
      id: point.raw.id,
      name: point.raw.company,
      street: `${point.raw.street} ${point.raw.houseNumber}`,
      city: point.raw.city,
      zipCode: '81101',
      country: 'SK',
      latitude: point.raw.latitude,
      longitude: point.raw.longitude,
      openingHours: expect.stringMatching(/^Monday 08:00–12:00, 13:00–18:00; Tuesday /),
      type: 'PARCELSHOP',
      raw: expect.objectContaining({ countryCode: 'SK', postcode: '81101', hours: expect.any(Array) }),
    });
    const czech = await request(shop.server).get(`${PICKUP_POINTS}&country=cz&zipCode=11000`).expect(200);
    expect(czech.body.points[0].country).toBe('CZ');
  });

  it('caches the points per country and ZIP, so a second call does not reach the carrier', async () => {
    await request(shop.server).get(`${PICKUP_POINTS}&country=SK&zipCode=01001`).expect(200);
    expect(await lookups()).toBe(1);
    const again = await request(shop.server).get(`${PICKUP_POINTS}&country=SK&zipCode=01001`).expect(200);
    expect(again.body.success).toBe(true);
    expect(await lookups()).toBe(1);
    await request(shop.server).get(`${PICKUP_POINTS}&country=SK&zipCode=01002`).expect(200);
    expect(await lookups()).toBe(2);
  });

  it('answers an empty failure, never the error, when the carrier fails; failures are not cached', async () => {
    await request(shop.server).post(`${CONTROL}/mode`).send({ mode: 'error' }).expect(200);
    const failed = await request(shop.server).get(`${PICKUP_POINTS}&country=SK&zipCode=04001`).expect(200);
    expect(failed.body).toEqual({ success: false, points: [] });
    await request(shop.server).post(`${CONTROL}/mode`).send({ mode: 'garbage' }).expect(200);
    expect((await request(shop.server).get(`${PICKUP_POINTS}&country=SK&zipCode=04001`)).body).toEqual({
      success: false,
      points: [],
    });
    await request(shop.server).post(`${CONTROL}/mode`).send({ mode: 'normal' }).expect(200);
    const recovered = await request(shop.server).get(`${PICKUP_POINTS}&country=SK&zipCode=04001`).expect(200);
    expect(recovered.body.success).toBe(true);
  });

  it('leaves other index.php routes alone', async () => {
    await request(shop.server).get('/index.php?p=carrier-a/api/unknown').expect(404);
    await request(shop.server).get('/index.php').expect(404);
  });

  it('offers home delivery, and ParcelShop with pickupPoints only while pickup points are enabled', async () => {
    const rows = shop.dataSource.getRepository(ShippingMethod);
    await rows.update({ type: 'carrier-a' }, { enabled: true });
    shop.app.get(ShippingMethodRegistry).forgetMethods();
    const client = new ShopClient(shop.server);
    await addToCart(client, (await productBySku(shop.dataSource, 'DEMO-HEADLAMP')).id, 1);
    const offered = async (country: string) =>
      (await client.get(`/shop/checkout/get-shipping-methods?code=${country}`).expect(200)).body
        .shipping_methods as Array<Record<string, unknown>>;
    const classic = await rows.findOneByOrFail({ type: 'carrier-a', handle: 'classic' });
    const parcelShop = await rows.findOneByOrFail({ type: 'carrier-a', handle: 'parcelshop' });

    const off = await offered('SK');
    expect(off).toContainEqual({
      id: classic.id,
      name: 'Carrier A courier',
      price: 3.9,
      type: 'carrier-a',
      handle: 'classic',
      value: `carrier-a:classic:${classic.id}`,
      description: classic.description,
      pickupPoints: false,
    });
    expect(off.map((method) => method.handle)).not.toContain('parcelshop');

    await settings.save({ 'carrier-a.pickupPointsEnabled': true });
    expect(await offered('SK')).toContainEqual(
      expect.objectContaining({
        handle: 'parcelshop',
        value: `carrier-a:parcelshop:${parcelShop.id}`,
        pickupPoints: true,
      }),
    );
    expect((await offered('US')).map((method) => method.type)).not.toContain('carrier-a');
  });
});
