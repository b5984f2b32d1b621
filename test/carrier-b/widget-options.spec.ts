import request from 'supertest';
import { SettingsService } from '../../src/config/settings.service';
import { startTestApp, TestApp } from '../support/test-app';

/** Spec "Widget options (carrier B)" through `index.php?p=carrier-b/api/options`, and the `p` dispatcher. */
describe('carrier B widget options', () => {
  let shop: TestApp;
  let settings: SettingsService;
  beforeAll(async () => {
    shop = await startTestApp({ env: { BASE_URL: 'https://shop.example.com' } });
    settings = shop.app.get(SettingsService);
  });
  afterAll(() => shop.close());

  /** The plugin's own defaults, whatever the demo seed chose, plus the overrides of one case. */
  async function configure(overrides: Record<string, unknown> = {}): Promise<void> {
    await settings.save({
      'carrier-b.countries': 'sk,cz',
      'carrier-b.language': 'en',
      'carrier-b.defaultPrice': 0,
      'carrier-b.defaultFreeShippingThreshold': 0,
      'carrier-b.defaultCurrency': 'EUR',
      'carrier-b.countryPricesEnabled': false,
      'carrier-b.countryPrices': {},
      'carrier-b.countryFreeShippingThresholds': {},
      'carrier-b.dropOffWeight': 0,
      'carrier-b.claimAssistantOnly': false,
      'carrier-b.packetConsignmentOnly': false,
      ...overrides,
    });
  }

  const options = async () =>
    (await request(shop.server).get('/index.php').query({ p: 'carrier-b/api/options' }).expect(200)).body;

  const ALWAYS = {
    webUrl: 'https://shop.example.com',
    appIdentity: 'storefront-service-2.0.0',
    country: 'sk,cz',
    language: 'en',
    valueFormat: 'id,carrierId,carrierPickupPointId,name,city,street',
    defaultPrice: 0,
    defaultFreeShippingThreshold: 0,
    defaultCurrency: 'EUR',
  };

  it('answers anonymously with only the always-present fields by default', async () => {
    await configure();
    const res = await request(shop.server).get('/index.php?p=carrier-b/api/options').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual(ALWAYS);
  });

  it('shows prices in major units of the default currency and normalises the country list', async () => {
    await configure({
      'carrier-b.countries': 'sk, cz ,hu',
      'carrier-b.language': 'sk',
      'carrier-b.defaultPrice': 349,
      'carrier-b.defaultFreeShippingThreshold': 5000,
      'carrier-b.defaultCurrency': 'HUF',
    });
    expect(await options()).toEqual({
      ...ALWAYS,
      country: 'sk,cz,hu',
      language: 'sk',
      defaultPrice: 349,
      defaultFreeShippingThreshold: 5000,
      defaultCurrency: 'HUF',
    });
    await configure({ 'carrier-b.defaultPrice': 349, 'carrier-b.defaultFreeShippingThreshold': 5000 });
    expect(await options()).toEqual({ ...ALWAYS, defaultPrice: 3.49, defaultFreeShippingThreshold: 50 });
  });

  it('adds the country price maps only while country-specific prices are on', async () => {
    const maps = {
      'carrier-b.countryPrices': { sk: 290, cz: 350 },
      'carrier-b.countryFreeShippingThresholds': { sk: 5000 },
    };
    await configure(maps);
    expect(await options()).toEqual(ALWAYS);
    await configure({ ...maps, 'carrier-b.countryPricesEnabled': true });
    expect(await options()).toEqual({
      ...ALWAYS,
      countryPrices: { sk: 2.9, cz: 3.5 },
      countryFreeShippingThresholds: { sk: 50 },
    });
    await configure({ 'carrier-b.countryPricesEnabled': true });
    expect(await options()).toEqual({ ...ALWAYS, countryPrices: {}, countryFreeShippingThresholds: {} });
  });

  it.each([
    ['the drop-off weight', { 'carrier-b.dropOffWeight': 5 }, { weight: 5 }],
    ['complaint points only', { 'carrier-b.claimAssistantOnly': true }, { claimAssistant: 'true' }],
    ['drop-off points only', { 'carrier-b.packetConsignmentOnly': true }, { packetConsignment: 'true' }],
  ])('adds its key for %s', async (_, overrides, added) => {
    await configure(overrides);
    expect(await options()).toEqual({ ...ALWAYS, ...added });
  });

  it('gives every optional key at once', async () => {
    await configure({
      'carrier-b.countryPricesEnabled': true,
      'carrier-b.countryPrices': { cz: 350 },
      'carrier-b.dropOffWeight': 10,
      'carrier-b.claimAssistantOnly': true,
      'carrier-b.packetConsignmentOnly': true,
    });
    expect(await options()).toEqual({
      ...ALWAYS,
      countryPrices: { cz: 3.5 },
      countryFreeShippingThresholds: {},
      weight: 10,
      claimAssistant: 'true',
      packetConsignment: 'true',
    });
  });

  it.each([
    ['a price map that is not an object', 'carrier-b.countryPrices', [290]],
    ['an uppercase country in a price map', 'carrier-b.countryPrices', { SK: 290 }],
    ['a negative threshold', 'carrier-b.countryFreeShippingThresholds', { sk: -1 }],
    ['a fractional price', 'carrier-b.countryPrices', { sk: 2.9 }],
    ['a country list that is not codes', 'carrier-b.countries', 'Slovakia'],
    ['a negative default price', 'carrier-b.defaultPrice', -5],
  ])('refuses %s as a setting', async (_, key, value) => {
    await expect(settings.save({ [key]: value })).rejects.toThrow(key);
  });

  describe('index.php dispatcher', () => {
    it.each([
      ['an unknown route', '?p=carrier-b/api/nothing'],
      ['no route', ''],
      ['an empty route', '?p='],
      ['a repeated unknown route', '?p=nope&p=carrier-b/api/options'],
    ])('answers %s with a JSON 404', async (_, query) => {
      const res = await request(shop.server).get(`/index.php${query}`).expect(404);
      expect(res.body).toEqual({ success: false, error: { code: 'not_found', message: 'Not found' } });
    });

    it('offers GET only (a POST is no plugin route)', async () => {
      await request(shop.server).post('/index.php?p=carrier-b/api/options').send({}).expect(404);
    });
  });
});
