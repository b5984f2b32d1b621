import { createHmac, createPublicKey, generateKeyPairSync, JsonWebKey, sign, verify } from 'node:crypto';
import request from 'supertest';
import { startTestApp, TestApp, usingMysql } from '../support/test-app';

const BASE = '/_sandbox/oauth';
const CONTROL = `${BASE}/_control`;
const REDIRECT_URI = 'https://shop.example/shop/auth/social/google/callback';

type Json = Record<string, unknown>;

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const unescape = (text: string) => text.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity]);

function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [, name, value] of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
    fields[unescape(name)] = unescape(value);
  }
  return fields;
}

const b64json = (value: Json) => Buffer.from(JSON.stringify(value)).toString('base64url');
const decodePart = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Json;

/** An Apple client secret as the shop makes it; `claims` overrides the good ones. */
function appleClientSecret(claims: Json = {}, alg = 'ES256'): string {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const now = Math.floor(Date.now() / 1000);
  const input = `${b64json({ alg, kid: 'KEY1234567' })}.${b64json({
    iss: 'TEAM123456',
    sub: 'com.example.client',
    aud: `${issuerHost}${BASE}/apple`,
    iat: now,
    exp: now + 300,
    ...claims,
  })}`;
  return `${input}.${sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
}

/** supertest calls the app at 127.0.0.1 on an ephemeral port; the sandbox names itself by that host. */
let issuerHost = '';

describe(`sandbox OAuth providers (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  beforeAll(async () => {
    shop = await startTestApp({ listen: true });
    issuerHost = `http://127.0.0.1:${shop.config.port}`;
  });
  afterAll(() => shop.close());
  afterEach(async () => {
    await request(shop.server).post(`${CONTROL}/reset`).expect(200);
  });

  const sandbox = () => request(issuerHost);

  function authorizeQuery(provider: string, extra: Record<string, string> = {}) {
    return new URLSearchParams({
      client_id: 'com.example.client',
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      state: 'state-123',
      scope: provider === 'apple' ? 'name email' : provider === 'facebook' ? 'email' : 'openid email profile',
      ...(provider === 'apple' ? { response_mode: 'form_post', nonce: 'nonce-123' } : {}),
      ...extra,
    });
  }

  /** Picks `user` on the provider's page; the redirect's query (or Apple's posted fields). */
  async function authorize(provider: string, user: string, extra: Record<string, string> = {}): Promise<Json> {
    const query = authorizeQuery(provider, extra);
    const answer = await sandbox()
      .post(`${BASE}/${provider}/authorize`)
      .type('form')
      .send({ ...Object.fromEntries(query), user });
    if (answer.status === 200) return hiddenFields(answer.text);
    expect(answer.status).toBe(303);
    const location = new URL(answer.headers.location as string);
    expect(location.origin + location.pathname).toBe(REDIRECT_URI);
    return Object.fromEntries(location.searchParams);
  }

  function exchange(provider: string, code: unknown, extra: Json = {}) {
    const secret = provider === 'apple' ? appleClientSecret() : 'sandbox-secret';
    return sandbox()
      .post(`${BASE}/${provider}/token`)
      .type('form')
      .send({
        grant_type: 'authorization_code',
        code,
        client_id: 'com.example.client',
        client_secret: secret,
        redirect_uri: REDIRECT_URI,
        ...extra,
      });
  }

  async function accessToken(provider: string, user: string): Promise<Json> {
    const { code } = await authorize(provider, user);
    const res = await exchange(provider, code);
    expect(res.status).toBe(200);
    return res.body;
  }

  describe('sign-in page', () => {
    it('lists the test users and Deny, under the shop CSP, carrying the request along hidden', async () => {
      const res = await sandbox()
        .get(`${BASE}/google/authorize?${authorizeQuery('google')}`)
        .expect(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.text).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
      expect(res.text).toContain('Ada Lovelace &lt;ada@sandbox.example&gt; (verified)');
      expect(res.text).toContain('Grace Hopper &lt;grace@sandbox.example&gt; (unverified e-mail)');
      expect(res.text).toContain('>Deny</button>');
      expect(res.text).not.toMatch(/<script|style=/);
      expect(hiddenFields(res.text)).toEqual(Object.fromEntries(authorizeQuery('google')));
      // The page's form ends in a redirect to the shop: the CSP lets it.
      expect(res.headers['content-security-policy']).toContain("form-action 'self' https://shop.example");
    });

    it('escapes what the request carries', async () => {
      const res = await sandbox()
        .get(`${BASE}/google/authorize?${authorizeQuery('google', { client_id: '<b>x</b>', state: '"><script>' })}`)
        .expect(200);
      expect(res.text).not.toContain('<b>x</b>');
      expect(res.text).not.toContain('"><script>');
      expect(res.text).toContain('&lt;b&gt;x&lt;/b&gt;');
    });

    it.each([
      ['client_id', { client_id: '' }, 'client_id is missing.'],
      ['redirect_uri', { redirect_uri: 'javascript:alert(1)' }, 'redirect_uri must be an absolute http(s) URL.'],
      ['response_type', { response_type: 'token' }, 'response_type must be code.'],
    ])('answers a request with a bad %s with an error page, not a redirect', async (_field, extra, message) => {
      const res = await sandbox().get(`${BASE}/google/authorize?${authorizeQuery('google', extra)}`);
      expect(res.status).toBe(400);
      expect(res.text).toContain(message);
    });

    it("keeps Apple's rule: the name and e-mail only come by form post", async () => {
      const res = await sandbox().get(`${BASE}/apple/authorize?${authorizeQuery('apple', { response_mode: 'query' })}`);
      expect(res.status).toBe(400);
      expect(res.text).toContain('response_mode must be form_post when name or email scope is requested.');
    });

    it('answers 404 for a provider it does not have, and 400 for an account it does not know', async () => {
      expect((await sandbox().get(`${BASE}/twitter/authorize?${authorizeQuery('google')}`)).status).toBe(404);
      const res = await sandbox()
        .post(`${BASE}/google/authorize`)
        .type('form')
        .send({ ...Object.fromEntries(authorizeQuery('google')), user: 'nobody' });
      expect(res.status).toBe(400);
      expect(res.text).toContain('Choose one of the listed accounts.');
    });

    it('redirects back with a code and the state, or with each provider’s denial', async () => {
      expect(await authorize('google', 'ada')).toEqual({ code: expect.any(String), state: 'state-123' });
      expect(await authorize('google', 'deny')).toEqual({ error: 'access_denied', state: 'state-123' });
      expect(await authorize('facebook', 'deny')).toEqual({
        error: 'access_denied',
        error_code: '200',
        error_description: 'Permissions error',
        error_reason: 'user_denied',
        state: 'state-123',
      });
    });

    it('answers Apple with a form that posts the code, the state and the name to the redirect URI', async () => {
      const query = authorizeQuery('apple');
      const res = await sandbox()
        .post(`${BASE}/apple/authorize`)
        .type('form')
        .send({ ...Object.fromEntries(query), user: 'ada' });
      expect(res.status).toBe(200);
      expect(res.text).toContain(`<form method="post" action="${REDIRECT_URI}">`);
      expect(res.text).not.toContain('<script');
      const fields = hiddenFields(res.text);
      expect(fields).toEqual({ code: expect.any(String), state: 'state-123', user: expect.any(String) });
      expect(JSON.parse(fields.user)).toEqual({
        name: { firstName: 'Ada', lastName: 'Lovelace' },
        email: 'ada@sandbox.example',
      });
      expect(await authorize('apple', 'deny')).toEqual({ error: 'user_cancelled_authorize', state: 'state-123' });
    });
  });

  describe('token endpoint', () => {
    it('exchanges a code once, for the client and redirect URI it was issued to', async () => {
      const { code } = await authorize('google', 'ada');
      const wrongRedirect = await exchange('google', code, { redirect_uri: 'https://elsewhere.example/cb' });
      expect(wrongRedirect.status).toBe(400);
      expect(wrongRedirect.body.error).toBe('invalid_grant');

      const fresh = (await authorize('google', 'ada')).code;
      const ok = await exchange('google', fresh);
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({
        access_token: expect.any(String),
        expires_in: 3599,
        token_type: 'Bearer',
        scope: 'openid email profile',
      });
      const replay = await exchange('google', fresh);
      expect(replay.status).toBe(400);
      expect(replay.body.error).toBe('invalid_grant');

      const otherClient = await exchange('google', (await authorize('google', 'ada')).code, { client_id: 'other' });
      expect(otherClient.body.error).toBe('invalid_grant');
    });

    it('refuses a wrong secret and a wrong grant type in the provider’s error shape', async () => {
      const { code } = await authorize('google', 'ada');
      const secret = await exchange('google', code, { client_secret: 'guess' });
      expect(secret.status).toBe(401);
      expect(secret.body).toEqual({
        error: 'invalid_client',
        error_description: expect.stringContaining('sandbox-secret'),
      });
      const grant = await exchange('google', code, { grant_type: 'client_credentials' });
      expect(grant.body.error).toBe('unsupported_grant_type');
      const facebook = await exchange('facebook', (await authorize('facebook', 'ada')).code, {
        client_secret: 'guess',
      });
      expect(facebook.status).toBe(400);
      expect(facebook.body).toEqual({
        error: { message: expect.any(String), type: 'OAuthException', code: 101, fbtrace_id: 'sandbox' },
      });
    });

    it.each([
      ['not a JWT', () => 'sandbox-secret'],
      ['signed with RS256', () => appleClientSecret({}, 'RS256')],
      ['for another client', () => appleClientSecret({ sub: 'com.example.other' })],
      ['for another audience', () => appleClientSecret({ aud: 'https://appleid.apple.com' })],
      ['expired', () => appleClientSecret({ exp: Math.floor(Date.now() / 1000) - 10 })],
      ['living longer than six months', () => appleClientSecret({ exp: Math.floor(Date.now() / 1000) + 15_777_100 })],
    ])('refuses an Apple client secret %s', async (_case, secret) => {
      const { code } = await authorize('apple', 'ada');
      const res = await exchange('apple', code, { client_secret: secret() });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('invalid_client');
    });

    it('answers 503 or hangs when switched to', async () => {
      await request(shop.server).post(`${CONTROL}/mode`).send({ mode: 'error' }).expect(200);
      expect((await exchange('google', 'x')).status).toBe(503);
      await request(shop.server).post(`${CONTROL}/mode`).send({ mode: 'timeout' }).expect(200);
      await expect(exchange('google', 'x').timeout(300)).rejects.toThrow(/Timeout/);
    });
  });

  describe('profiles', () => {
    it("serves Google's userinfo for a bearer token or an access_token parameter", async () => {
      const { access_token } = await accessToken('google', 'grace');
      const users = (await request(shop.server).get(`${CONTROL}/users`).expect(200)).body as Json[];
      const grace = users.find((user) => user.key === 'grace') as { subjects: Record<string, string> };
      const expected = {
        sub: grace.subjects.google,
        name: 'Grace Hopper',
        given_name: 'Grace',
        family_name: 'Hopper',
        email: 'grace@sandbox.example',
        email_verified: false,
      };
      expect(
        (await sandbox().get(`${BASE}/google/userinfo`).auth(String(access_token), { type: 'bearer' })).body,
      ).toEqual(expected);
      expect((await sandbox().get(`${BASE}/google/userinfo?access_token=${access_token}`)).body).toEqual(expected);
      const bad = await sandbox().get(`${BASE}/google/userinfo?access_token=nope`);
      expect(bad.status).toBe(401);
      expect(bad.body).toEqual({ error: 'invalid_request', error_description: 'Invalid Credentials' });
    });

    it("serves the Graph API's /me with the asked fields, the proof checked and no unconfirmed e-mail", async () => {
      const { access_token } = await accessToken('facebook', 'ada');
      const token = String(access_token);
      const proof = createHmac('sha256', 'sandbox-secret').update(token).digest('hex');
      const me = await sandbox().get(
        `${BASE}/facebook/me?fields=id,name,first_name,last_name,email&access_token=${token}&appsecret_proof=${proof}`,
      );
      expect(me.status).toBe(200);
      expect(me.body).toEqual({
        id: expect.stringMatching(/^10\d{14}$/),
        name: 'Ada Lovelace',
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'ada@sandbox.example',
      });
      expect((await sandbox().get(`${BASE}/facebook/me?access_token=${token}`)).body).toEqual({
        id: me.body.id,
        name: 'Ada Lovelace',
      });
      const wrongProof = await sandbox().get(`${BASE}/facebook/me?access_token=${token}&appsecret_proof=00`);
      expect(wrongProof.status).toBe(400);
      expect(wrongProof.body.error.code).toBe(100);
      const unknown = await sandbox().get(`${BASE}/facebook/me?fields=id,birthday&access_token=${token}`);
      expect(unknown.body.error.message).toContain('nonexisting field (birthday)');
      const badToken = await sandbox().get(`${BASE}/facebook/me?access_token=nope`);
      expect(badToken.body.error).toMatchObject({ type: 'OAuthException', code: 190 });

      const grace = String((await accessToken('facebook', 'grace')).access_token);
      const unconfirmed = await sandbox().get(`${BASE}/facebook/me?fields=id,email&access_token=${grace}`);
      expect(unconfirmed.body).toEqual({ id: expect.any(String) });
    });
  });

  describe('Apple id_token', () => {
    async function idToken() {
      const body = await accessToken('apple', 'ada');
      expect(body).toEqual({
        access_token: expect.any(String),
        token_type: 'Bearer',
        expires_in: 3600,
        refresh_token: expect.any(String),
        id_token: expect.any(String),
      });
      const [header, claims, signature] = String(body.id_token).split('.');
      const keys = (await sandbox().get(`${BASE}/apple/keys`).expect(200)).body.keys as JsonWebKey[];
      const jwk = keys.find((key) => key.kid === decodePart(header).kid)!;
      const valid = verify(
        'sha256',
        Buffer.from(`${header}.${claims}`),
        createPublicKey({ key: jwk, format: 'jwk' }),
        Buffer.from(signature, 'base64url'),
      );
      return { header: decodePart(header), claims: decodePart(claims), valid };
    }

    it('is an RS256 JWT verifiable with the JWKS, naming the client, the nonce and the e-mail', async () => {
      const { header, claims, valid } = await idToken();
      expect(valid).toBe(true);
      expect(header).toEqual({ alg: 'RS256', kid: expect.any(String) });
      const now = Math.floor(Date.now() / 1000);
      expect(claims).toEqual({
        iss: `${issuerHost}${BASE}/apple`,
        aud: 'com.example.client',
        exp: expect.any(Number),
        iat: expect.any(Number),
        auth_time: expect.any(Number),
        sub: expect.stringMatching(/^\d{6}\.[0-9a-f]{32}\.\d{4}$/),
        nonce: 'nonce-123',
        nonce_supported: true,
        email: 'ada@sandbox.example',
        email_verified: 'true',
        is_private_email: 'false',
      });
      expect(claims.exp as number).toBeGreaterThan(now);
    });

    it('is spoiled on request: a bad signature, another audience', async () => {
      await request(shop.server).post(`${CONTROL}/id-token`).send({ fault: 'bad-signature' }).expect(200);
      expect((await idToken()).valid).toBe(false);
      await request(shop.server).post(`${CONTROL}/id-token`).send({ fault: 'wrong-audience' }).expect(200);
      const spoiled = await idToken();
      expect(spoiled.valid).toBe(true);
      expect(spoiled.claims.aud).not.toBe('com.example.client');
    });
  });

  describe('control', () => {
    it('adds and changes test users, who then appear on the sign-in page', async () => {
      const added = await request(shop.server)
        .post(`${CONTROL}/users`)
        .send({ firstName: 'Dorothy', lastName: 'Vaughan', email: 'dv@example.com' })
        .expect(200);
      expect(added.body).toEqual({
        key: expect.any(String),
        firstName: 'Dorothy',
        lastName: 'Vaughan',
        email: 'dv@example.com',
        emailVerified: true,
        subjects: { google: expect.any(String), facebook: expect.any(String), apple: expect.any(String) },
      });
      await request(shop.server).post(`${CONTROL}/users/${added.body.key}`).send({ emailVerified: false }).expect(200);
      const page = await sandbox().get(`${BASE}/google/authorize?${authorizeQuery('google')}`);
      expect(page.text).toContain('Dorothy Vaughan &lt;dv@example.com&gt; (unverified e-mail)');
    });

    it.each([
      ['users', { firstName: 'A', lastName: 'B', email: 'not-an-email' }, 'email must be an e-mail address.'],
      ['users', { firstName: '', lastName: 'B', email: 'a@b.example' }, 'firstName must be a non-empty string.'],
      ['users', { firstName: 'A', lastName: 'B', email: 'a@b.example', emailVerified: 'yes' }, 'emailVerified'],
      ['id-token', { fault: 'sometimes' }, 'fault must be one of'],
      ['mode', { mode: 'slow' }, 'mode must be one of'],
    ])('answers 400 for a bad %s body', async (path, body, message) => {
      const res = await request(shop.server).post(`${CONTROL}/${path}`).send(body);
      expect(res.status).toBe(400);
      expect(res.body.error_description).toContain(message);
    });

    it('answers 404 for a user it does not have', async () => {
      expect((await request(shop.server).post(`${CONTROL}/users/nobody`).send({})).status).toBe(404);
    });
  });
});
