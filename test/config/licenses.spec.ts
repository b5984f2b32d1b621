import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import request from 'supertest';
import { loadConfig } from '../../src/config/app-config';
import { License } from '../../src/config/licenses/license.entity';
import { ed25519PublicKey, SANDBOX_LICENSE_PUBLIC_KEY } from '../../src/config/licenses/license-key';
import { verifyLicenseToken } from '../../src/config/licenses/license-token';
import { SANDBOX_LICENSE_KEY, signLicense, testClaims } from '../../src/sandbox/licenses/sandbox-license-signer';
import { runCli } from '../support/cli';
import { ShopClient } from '../support/shop-client';
import { REFUSING_URL, startTestApp, TestApp, usingMysql } from '../support/test-app';
import { shownIn } from '../support/shown-time';

type Plugin = 'carrier-a' | 'carrier-b';

interface Flash {
  type: string;
  message: string;
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#x27;': "'" };
const unescape = (html: string) =>
  html.replace(/&(amp|lt|gt|quot|#x27|#x3D|#x60);/g, (entity) => ENTITIES[entity] ?? '');

/** The flash messages of a rendered page (the layout's, not the panel's own problem note). */
function flashes(html: string): Flash[] {
  return [...html.matchAll(/<p class="flash flash-(\w+)" role="\w+">([^<]*)<\/p>/g)].map(([, type, message]) => ({
    type,
    message: unescape(message),
  }));
}

/** The facts list of the panel as term → detail. */
function facts(html: string): Record<string, string> {
  return Object.fromEntries(
    [...html.matchAll(/<dt>([^<]+)<\/dt><dd>(?:<code>)?([^<]*)/g)].map(([, term, detail]) => [term, unescape(detail)]),
  );
}

const statusOf = (html: string) => /<span class="status status-(\w+)">([^<]+)<\/span>/.exec(html)?.slice(1);

/** A token with one character of `part` (0 claims, 1 signature) replaced at `at` (negative: from the end). */
function tampered(token: string, part: 0 | 1, at: number): string {
  const parts = token.split('.');
  const chars = [...parts[part]];
  const index = at < 0 ? chars.length + at : at;
  chars[index] = chars[index] === 'A' ? 'B' : 'A';
  parts[part] = chars.join('');
  return parts.join('.');
}

/**
 * The carriers' license panels against the sandbox license server on loopback: activating sandbox-issued
 * tokens (and refusing altered, foreign, expired and wrongly signed ones without storing anything), redeeming
 * purchase codes (and every way the server can fail), revoking, the copy-token field, and who may open them.
 */
describe(`plugin licenses (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let staff: ShopClient;
  beforeAll(async () => {
    shop = await startTestApp({ listen: true });
    staff = new ShopClient(shop.server);
    await staff.loginCp();
  });
  afterAll(() => shop.close());
  beforeEach(() => shop.dataSource.getRepository(License).clear());

  const stored = (plugin: Plugin) => shop.dataSource.getRepository(License).findOneBy({ plugin });
  const storedCount = () => shop.dataSource.getRepository(License).count();

  async function issue(query: Record<string, string>): Promise<{ token: string; claims: Record<string, string> }> {
    const res = await request(shop.server)
      .get(`/_sandbox/licenses/issue?${new URLSearchParams(query)}`)
      .expect(200);
    return res.body;
  }

  async function panel(plugin: Plugin, client = staff): Promise<string> {
    const res = await client.get(`/admin/${plugin}/license`).set('Accept', 'text/html').expect(200);
    return res.text;
  }

  /** Posts one of the panel's forms and follows the redirect back to the panel. */
  async function submit(plugin: Plugin, action: string, fields: Record<string, string>) {
    const res = await staff.submitForm(`/admin/${plugin}/license/${action}`, fields);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`/admin/${plugin}/license`);
    const html = await panel(plugin);
    return { html, flashes: flashes(html) };
  }

  const activate = (plugin: Plugin, token: string) => submit(plugin, 'activate', { token });
  const redeem = (plugin: Plugin, code: string) => submit(plugin, 'redeem', { code });

  describe('activate', () => {
    it('activates a sandbox-issued token and shows licensee, edition, expiry and status', async () => {
      const { token, claims } = await issue({ plugin: 'carrier-a', licensee: 'Ada Shop', expiresInDays: '30' });
      expect(statusOf(await panel('carrier-a'))).toEqual(['none', 'No license']);

      const { html, flashes: shown } = await activate('carrier-a', token);
      expect(shown).toEqual([{ type: 'success', message: `License ${claims.licenseId} activated for Ada Shop.` }]);
      expect(statusOf(html)).toEqual(['active', 'Active']);
      expect(facts(html)).toMatchObject({
        Licensee: 'Ada Shop',
        Edition: 'test',
        'License id': claims.licenseId,
        Issued: shownIn(claims.issuedAt),
        Expires: shownIn(claims.expiresAt),
      });
      expect(await stored('carrier-a')).toMatchObject({
        token,
        licenseId: claims.licenseId,
        licensee: 'Ada Shop',
        edition: 'test',
        issuedAt: Date.parse(claims.issuedAt),
        expiresAt: Date.parse(claims.expiresAt),
        status: 'active',
        revokedAt: null,
      });
      // Each plugin has its own license.
      expect(statusOf(await panel('carrier-b'))).toEqual(['none', 'No license']);
    });

    it('takes a token pasted with line breaks, and a perpetual one replaces the stored license', async () => {
      await activate('carrier-b', (await issue({ plugin: 'carrier-b', expiresInDays: '5' })).token);
      const { token, claims } = await issue({ plugin: 'carrier-b' });
      const wrapped = `  ${token.slice(0, 40)}\r\n${token.slice(40, 90)}\n${token.slice(90)}\n`;
      const { html, flashes: shown } = await activate('carrier-b', wrapped);
      expect(shown[0].type).toBe('success');
      expect(facts(html)).toMatchObject({ Licensee: 'Sandbox Shop', Expires: 'never' });
      expect(await stored('carrier-b')).toMatchObject({ token, licenseId: claims.licenseId, expiresAt: null });
      expect(await storedCount()).toBe(1);
    });

    it('refuses a token with one character changed in its claims or signature, with the reason, storing nothing', async () => {
      const { token } = await issue({ plugin: 'carrier-a' });
      const signatureFails =
        'License refused: The signature does not match: the token was altered or was not issued by the configured license server.';
      for (const altered of [tampered(token, 0, 10), tampered(token, 1, 20)]) {
        const { html, flashes: shown } = await activate('carrier-a', altered);
        expect(shown).toEqual([{ type: 'error', message: signatureFails }]);
        expect(statusOf(html)).toEqual(['none', 'No license']);
      }
      // The last characters carry padding bits a lenient decoder ignores: changed, they are refused too.
      for (const altered of [tampered(token, 0, -1), tampered(token, 1, -1)]) {
        const [flash] = (await activate('carrier-a', altered)).flashes;
        expect(flash.type).toBe('error');
        expect(flash.message).toMatch(/^License refused: (This is not a license token|The signature does not match)/);
      }
      // Claims rewritten for more, with the original signature.
      const [claims, signature] = token.split('.');
      const upgraded = { ...JSON.parse(Buffer.from(claims, 'base64url').toString()), edition: 'enterprise' };
      const forged = `${Buffer.from(JSON.stringify(upgraded)).toString('base64url')}.${signature}`;
      expect((await activate('carrier-a', forged)).flashes).toEqual([{ type: 'error', message: signatureFails }]);
      expect(await storedCount()).toBe(0);
    });

    it('refuses what is not a token, and an empty form', async () => {
      expect((await activate('carrier-a', 'not-a-license')).flashes).toEqual([
        {
          type: 'error',
          message: 'License refused: This is not a license token: it should be two base64url parts joined by a dot.',
        },
      ]);
      expect((await activate('carrier-a', '  ')).flashes).toEqual([
        { type: 'error', message: 'Paste a license token first.' },
      ]);
      expect((await activate('carrier-a', 'x'.repeat(5000))).flashes[0].message).toMatch(/not a license token/);
      expect(await storedCount()).toBe(0);
    });

    it("refuses the other plugin's token", async () => {
      const { token } = await issue({ plugin: 'carrier-b' });
      expect((await activate('carrier-a', token)).flashes).toEqual([
        { type: 'error', message: 'License refused: This license is for carrier-b, not carrier-a.' },
      ]);
      expect(await storedCount()).toBe(0);
    });

    it('refuses an expired token', async () => {
      const { token, claims } = await issue({ plugin: 'carrier-a', expiresInDays: '-1' });
      expect((await activate('carrier-a', token)).flashes).toEqual([
        { type: 'error', message: `License refused: This license expired on ${claims.expiresAt.slice(0, 10)}.` },
      ]);
      expect(await storedCount()).toBe(0);
    });

    it('refuses a token signed by another key, and leaves the stored license as it was', async () => {
      const { token: good } = await issue({ plugin: 'carrier-a', licensee: 'Ada Shop' });
      await activate('carrier-a', good);
      const { privateKey } = generateKeyPairSync('ed25519');
      const foreign = signLicense(testClaims('carrier-a', 'Mallory', null), privateKey);
      const { html, flashes: shown } = await activate('carrier-a', foreign);
      expect(shown[0]).toEqual({
        type: 'error',
        message:
          'License refused: The signature does not match: the token was altered or was not issued by the configured license server.',
      });
      expect(facts(html).Licensee).toBe('Ada Shop');
      expect(await stored('carrier-a')).toMatchObject({ token: good, licensee: 'Ada Shop', status: 'active' });
    });

    it('shows a stored license that has since expired, or no longer verifies, with the reason', async () => {
      const { token } = await issue({ plugin: 'carrier-a' });
      await activate('carrier-a', token);
      const repo = shop.dataSource.getRepository(License);

      const expired = await issue({ plugin: 'carrier-a', expiresInDays: '-2' });
      await repo.update({ plugin: 'carrier-a' }, { token: expired.token });
      let html = await panel('carrier-a');
      expect(statusOf(html)).toEqual(['expired', 'Expired']);
      expect(html).toContain(`This license expired on ${expired.claims.expiresAt.slice(0, 10)}.`);

      await repo.update({ plugin: 'carrier-a' }, { token: tampered(token, 1, 5) });
      html = await panel('carrier-a');
      expect(statusOf(html)).toEqual(['invalid', 'Invalid']);
      expect(html).toContain('The signature does not match');
    });
  });

  describe('redeem', () => {
    it('redeems a sandbox purchase code for a year-long license, verified and activated like a pasted one', async () => {
      const { html, flashes: shown } = await redeem('carrier-a', ' test-carrier-a-0001 ');
      const license = await stored('carrier-a');
      expect(shown).toEqual([
        {
          type: 'success',
          message: `Purchase code redeemed: license ${license?.licenseId} activated for Sandbox licensee (localhost:${shop.config.port}).`,
        },
      ]);
      expect(license).toMatchObject({ status: 'active', edition: 'test', licenseId: expect.stringMatching(/^SBX-/) });
      const yearAhead = Date.now() + 365 * 24 * 3600 * 1000;
      expect(Math.abs(license!.expiresAt! - yearAhead)).toBeLessThan(60_000);
      expect(statusOf(html)).toEqual(['active', 'Active']);
      expect(facts(html).Expires).toBe(shownIn(license!.expiresAt!));
      expect(verifyLicenseToken(license!.token, 'carrier-a', ed25519PublicKey(SANDBOX_LICENSE_PUBLIC_KEY)).ok).toBe(
        true,
      );
    });

    it.each([
      [
        'an unknown code',
        'TEST-CARRIER-B-0001',
        'The license server refused the code: No carrier-a license has the code TEST-CARRIER-B-0001.',
      ],
      [
        'a server that is down',
        'TEST-CARRIER-A-DOWN',
        'The license server answered HTTP 503 without a token. Try again later.',
      ],
      [
        'a garbage answer',
        'TEST-CARRIER-A-GARBAGE',
        /^The license server gave no usable answer \(127\.0\.0\.1:\d+ answered 200 with a body that is not JSON\)\. Try again later\.$/,
      ],
      [
        'a server too slow to answer',
        'TEST-CARRIER-A-SLOW',
        /^The license server gave no usable answer \(no answer from 127\.0\.0\.1:\d+ within 2500 ms\)\. Try again later\.$/,
      ],
      [
        'an expired license',
        'TEST-CARRIER-A-EXPIRED',
        /^License refused: This license expired on \d{4}-\d{2}-\d{2}\.$/,
      ],
      ['an empty code', '   ', 'Enter a purchase code first.'],
    ])('flashes an error and stores nothing for %s', async (_case, code, message) => {
      const { html, flashes: shown } = await redeem('carrier-a', code);
      expect(shown).toHaveLength(1);
      expect(shown[0].type).toBe('error');
      if (typeof message === 'string') expect(shown[0].message).toBe(message);
      else expect(shown[0].message).toMatch(message);
      expect(statusOf(html)).toEqual(['none', 'No license']);
      expect(await storedCount()).toBe(0);
    });
  });

  describe('revoke', () => {
    it('revokes after the confirmation, shows the revoked license, and a new activation replaces it', async () => {
      const { token, claims } = await issue({ plugin: 'carrier-b', licensee: 'Grace Shop' });
      await activate('carrier-b', token);

      let result = await submit('carrier-b', 'revoke', {});
      expect(result.flashes).toEqual([{ type: 'error', message: 'Tick the box to confirm the revocation.' }]);
      expect((await stored('carrier-b'))?.status).toBe('active');

      result = await submit('carrier-b', 'revoke', { confirm: 'yes' });
      expect(result.flashes).toEqual([{ type: 'success', message: 'License revoked.' }]);
      expect(statusOf(result.html)).toEqual(['revoked', 'Revoked']);
      const revoked = await stored('carrier-b');
      expect(revoked).toMatchObject({ status: 'revoked', licenseId: claims.licenseId });
      expect(Math.abs(revoked!.revokedAt! - Date.now())).toBeLessThan(60_000);
      expect(facts(result.html)).toMatchObject({
        Licensee: 'Grace Shop',
        Revoked: shownIn(revoked!.revokedAt!),
      });
      // Nothing left to copy or revoke.
      expect(result.html).not.toContain('id="license-token"');
      expect(result.html).not.toContain('/license/revoke');
      expect((await submit('carrier-b', 'revoke', { confirm: 'yes' })).flashes).toEqual([
        { type: 'error', message: 'There is no license to revoke.' },
      ]);

      result = await activate('carrier-b', token);
      expect(statusOf(result.html)).toEqual(['active', 'Active']);
      expect(await stored('carrier-b')).toMatchObject({ status: 'active', revokedAt: null });
    });

    it('has nothing to revoke without a license', async () => {
      expect((await submit('carrier-a', 'revoke', { confirm: 'yes' })).flashes).toEqual([
        { type: 'error', message: 'There is no license to revoke.' },
      ]);
    });
  });

  describe('copy token', () => {
    it('shows the active token read-only with a Copy button run by a script file', async () => {
      const before = await panel('carrier-a');
      expect(before).not.toContain('id="license-token"');
      expect(before).not.toContain('cp-copy.js');

      const { token } = await issue({ plugin: 'carrier-a' });
      await activate('carrier-a', token);
      const page = await staff.get('/admin/carrier-a/license').set('Accept', 'text/html').expect(200);
      expect(page.text).toContain(`<textarea id="license-token" rows="4" readonly>${token}</textarea>`);
      expect(page.text).toContain('<button type="button" data-copy-from="license-token"');
      expect(page.text).toContain('<label for="license-token">');
      expect(page.text).toMatch(/<script src="\/public\/js\/cp-copy\.js" defer><\/script>/);
      // Every script is a file: the CSP allows no inline script.
      expect(page.text).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/);
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      expect(page.headers['cache-control']).toBe('no-store');

      const script = await request(shop.server).get('/public/js/cp-copy.js').expect(200);
      expect(script.headers['content-type']).toMatch(/javascript/);
      expect(script.text).toContain('data-copy-from');
    });
  });

  describe('access', () => {
    it('sends a visitor without a CP session to the CP login', async () => {
      const res = await request(shop.server).get('/admin/carrier-a/license').expect(302);
      expect(res.headers.location).toBe('/admin/login?next=%2Fadmin%2Fcarrier-a%2Flicense');
    });

    it("answers 403 to a CP user without the plugin's permission, for pages and forms alike", async () => {
      const created = await runCli(
        shop.place,
        'cp:create-user',
        'dispatcher@example.com',
        '--password',
        'dispatcher-pass-1',
        '--permission',
        'accessPlugin-carrier-a',
      );
      expect(created.json).toMatchObject({ ok: true, permissions: ['accessPlugin-carrier-a'] });
      const dispatcher = new ShopClient(shop.server);
      await dispatcher.loginCp('dispatcher@example.com', 'dispatcher-pass-1');

      expect(statusOf(await panel('carrier-a', dispatcher))).toEqual(['none', 'No license']);
      const denied = await dispatcher.get('/admin/carrier-b/license').expect(403);
      expect(denied.body.error).toEqual({
        code: 'forbidden',
        message: 'You need the accessPlugin-carrier-b permission to open this page.',
      });
      expect((await dispatcher.get('/admin/carrier-b/license').set('Accept', 'text/html')).status).toBe(403);
      const { token } = await issue({ plugin: 'carrier-b' });
      expect((await dispatcher.post('/admin/carrier-b/license/activate', { token })).status).toBe(403);
      expect((await dispatcher.post('/admin/carrier-b/license/redeem', { code: 'TEST-CARRIER-B-0001' })).status).toBe(
        403,
      );
      expect(await storedCount()).toBe(0);

      await activate('carrier-b', token);
      expect((await dispatcher.post('/admin/carrier-b/license/revoke', { confirm: 'yes' })).status).toBe(403);
      expect((await stored('carrier-b'))?.status).toBe('active');
    });
  });

  describe('sandbox license server', () => {
    it('documents its purchase codes and issues test tokens, refusing bad requests', async () => {
      const page = await request(shop.server).get('/_sandbox/licenses').expect(200);
      expect(page.text).toContain('<code>TEST-CARRIER-A-0001</code>');
      expect(page.text).toContain('/_sandbox/licenses/issue?plugin=carrier-a');

      const { claims } = await issue({ plugin: 'carrier-b', licensee: 'Ada', expiresInDays: '7' });
      expect(claims).toMatchObject({ plugin: 'carrier-b', licensee: 'Ada', edition: 'test' });
      expect(Date.parse(claims.expiresAt) - Date.parse(claims.issuedAt)).toBe(7 * 24 * 3600 * 1000);

      const bad = await request(shop.server)
        .get('/_sandbox/licenses/issue?plugin=carrier-a&expiresInDays=soon')
        .expect(400);
      expect(bad.body).toEqual({
        error: 'invalid_request',
        message: 'expiresInDays: a whole number from -3650 to 3650',
      });
      await request(shop.server).get('/_sandbox/licenses/issue').expect(400);
      const unknown = await request(shop.server)
        .post('/_sandbox/licenses/v1/redeem')
        .send({ code: 'GIFT-1234', plugin: 'carrier-a', domain: 'https://shop.example' })
        .expect(404);
      expect(unknown.body).toEqual({ error: 'unknown_code', message: 'No carrier-a license has the code GIFT-1234.' });
    });

    it('signs with the test key whose public half the app trusts while sandboxes are on', () => {
      const publicHalf = createPublicKey(SANDBOX_LICENSE_KEY).export({ format: 'jwk' }).x!;
      expect(Buffer.from(publicHalf, 'base64url').toString('base64')).toBe(SANDBOX_LICENSE_PUBLIC_KEY);
      expect(shop.config.licensePublicKey).toBe(SANDBOX_LICENSE_PUBLIC_KEY);
      expect(shop.config.licenseServerUrl).toBe(`http://127.0.0.1:${shop.config.port}/_sandbox/licenses`);
    });
  });
});

describe('license configuration', () => {
  const base = { SESSION_SECRET: 'x'.repeat(32), DATA_DIR: '/tmp/license-config-test' };

  it('trusts LICENSE_PUBLIC_KEY alone when it is set, and no key at all without sandboxes', () => {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url').toString('base64');
    const config = loadConfig({
      ...base,
      LICENSE_PUBLIC_KEY: raw,
      LICENSE_SERVER_URL: 'https://licenses.example.com/',
    });
    expect(config).toMatchObject({ licensePublicKey: raw, licenseServerUrl: 'https://licenses.example.com' });
    const key = ed25519PublicKey(config.licensePublicKey!);
    const own = signLicense(testClaims('carrier-a', 'Ada', 1), privateKey);
    expect(verifyLicenseToken(own, 'carrier-a', key).ok).toBe(true);
    expect(verifyLicenseToken(signLicense(testClaims('carrier-a', 'Ada', 1)), 'carrier-a', key)).toMatchObject({
      ok: false,
      refusal: 'bad-signature',
    });

    expect(loadConfig({ ...base, NODE_ENV: 'production' })).toMatchObject({
      licensePublicKey: null,
      licenseServerUrl: null,
    });
    expect(loadConfig({ ...base, SANDBOXES: 'false' })).toMatchObject({
      licensePublicKey: null,
      licenseServerUrl: null,
    });
  });

  it('refuses a license key or server URL it cannot use, naming the variable', () => {
    expect(() => loadConfig({ ...base, LICENSE_PUBLIC_KEY: 'not-a-key' })).toThrow(
      'Invalid environment variable LICENSE_PUBLIC_KEY: must be the base64 of a raw 32-byte Ed25519 public key',
    );
    expect(() => loadConfig({ ...base, LICENSE_PUBLIC_KEY: Buffer.alloc(31).toString('base64') })).toThrow(
      'LICENSE_PUBLIC_KEY',
    );
    expect(() => loadConfig({ ...base, LICENSE_SERVER_URL: 'licenses.example.com' })).toThrow(
      'Invalid environment variable LICENSE_SERVER_URL: must be an http(s) URL such as https://licenses.example.com',
    );
  });

  it('without a key or a reachable license server, says so on the panel and stores nothing', async () => {
    const shop = await startTestApp({
      env: { SANDBOXES: 'false', LICENSE_SERVER_URL: REFUSING_URL },
    });
    try {
      const staff = new ShopClient(shop.server);
      await staff.loginCp();
      const token = signLicense(testClaims('carrier-a', 'Ada', null));
      const activated = await staff.submitForm('/admin/carrier-a/license/activate', { token });
      expect(activated.status).toBe(303);
      let html = (await staff.get('/admin/carrier-a/license').set('Accept', 'text/html').expect(200)).text;
      expect(flashes(html)).toEqual([
        {
          type: 'error',
          message:
            'License refused: No license public key is configured: set LICENSE_PUBLIC_KEY to the base64 of the license server key (raw 32-byte Ed25519).',
        },
      ]);

      await staff.submitForm('/admin/carrier-a/license/redeem', { code: 'TEST-CARRIER-A-0001' });
      html = (await staff.get('/admin/carrier-a/license').set('Accept', 'text/html').expect(200)).text;
      expect(flashes(html)).toEqual([
        {
          type: 'error',
          message: expect.stringMatching(
            /^The license server gave no usable answer \(127\.0\.0\.1:\d+ unreachable: .+\)\. Try again later\.$/,
          ),
        },
      ]);
      expect(await shop.dataSource.getRepository(License).count()).toBe(0);
    } finally {
      await shop.close();
    }
  });
});
