import { ViesClient } from '../../src/commerce/tax/vies.client';
import { SettingRow } from '../../src/config/setting.entity';
import { SettingsService } from '../../src/config/settings.service';
import { IdTokenVerifier } from '../../src/shop/customer/social/id-token.verifier';
import { startReceiver } from '../flow/flow-helpers';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp, usingMysql } from '../support/test-app';

/** The settings whose URL the server calls with stored credentials, or as a service it trusts. */
const URL_SETTINGS = ['carrier-a.customUrl', 'bankpay.gatewayBaseUrl', 'salesVatServiceUrl', 'social.google.baseUrl'];
const REFUSAL = 'the shop does not call private or loopback addresses';

/**
 * Outside sandboxes (as in production), a URL setting may not send the shop's credentials into its own
 * network: an address literal inside it is refused when saved (settings service and CP forms), and a name
 * that resolves inside it, or a value stored before the check, is refused when called, before anything is
 * sent. A loopback server stands in for an internal service and must receive nothing.
 */
describe(`outbound URL settings without sandboxes (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let staff: ShopClient;
  let settings: SettingsService;
  let internal: Awaited<ReturnType<typeof startReceiver>>;
  let port: string;
  beforeAll(async () => {
    internal = await startReceiver();
    port = new URL(internal.url).port;
    shop = await startTestApp({ env: { SANDBOXES: 'false' } });
    settings = shop.app.get(SettingsService);
    staff = new ShopClient(shop.server);
    await staff.loginCp();
  });
  afterAll(async () => {
    await shop.close();
    await internal.close();
  });

  it('refuses to save a private, loopback or link-local address in any of them', async () => {
    const refused = {
      [internal.url]: '127.0.0.1',
      'http://10.0.0.1/api': '10.0.0.1',
      [`http://[::1]:${port}/v1`]: '[::1]',
      'https://169.254.169.254/latest': '169.254.169.254',
      'http://0.0.0.0:8080': '0.0.0.0',
      'http://[::ffff:192.168.1.20]': '[::ffff:c0a8:114]',
    };
    for (const key of URL_SETTINGS) {
      for (const [url, host] of Object.entries(refused)) {
        await expect(settings.save({ [key]: url })).rejects.toThrow(`${key} must not point to ${host}: ${REFUSAL}`);
      }
      await expect(settings.save({ [key]: 'ftp://files.example.com' })).rejects.toThrow(
        `${key} must be an http(s) URL`,
      );
      expect(settings.value(key)).toBe('');
    }
    // A public address is fine, as is blank.
    await settings.save({ 'carrier-a.customUrl': 'https://api.carrier.example/v1' });
    expect(settings.get('carrier-a.customUrl')).toBe('https://api.carrier.example/v1');
    await settings.save({ 'carrier-a.customUrl': '' });
  });

  it('refuses them in the CP settings forms, with the field named', async () => {
    const carrier = await staff.post('/admin/carrier-a/settings', {
      sandbox: 'on',
      customUrl: 'http://127.0.0.1:9/v1',
      username: 'shop',
    });
    expect(carrier.status).toBe(400);
    expect(carrier.body.error).toEqual({
      code: 'invalid_setting',
      message: `carrier-a.customUrl must not point to 127.0.0.1: ${REFUSAL}`,
      fields: { customUrl: [`must not point to 127.0.0.1: ${REFUSAL}`] },
    });

    const bank = await staff.post('/admin/bankpay/settings/save', {
      section: 'credentials',
      merchantMid: 'demo',
      gatewayBaseUrl: 'http://10.0.0.1',
      cardPayPublicKeys: '{}',
    });
    expect(bank.status).toBe(400);
    expect(bank.body.error.fields).toEqual({ gatewayBaseUrl: [`must not point to 10.0.0.1: ${REFUSAL}`] });
    expect(settings.get('carrier-a.customUrl')).toBe('');
    expect(settings.get('bankpay.gatewayBaseUrl')).toBe('');
  });

  it('refuses at call time a name that resolves to loopback, and a value stored before the check', async () => {
    // `localhost` passes the save (a name), and is refused on the address it resolves to.
    await settings.save({
      'carrier-a.customUrl': `http://localhost:${port}`,
      'carrier-a.username': 'shop',
      'carrier-a.password': 'carrier-secret-1',
      'bankpay.gatewayBaseUrl': `http://localhost:${port}`,
      'bankpay.apiKey': 'bank-client',
      'bankpay.clientSecret': 'bank-secret-1',
      salesVatServiceUrl: `http://localhost:${port}`,
      'social.google.baseUrl': `http://localhost:${port}`,
      'social.google.clientId': 'google-client',
      'social.google.clientSecret': 'google-secret-1',
    });
    const refusal = `localhost is a private or loopback address, which the shop may not call`;
    await expectEveryCallRefused(refusal);

    // A literal stored before the check existed (straight into the table) is refused too.
    await shop.dataSource
      .getRepository(SettingRow)
      .update({ key: 'carrier-a.customUrl' }, { value: JSON.stringify(`http://127.0.0.1:${port}`) });
    await settings.reload();
    const test = await staff.post('/admin/carrier-a/api/test-connection');
    expect(test.body).toEqual({
      success: false,
      message: expect.stringContaining(
        `127.0.0.1:${port} is a private or loopback address, which the shop may not call`,
      ),
    });
    expect(internal.received).toEqual([]);
  });

  /**
   * Carrier A's connection test, the bank's credentials test, a VIES check and a Google login, each refused
   * before it reached the internal service.
   */
  async function expectEveryCallRefused(refusal: string): Promise<void> {
    const reached = () => internal.received.map((request) => `${request.method} ${request.url}`);
    const carrier = await staff.post('/admin/carrier-a/api/test-connection');
    expect(carrier.body).toEqual({ success: false, message: `Carrier A: parcelshops SK  failed: ${refusal}` });
    expect(reached()).toEqual([]);

    const bank = await staff.post('/admin/bankpay/settings/test');
    expect(bank.body).toMatchObject({ success: false });
    expect(reached()).toEqual([]);

    expect(await shop.app.get(ViesClient).check('SK', '2020273893')).toEqual({
      status: 'unavailable',
      reason: refusal,
    });
    expect(reached()).toEqual([]);

    const shopper = new ShopClient(shop.server);
    const start = await shopper.get('/shop/auth/social/google');
    expect(start.status).toBe(302);
    const state = new URL(start.headers.location as string).searchParams.get('state');
    const back = await shopper.get(`/shop/auth/social/google/callback?code=abc&state=${state}`);
    expect(back.status).toBe(302);
    expect(back.headers.location).toMatch(/^\/shop\/login/);
    expect(reached()).toEqual([]);

    // Apple's id_token: its key set is fetched from the provider's base URL too.
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const token = `${part({ alg: 'ES256', kid: 'k1' })}.${part({ sub: 'x' })}.c2ln`;
    const expected = { issuer: 'x', audience: 'x', nonce: 'x', jwksUrl: `http://localhost:${port}/keys` };
    await expect(shop.app.get(IdTokenVerifier).verify(token, expected)).rejects.toThrow(refusal);
    expect(reached()).toEqual([]);
  }
});
