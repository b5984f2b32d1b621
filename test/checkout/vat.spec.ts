import { CACHE_MANAGER } from '@nestjs/cache-manager';
import type { Cache } from 'cache-manager';
import request from 'supertest';
import { VatValidationService } from '../../src/commerce/tax/vat-validation.service';
import { SettingsService } from '../../src/config/settings.service';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp } from '../support/test-app';

const PATH = '/shop/checkout/validate-vat';
/** Nothing listens on port 1: a VAT service there refuses every connection at once. */
const NOWHERE = 'http://127.0.0.1:1';
const DAY_MS = 24 * 60 * 60 * 1000;
const UNAVAILABLE_MESSAGE = 'The EU VAT service is not available right now, please try again later.';
const UNAVAILABLE = {
  success: false,
  valid: false,
  message: UNAVAILABLE_MESSAGE,
  error: { code: 'vat_service_unavailable', message: UNAVAILABLE_MESSAGE },
};

function registered(vatId: string) {
  return {
    success: true,
    valid: true,
    message: null,
    vatId,
    name: `SANDBOX COMPANY ${vatId}`,
    address: 'Main Street 1, 811 01 Bratislava',
  };
}

function invalid(vatId: string, message: string) {
  return { success: true, valid: false, message, vatId };
}

function fieldErrors(fields: Record<string, string[]>) {
  return {
    success: false,
    error: { code: 'validation_failed', message: 'Please correct the highlighted fields', fields },
  };
}

describe('VAT validation', () => {
  let shop: TestApp;
  let client: ShopClient;
  let settings: SettingsService;

  beforeAll(async () => {
    shop = await startTestApp({ listen: true });
    client = new ShopClient(shop.server);
    settings = shop.app.get(SettingsService);
  });
  afterAll(() => shop.close());
  // The demo shop's settings: VAT validation on, format and existence, the local sandbox.
  afterEach(() =>
    settings.save({ salesValidateVAT: true, salesValidateVATType: 'format_existence', salesVatServiceUrl: '' }),
  );

  const check = (vatId: unknown, country: unknown) => client.post(PATH, { vatId, country });

  describe('the route', () => {
    it('answers like an unknown route while salesValidateVAT is off', async () => {
      await settings.save({ salesValidateVAT: false });
      const res = await check('SK2020123456', 'SK');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        success: false,
        error: { code: 'not_found', message: 'Cannot POST /shop/checkout/validate-vat' },
      });
      const unknown = await client.post('/shop/checkout/no-such-route', { vatId: 'SK2020123456', country: 'SK' });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({
        success: false,
        error: { code: 'not_found', message: 'Cannot POST /shop/checkout/no-such-route' },
      });
    });

    it.each(['format', 'none'])('answers like an unknown route while the check type is %s', async (type) => {
      await settings.save({ salesValidateVAT: true, salesValidateVATType: type });
      const res = await check('SK2020123456', 'SK');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        success: false,
        error: { code: 'not_found', message: 'Cannot POST /shop/checkout/validate-vat' },
      });
    });

    it('appears as soon as the settings allow it, without a restart', async () => {
      await settings.save({ salesValidateVAT: false, salesValidateVATType: 'format_existence' });
      expect((await check('SK2020123456', 'SK')).status).toBe(404);
      await settings.save({ salesValidateVAT: true });
      const res = await check('SK2020123456', 'SK');
      expect(res.status).toBe(200);
      expect(res.body).toEqual(registered('SK2020123456'));
    });
  });

  describe('registered ids', () => {
    it.each([
      ['SK2020123456', 'SK', 'SK2020123456'],
      ['sk 2020.123-456', 'sk', 'SK2020123456'],
      ['2020123456', 'SK', 'SK2020123456'],
      ['CZ12345678', 'CZ', 'CZ12345678'],
      ['CZ1234567890', 'CZ', 'CZ1234567890'],
      ['DE123456789', 'DE', 'DE123456789'],
      ['ATU12345678', 'AT', 'ATU12345678'],
      ['FR40303265045', 'FR', 'FR40303265045'],
      ['XX303265045', 'FR', 'FRXX303265045'],
      ['NL123456789B01', 'NL', 'NL123456789B01'],
      ['EL123456789', 'GR', 'EL123456789'],
      ['GR123456789', 'GR', 'EL123456789'],
      ['123456789', 'gr', 'EL123456789'],
      ['ESB12345678', 'ES', 'ESB12345678'],
      ['ESX1234567Z', 'ES', 'ESX1234567Z'],
      ['IE1234567WA', 'IE', 'IE1234567WA'],
      ['IE8Z49289F', 'IE', 'IE8Z49289F'],
      ['XI123456789', 'GB', 'XI123456789'],
    ])('%s (%s) is valid as %s, with the name and address VIES holds', async (vatId, country, normalised) => {
      const res = await check(vatId, country);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(registered(normalised));
    });
  });

  describe('answers that the id is not valid', () => {
    it.each([
      ['SK123', 'SK', 'SK123'],
      ['SK2020123456X', 'SK', 'SK2020123456X'],
      ['DE12345678', 'DE', 'DE12345678'],
      ['AT12345678', 'AT', 'AT12345678'],
      ['NL123456789A01', 'NL', 'NL123456789A01'],
      ['EL12345678', 'GR', 'EL12345678'],
      ['...', 'SK', 'SK'],
    ])('rejects the format of %s (%s) without asking VIES', async (vatId, country, normalised) => {
      await settings.save({ salesVatServiceUrl: NOWHERE });
      const res = await check(vatId, country);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(invalid(normalised, 'Invalid VAT ID format.'));
    });

    it('says when VIES does not know the number', async () => {
      const res = await check('SK2020123000', 'SK');
      expect(res.status).toBe(200);
      expect(res.body).toEqual(invalid('SK2020123000', 'Invalid VAT ID: not registered in the EU VAT system.'));
    });

    it.each([
      ['CZ12345678', 'SK', 'This VAT ID is not from Slovakia.'],
      ['EL123456789', 'DE', 'This VAT ID is not from Germany.'],
      ['SK2020123456', 'GR', 'This VAT ID is not from Greece.'],
      ['DE123456789', 'GB', 'This VAT ID is not from United Kingdom.'],
    ])('says %s is not an id of %s', async (vatId, country, message) => {
      await settings.save({ salesVatServiceUrl: NOWHERE });
      const res = await check(vatId, country);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(invalid(vatId, message));
    });

    it.each([
      ['CHE123456789', 'CH'],
      ['NO123456789MVA', 'NO'],
      ['US123', 'us'],
      ['GB123456789', 'GB'],
    ])('checks only EU ids: %s (%s)', async (vatId, country) => {
      await settings.save({ salesVatServiceUrl: NOWHERE });
      const res = await check(vatId, country);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(invalid(vatId, 'VAT IDs can only be checked for EU countries.'));
    });
  });

  describe('when VIES cannot answer', () => {
    it.each([
      ['a member state is unavailable (MS_UNAVAILABLE, HTTP 200)', 'SK2020123999'],
      ['VIES answers HTTP 503', 'SK2020123998'],
      ['VIES answers HTML', 'SK2020123996'],
    ])('answers 502 when %s, never "invalid"', async (_case, vatId) => {
      const res = await check(vatId, 'SK');
      expect(res.status).toBe(502);
      expect(res.body).toEqual(UNAVAILABLE);
    });

    it('gives up after the outbound timeout when VIES is slow', async () => {
      const started = Date.now();
      const res = await check('SK2020123997', 'SK');
      expect(res.status).toBe(502);
      expect(res.body).toEqual(UNAVAILABLE);
      // The sandbox answers after 6 s; the client waits OUTBOUND_TIMEOUT_MS = 2.5 s.
      expect(Date.now() - started).toBeLessThan(5500);
    });

    it('answers 502 when VIES is unreachable, and asks again next time', async () => {
      await settings.save({ salesVatServiceUrl: NOWHERE });
      const down = await check('DE111222333', 'DE');
      expect(down.status).toBe(502);
      expect(down.body).toEqual(UNAVAILABLE);
      await settings.save({ salesVatServiceUrl: '' });
      const up = await check('DE111222333', 'DE');
      expect(up.status).toBe(200);
      expect(up.body).toEqual(registered('DE111222333'));
    });
  });

  describe('the day cache', () => {
    it('reuses definitive VIES answers for 24 hours', async () => {
      expect((await check('DE987654321', 'DE')).body).toEqual(registered('DE987654321'));
      expect((await check('DE987654000', 'DE')).body).toEqual(
        invalid('DE987654000', 'Invalid VAT ID: not registered in the EU VAT system.'),
      );
      const expires = await shop.app.get<Cache>(CACHE_MANAGER).ttl('vat:DE987654321');
      expect(expires! - Date.now()).toBeGreaterThan(DAY_MS - 60_000);
      expect(expires! - Date.now()).toBeLessThanOrEqual(DAY_MS);

      await settings.save({ salesVatServiceUrl: NOWHERE });
      const same = await check('de 987 654 321', 'de');
      expect(same.status).toBe(200);
      expect(same.body).toEqual(registered('DE987654321'));
      const notRegistered = await check('DE987654000', 'DE');
      expect(notRegistered.status).toBe(200);
      expect(notRegistered.body).toEqual(
        invalid('DE987654000', 'Invalid VAT ID: not registered in the EU VAT system.'),
      );
      const other = await check('DE987654322', 'DE');
      expect(other.status).toBe(502);
      expect(other.body).toEqual(UNAVAILABLE);
    });
  });

  describe('bad input', () => {
    const TOO_SHORT = 'vatId must be longer than or equal to 1 characters';
    const TOO_LONG = 'vatId must be shorter than or equal to 20 characters';
    const NOT_STRING = 'vatId must be a string';
    const COUNTRY = 'country must be an ISO 3166-1 alpha-2 country code such as SK';

    it.each([
      ['no vatId', { country: 'SK' }, { vatId: [TOO_SHORT, NOT_STRING] }],
      ['an empty vatId', { vatId: '', country: 'SK' }, { vatId: [TOO_SHORT] }],
      ['a vatId over 20 characters', { vatId: 'SK20201234567890123456', country: 'SK' }, { vatId: [TOO_LONG] }],
      [
        'a vatId that is not a string',
        { vatId: 2020123456, country: 'SK' },
        { vatId: ['vatId must be longer than or equal to 1 and shorter than or equal to 20 characters', NOT_STRING] },
      ],
      ['no country', { vatId: 'SK2020123456' }, { country: [COUNTRY] }],
      ['an unknown country', { vatId: 'SK2020123456', country: 'XX' }, { country: [COUNTRY] }],
      ['a country name', { vatId: 'SK2020123456', country: 'Slovakia' }, { country: [COUNTRY] }],
    ])('answers 400 for %s', async (_case, body, fields) => {
      const res = await client.post(PATH, body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(fieldErrors(fields));
    });

    it('answers 400 for a body that is not JSON', async () => {
      const token = await client.csrfToken();
      const res = await client.agent
        .post(PATH)
        .set('X-CSRF-Token', token)
        .set('Content-Type', 'application/json')
        .send('{"vatId": "SK20');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        success: false,
        error: { code: 'invalid_json', message: 'The request body is not valid JSON.' },
      });
    });
  });

  describe('reverse charge', () => {
    let vat: VatValidationService;
    beforeAll(() => {
      vat = shop.app.get(VatValidationService);
    });

    it('never applies while VAT validation is off', async () => {
      await settings.save({ salesValidateVAT: false });
      expect(await vat.reverseCharge('DE123456789', 'SK')).toBeNull();
    });

    it('never applies with the check type none', async () => {
      await settings.save({ salesValidateVATType: 'none' });
      expect(await vat.reverseCharge('DE123456789', 'SK')).toBeNull();
    });

    it('never applies with the check type format: a well-formed id may be invented', async () => {
      await settings.save({ salesValidateVATType: 'format' });
      expect(await vat.reverseCharge('DE123456789', 'SK')).toBeNull();
      expect(await vat.reverseCharge('DE123456000', 'SK')).toBeNull();
      expect(await vat.reverseCharge('DE12345678', 'SK')).toBeNull();
    });

    it('needs a registered foreign EU id with format_existence', async () => {
      expect(await vat.reverseCharge('DE123456789', 'SK')).not.toBeNull();
      expect(await vat.reverseCharge('de 123 456 789', 'sk')).not.toBeNull();
      expect(await vat.reverseCharge('EL123456789', 'SK')).not.toBeNull();
      expect(await vat.reverseCharge('SK2020123456', 'SK')).toBeNull();
      expect(await vat.reverseCharge('DE123456000', 'SK')).toBeNull();
      expect(await vat.reverseCharge('XI123456789', 'SK')).toBeNull();
      expect(await vat.reverseCharge('CHE123456789', 'SK')).toBeNull();
      expect(await vat.reverseCharge('123456789', 'SK')).toBeNull();
      expect(await vat.reverseCharge(null, 'SK')).toBeNull();
    });

    it('does not apply while VIES cannot confirm the id', async () => {
      expect(await vat.reverseCharge('DE123456999', 'SK')).toBeNull();
      await settings.save({ salesVatServiceUrl: NOWHERE });
      expect(await vat.reverseCharge('AT U444 55 666', 'SK')).toBeNull();
    });
  });

  describe('the VIES sandbox', () => {
    const sandbox = (body: object) => request(shop.server).post('/_sandbox/vies/check-vat-number').send(body);

    it('speaks the VIES REST format without a CSRF token', async () => {
      const res = await sandbox({ countryCode: 'SK', vatNumber: '2020123456' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        countryCode: 'SK',
        vatNumber: '2020123456',
        requestDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
        valid: true,
        name: 'SANDBOX COMPANY SK2020123456',
        address: 'Main Street 1, 811 01 Bratislava',
        requestIdentifier: '',
      });
      const requested = await sandbox({
        countryCode: 'DE',
        vatNumber: '123456789',
        requesterMemberStateCode: 'SK',
        requesterNumber: '2020123456',
      });
      expect(requested.body.requestIdentifier).toMatch(/^WAPI[A-Z0-9]{16}$/);
    });

    it('picks the outcome by the last three digits', async () => {
      const unknown = await sandbox({ countryCode: 'DE', vatNumber: '123456000' });
      expect(unknown.status).toBe(200);
      expect(unknown.body).toEqual({
        countryCode: 'DE',
        vatNumber: '123456000',
        requestDate: expect.any(String),
        valid: false,
        name: '---',
        address: '---',
        requestIdentifier: '',
      });
      const busy = await sandbox({ countryCode: 'DE', vatNumber: '123456999' });
      expect(busy.status).toBe(200);
      expect(busy.body).toEqual({ actionSucceed: false, errorWrappers: [{ error: 'MS_UNAVAILABLE' }] });
      const down = await sandbox({ countryCode: 'DE', vatNumber: '123456998' });
      expect(down.status).toBe(503);
      expect(down.text).toBe('');
      const html = await sandbox({ countryCode: 'DE', vatNumber: '123456996' });
      expect(html.status).toBe(200);
      expect(html.headers['content-type']).toMatch(/^text\/html/);
    });

    it.each([
      [{ vatNumber: '123456789' }],
      [{ countryCode: 'GR', vatNumber: '123456789' }],
      [{ countryCode: 'US', vatNumber: '123456789' }],
      [{ countryCode: 'DE' }],
      [{ countryCode: 'DE', vatNumber: '1234567890123' }],
      [{ countryCode: 'DE', vatNumber: 'de123' }],
    ])('answers INVALID_INPUT to %j', async (body) => {
      const res = await sandbox(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ actionSucceed: false, errorWrappers: [{ error: 'INVALID_INPUT' }] });
    });
  });
});
