import { Logger } from '@nestjs/common';
import request from 'supertest';
import { CarrierAClient, CarrierAParcelRequest } from '../../src/plugins/carrier-a/carrier-a.client';
import { CarrierAConfigurationError } from '../../src/plugins/carrier-a/carrier-a.errors';
import { SettingsService } from '../../src/config/settings.service';
import { startTestApp, TestApp, usingMysql } from '../support/test-app';

const CONTROL = '/_sandbox/carrier-a/_control';
const PARTY = {
  name: 'Jana Novakova',
  street: 'Main Street 1',
  city: 'Bratislava',
  zipCode: '81101',
  countryCode: 'SK',
};
const PARCEL: CarrierAParcelRequest = {
  reference: 'ORD-1001',
  sender: { ...PARTY, name: 'Demo Shop' },
  recipient: PARTY,
  parcels: [{ weight: 1 }],
  service: { type: 'CLASSIC' },
};

/** The carrier A client against the sandbox on loopback: every call, and every failure as a readable error. */
describe(`carrier A client (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let client: CarrierAClient;
  let settings: SettingsService;
  const warnings = jest.spyOn(Logger.prototype, 'warn');
  beforeAll(async () => {
    shop = await startTestApp({ listen: true });
    client = shop.app.get(CarrierAClient);
    settings = shop.app.get(SettingsService);
  });
  beforeEach(async () => {
    await settings.save({
      'carrier-a.sandbox': true,
      'carrier-a.customUrl': '',
      'carrier-a.username': 'sandbox',
      'carrier-a.password': 'sandbox',
    });
    await request(shop.server).post(`${CONTROL}/reset`).expect(200);
    warnings.mockClear();
  });
  afterAll(async () => {
    warnings.mockRestore();
    await shop.close();
  });

  const mode = (name: string) => request(shop.server).post(`${CONTROL}/mode`).send({ mode: name }).expect(200);
  /** The client's failure, checked to be a configuration error that was logged under carrier-a:client. */
  async function failure(call: () => Promise<unknown>): Promise<string> {
    const error = await call().then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(CarrierAConfigurationError);
    const scopes = warnings.mock.contexts.map((logger) => (logger as unknown as { context?: string }).context);
    expect(scopes).toContain('carrier-a:client');
    return (error as Error).message;
  }

  it('creates a parcel, reads it, its tracking, its label and the ParcelShops', async () => {
    const created = await client.createParcel(PARCEL);
    expect(created).toEqual({
      id: expect.any(String),
      parcelNumber: expect.stringMatching(/^\d{14}$/),
      status: 'CREATED',
    });
    expect(await client.getParcel(created.id)).toMatchObject({ parcelNumber: created.parcelNumber, status: 'CREATED' });
    const tracking = await client.getTracking(created.id);
    expect(tracking).toMatchObject({
      parcelNumber: created.parcelNumber,
      status: 'CREATED',
      events: [{ code: 'CREATED' }],
    });
    const label = await client.getLabel(created.id);
    expect(label.subarray(0, 5).toString()).toBe('%PDF-');
    const shops = await client.getParcelShops('SK', '81101');
    expect(shops.length).toBeGreaterThan(0);
    await client.testConnection();
    const stats = (await request(shop.server).get(`${CONTROL}/stats`).expect(200)).body.requests;
    expect(stats['GET /v1/parcelshops']).toBe(2);
    expect(stats['GET /v1/parcels/{id}/label']).toBe(1);
  });

  it("raises the carrier's validation messages and a 401 as configuration errors", async () => {
    const invalid = await failure(() => client.createParcel({ ...PARCEL, parcels: [{ weight: 50 }] }));
    expect(invalid).toBe(
      'Carrier A: create parcel failed: HTTP 400: parcels[0].weight: must be between 0.1 and 31.5 kg',
    );
    await settings.save({ 'carrier-a.password': 'wrong-secret' });
    const refused = await failure(() => client.getParcelShops('SK', '81101'));
    expect(refused).toContain('HTTP 401: Invalid username or password');
    expect(warnings.mock.calls.flat().join(' ')).not.toContain('wrong-secret');
    expect(await failure(() => client.getTracking('missing'))).toContain('HTTP 401');
  });

  it('turns a 5xx, garbage and a timeout into readable configuration errors', async () => {
    await mode('error');
    expect(await failure(() => client.getParcelShops('SK', '81101'))).toContain(
      'HTTP 503: Service temporarily unavailable',
    );
    expect(await failure(() => client.getLabel('any'))).toContain('HTTP 503: Service temporarily unavailable');
    await mode('garbage');
    expect(await failure(() => client.createParcel(PARCEL))).toContain('a body that is not JSON');
    await mode('timeout');
    expect(await failure(() => client.getParcelShops('SK', '81101'))).toContain('within 2500 ms');
  });

  it('uses the custom URL when set, and refuses to guess a production address', async () => {
    await settings.save({ 'carrier-a.sandbox': false });
    expect(await failure(() => client.testConnection())).toContain('no API address');
    await settings.save({ 'carrier-a.customUrl': `${shop.config.sandboxBaseUrl}/carrier-a/v1/` });
    await client.testConnection();
    await settings.save({ 'carrier-a.customUrl': 'http://127.0.0.1:9/nowhere' });
    expect(await failure(() => client.testConnection())).toContain('unreachable');
  });
});
