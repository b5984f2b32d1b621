import request from 'supertest';
import { SettingsService } from '../../src/config/settings.service';
import { productBySku } from '../support/catalog';
import { ADDRESS, addToCart, shippingValue } from '../support/checkout';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp } from '../support/test-app';

/** Carrier B's pickup-point method at checkout, priced by the `carrier-b.*` settings. */
describe('carrier B shipping method', () => {
  let shop: TestApp;
  let settings: SettingsService;
  let value: string;
  let headlampPrice: number;
  beforeAll(async () => {
    shop = await startTestApp();
    settings = shop.app.get(SettingsService);
    value = await shippingValue(shop.dataSource, 'pickup-point', 'carrier-b');
    headlampPrice = (await productBySku(shop.dataSource, 'DEMO-HEADLAMP')).price;
  });
  afterAll(() => shop.close());

  async function configure(overrides: Record<string, unknown> = {}): Promise<void> {
    await settings.save({
      'carrier-b.countries': 'sk,cz',
      'carrier-b.defaultPrice': 390,
      'carrier-b.defaultFreeShippingThreshold': 0,
      'carrier-b.defaultCurrency': 'EUR',
      'carrier-b.countryPricesEnabled': true,
      'carrier-b.countryPrices': { sk: 290, cz: 350 },
      'carrier-b.countryFreeShippingThresholds': {},
      ...overrides,
    });
  }

  /** The carrier B entry offered to `client` (a fresh guest by default) for `country`, if any. */
  async function offer(country: string, client?: ShopClient) {
    const path = `/shop/checkout/get-shipping-methods?code=${country}`;
    const res = client ? await client.get(path).expect(200) : await request(shop.server).get(path).expect(200);
    return res.body.shipping_methods.find((method: { type: string }) => method.type === 'carrier-b');
  }

  async function shopperWithHeadlamp(): Promise<ShopClient> {
    const client = new ShopClient(shop.server);
    await addToCart(client, (await productBySku(shop.dataSource, 'DEMO-HEADLAMP')).id, 1);
    return client;
  }

  it('is offered as a pickup-point method of the demo shop, at the country price', async () => {
    await configure();
    expect(await offer('SK')).toMatchObject({
      type: 'carrier-b',
      handle: 'pickup-point',
      value,
      price: 2.9,
      pickupPoints: true,
      name: 'Carrier B pickup point',
    });
    expect((await offer('cz')).price).toBe(3.5);
  });

  it("is offered only in the widget's countries, at the default price where no country price is set", async () => {
    await configure();
    expect(await offer('HU')).toBeUndefined();
    await configure({ 'carrier-b.countries': 'sk,cz,hu' });
    expect((await offer('HU')).price).toBe(3.9);
  });

  it('ignores the country prices while country-specific prices are off', async () => {
    await configure({ 'carrier-b.countryPricesEnabled': false });
    expect((await offer('SK')).price).toBe(3.9);
    expect((await offer('CZ')).price).toBe(3.9);
  });

  it('is free from the threshold on: the country one when set, else the default', async () => {
    await configure({
      'carrier-b.defaultFreeShippingThreshold': headlampPrice,
      'carrier-b.countryFreeShippingThresholds': { sk: headlampPrice + 1 },
    });
    const client = await shopperWithHeadlamp();
    expect((await offer('SK', client)).price).toBe(2.9);
    expect((await offer('CZ', client)).price).toBe(0);
    expect((await offer('CZ')).price).toBe(3.5);
    await configure({ 'carrier-b.countryFreeShippingThresholds': { sk: headlampPrice } });
    expect((await offer('SK', client)).price).toBe(0);
    await configure({ 'carrier-b.countryPricesEnabled': false, 'carrier-b.defaultFreeShippingThreshold': 0 });
    expect((await offer('SK', client)).price).toBe(3.9);
  });

  it('converts prices set in another currency into the base currency', async () => {
    await configure({
      'carrier-b.defaultCurrency': 'CZK',
      'carrier-b.countryPricesEnabled': false,
      'carrier-b.defaultPrice': 7500,
    });
    // 75 CZK at 25.3 CZK/EUR.
    expect((await offer('SK')).price).toBe(2.96);
  });

  it('can be chosen at checkout', async () => {
    await configure();
    const client = await shopperWithHeadlamp();
    expect(
      (await client.post('/shop/checkout/save', { email: 'ada@example.com', billingAddress: ADDRESS })).status,
    ).toBe(200);
    const without = await client.post('/shop/checkout/save-shipping-method', { shippingMethod: value });
    expect(without.status).toBe(400);
    expect(without.body.error.fields).toEqual({ pickupPoint: ['is required'] });
    const pickupPoint = {
      id: '101',
      name: 'Sandbox point Hlavná',
      street: 'Hlavná 1',
      city: 'Bratislava',
      zip: '81101',
    };
    const res = await client.post('/shop/checkout/save-shipping-method', { shippingMethod: value, pickupPoint });
    expect(res.status).toBe(200);
    expect(res.body.cart.shipping).toBe(2.9);
  });
});
