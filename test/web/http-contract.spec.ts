import request from 'supertest';
import { productBySku } from '../support/catalog';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp } from '../support/test-app';

/** The JSON error shape, CSRF, validation, unknown routes and the basic endpoints. */
describe('HTTP contract', () => {
  let shop: TestApp;
  beforeAll(async () => (shop = await startTestApp({ env: { API_DOCS: 'on' } })));
  afterAll(() => shop.close());

  it('answers /health with the database state', async () => {
    const res = await request(shop.server).get('/health').expect(200);
    expect(res.body).toEqual({ status: 'ok', db: 'ok', redis: shop.config.redisUrl ? 'ok' : 'off' });
  });

  it('answers an unknown route with a 404 JSON error, never a 500', async () => {
    const res = await request(shop.server).get('/shop/no-such-page').expect(404);
    expect(res.body).toEqual({
      success: false,
      error: { code: 'not_found', message: 'Cannot GET /shop/no-such-page' },
    });
    await request(shop.server).post('/shop/nothing/here').send({ a: 1 }).expect(404);
  });

  it('renders an HTML error page for a browser', async () => {
    const res = await request(shop.server).get('/shop/no-such-page').set('Accept', 'text/html').expect(404);
    expect(res.text).toContain('Page not found');
    expect(res.text).toContain('<meta name="viewport"');
  });

  it('rejects a state-changing request without a CSRF token with a 403 JSON error', async () => {
    const client = new ShopClient(shop.server);
    await client.csrfToken();
    const res = await client.agent.post('/admin/login').send({ email: 'admin@example.com', password: 'x' }).expect(403);
    expect(res.body).toEqual({
      success: false,
      error: { code: 'csrf_invalid', message: expect.stringContaining('Reload the page') },
    });
    const forged = await client.agent
      .post('/admin/login')
      .set('X-CSRF-Token', 'f'.repeat(64))
      .send({ email: 'admin@example.com', password: 'x' });
    expect(forged.status).toBe(403);
  });

  it('hands out a stable token per session', async () => {
    const client = new ShopClient(shop.server);
    const first = await client.get('/shop/customer/csrf-token').expect(200);
    const second = await client.get('/shop/customer/csrf-token').expect(200);
    expect(first.body.csrfToken).toMatch(/^[0-9a-f]{64}$/);
    expect(second.body.csrfToken).toBe(first.body.csrfToken);
    expect(first.headers['cache-control']).toBe('no-store');
    const cookie = String(first.headers['set-cookie']);
    expect(cookie).toMatch(/shop\.sid=/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
  });

  it('answers a bad body with 400 and the offending fields', async () => {
    const client = new ShopClient(shop.server);
    const res = await client.post('/admin/login', { email: 'not-an-email', extra: 'dropped' });
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.fields.email).toEqual(['email must be an email']);
    expect(res.body.error.fields.password).toEqual(expect.arrayContaining(['password must be a string']));
  });

  it('answers malformed JSON with a 400, not a 500', async () => {
    const client = new ShopClient(shop.server);
    const res = await client.agent
      .post('/admin/login')
      .set('X-CSRF-Token', await client.csrfToken())
      .set('Content-Type', 'application/json')
      .send('{"email": ')
      .expect(400);
    expect(res.body).toEqual({
      success: false,
      error: { code: 'invalid_json', message: 'The request body is not valid JSON.' },
    });
  });

  it.each([
    ['without a Content-Type', undefined, Buffer.from('loginName=ada%40example.com&password=x')],
    ['as text/plain', 'text/plain', 'loginName=ada@example.com'],
    ['as XML', 'application/xml', '<login><loginName>ada@example.com</loginName></login>'],
    ['as a form that does not parse', 'application/x-www-form-urlencoded', '%E0%A4%A=&&=%'],
  ])(
    'answers a login or registration body sent %s as one with no fields, never with a 500',
    async (_label, type, body) => {
      const client = new ShopClient(shop.server);
      const token = await client.csrfToken();
      const answers = [];
      for (const path of ['/shop/login', '/shop/authorize', '/shop/create-account', '/shop/register']) {
        const post = client.agent.post(path).set('X-CSRF-Token', token).set('Accept', 'application/json');
        const res = await (type ? post.type(type) : post).send(body);
        answers.push({ path, status: res.status, location: res.headers.location, error: res.body.error?.code });
      }
      // The form routes send the browser back to their form, as for any refused form; the JSON route answers 400.
      expect(answers).toEqual([
        { path: '/shop/login', status: 303, location: '/shop/login', error: undefined },
        { path: '/shop/authorize', status: 303, location: '/shop/login', error: undefined },
        { path: '/shop/create-account', status: 303, location: '/shop/register', error: undefined },
        { path: '/shop/register', status: 400, location: undefined, error: 'validation_failed' },
      ]);
      const product = await productBySku(shop.dataSource, 'DEMO-STICKER-LOGO');
      const added = await client.agent
        .post('/shop/cart/add')
        .set('X-CSRF-Token', token)
        .set('X-Requested-With', 'XMLHttpRequest')
        .send({ product: product.id, qty: 1 });
      expect(added.status).toBe(200);
    },
  );

  it('redirects a failed browser form post back with a flash message', async () => {
    const client = new ShopClient(shop.server);
    await client.get('/admin/login').expect(200);
    const res = await client.submitForm('/admin/login', { email: 'nobody@example.com', password: 'wrong-password' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/admin/login?next=%2Fadmin');
    const page = await client.get(res.headers.location).set('Accept', 'text/html').expect(200);
    expect(page.text).toContain('Wrong e-mail or password.');
    const again = await client.get('/admin/login').set('Accept', 'text/html').expect(200);
    expect(again.text).not.toContain('Wrong e-mail or password.');
  });

  it('sends a content security policy without inline scripts, and no X-Powered-By', async () => {
    const res = await request(shop.server).get('/').expect(200);
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.text).toContain('<h1>Demo Outdoor &amp; Coffee</h1>');
  });

  it('serves static files and every image the home page links to', async () => {
    const home = await request(shop.server).get('/').expect(200);
    const assets = [...home.text.matchAll(/(?:src|href)="(\/public\/[^"]+)"/g)].map((match) => match[1]);
    expect(assets.length).toBeGreaterThan(5);
    for (const asset of assets) await request(shop.server).get(asset).expect(200);
  });

  it('publishes an OpenAPI document of the JSON endpoints when API_DOCS is on', async () => {
    const res = await request(shop.server).get('/api-docs-json').expect(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining(['/health', '/shop/customer/csrf-token']));
    expect(Object.keys(res.body.paths).some((path) => path.startsWith('/admin'))).toBe(false);
  });
});
