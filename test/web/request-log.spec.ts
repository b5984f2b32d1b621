import { Logger } from 'nestjs-pino';
import request from 'supertest';
import { QueryFailedError } from 'typeorm';
import { GiftCardIssuer } from '../../src/commerce/gift-cards/gift-card-issuer.service';
import { redactUrl } from '../../src/common/redact-url';
import { captureOutput } from '../flow/flow-helpers';
import { productBySku } from '../support/catalog';
import { addToCart } from '../support/checkout';
import { registerCustomer } from '../support/customers';
import { ShopClient } from '../support/shop-client';
import { mailText, resetMailTo, startSmtpCapture } from '../support/smtp-capture';
import { eventually, startTestApp, TestApp, usingMysql } from '../support/test-app';

const HTML = { Accept: 'text/html' };

/** Path parameters that are credentials by name: a route with one must be in SECRET_ROUTES. */
const CREDENTIAL_PARAMS = /^(secret|token|code|uid|signature|orderNumber)$/;

/** Request logs keep no bearer secret, whatever carries it (path, query, header, redirect). */
describe(`request logs (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
  let output: ReturnType<typeof captureOutput>;
  /** pino's JSON lines: captured before the app starts, stdout is where pino writes them. */
  const lines = () =>
    output
      .text()
      .split('\n')
      .filter((line) => line.startsWith('{"level"'));
  const logged = () => lines().join('\n');
  const loggedUrls = () => lines().map((line) => (JSON.parse(line) as { req?: { url: string } }).req?.url);
  /** Waits for these request lines: a response is logged when it finishes, which may be after the client has it. */
  const whenLogged = (...urls: string[]) => eventually(() => urls.every((url) => loggedUrls().includes(url)));

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    output = captureOutput();
    shop = await startTestApp({ env: { LOG_LEVEL: 'info', SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await shop.close();
    output.stop();
    await smtp.close();
  });

  it('logs gift-card lookups without the code', async () => {
    const { code } = await shop.app.get(GiftCardIssuer).issueByStaff({ amount: 25, issuedBy: 'test' });
    await request(shop.server).get(`/shop/marketing/gift-cards/item-details/${code}`).expect(200);
    await request(shop.server).get(`/shop/marketing/gift-cards/preview-card/${code}`).expect(200);

    await whenLogged(
      '/shop/marketing/gift-cards/item-details/[redacted]',
      '/shop/marketing/gift-cards/preview-card/[redacted]',
    );
    expect(logged()).not.toContain(code);
  });

  it('logs a shared cart link without its token, and no cookie or CSRF token', async () => {
    const owner = new ShopClient(shop.server);
    const first = await owner.get('/shop/customer/csrf-token').expect(200);
    const session = String(first.headers['set-cookie']).split(';')[0].split('=')[1];
    await addToCart(owner, (await productBySku(shop.dataSource, 'DEMO-TENT-2P')).id);
    const shared = await owner.post('/shop/cart/share-create');
    expect(shared.status).toBe(200);
    const { token } = shared.body as { token: string };
    const csrf = await owner.csrfToken();
    await owner.get(`/shop/cart/share/${token}`).set('X-CSRF-Token', csrf).expect(302);

    await whenLogged('/shop/cart/share/[redacted]');
    expect(logged()).not.toContain(token);
    expect(logged()).not.toContain(csrf);
    expect(session).toBeTruthy();
    expect(logged()).not.toContain(session);
  });

  it('logs a password reset without its token, code or redirects, and no Authorization or Referer', async () => {
    const email = await registerCustomer(new ShopClient(shop.server));
    const browser = new ShopClient(shop.server);
    expect((await browser.post('/shop/forgotten-password', { email })).status).toBe(200);
    const mail = await eventually(() => resetMailTo(smtp.messages, email));
    const text = mailText(mail);
    const token = /\/shop\/create-new-password\?token=([0-9a-f]{64})\s/.exec(text)![1];
    const code = /one-time code: (\d{6})\b/.exec(text)![1];

    const link = await browser
      .get(`/shop/create-new-password?token=${token}`)
      .set(HTML)
      .set('Authorization', 'Bearer not-for-logs')
      .expect(302);
    expect(link.headers.location).toBe(`/shop/verify-otp?token=${token}`);
    await browser.get(link.headers.location).set(HTML).expect(200);
    const csrf = await browser.csrfToken();
    const verified = await browser.agent
      .post('/shop/verify-otp-post')
      .type('form')
      .set(HTML)
      .set('Referer', `http://127.0.0.1/shop/verify-otp?token=${token}`)
      .send({ token, code, _csrf: csrf })
      .expect(303);
    expect(verified.headers.location).toBe(`/shop/create-new-password?token=${token}`);

    await whenLogged(
      '/shop/create-new-password?token=[redacted]',
      '/shop/verify-otp?token=[redacted]',
      '/shop/verify-otp-post',
    );
    expect(logged()).not.toContain(token);
    expect(logged()).not.toContain(`"${code}"`);
    expect(logged()).not.toContain('not-for-logs');
    // Responses are logged by their status only.
    const verifyLine = lines()
      .map((line) => JSON.parse(line))
      .find((line) => line.req?.url === '/shop/verify-otp-post');
    expect(verifyLine.res).toEqual({ statusCode: 303 });
  });

  it("logs a failed query's error without the values it was given, whatever the database writes into it", async () => {
    const insert = () =>
      shop.dataSource.query('INSERT INTO settings (`key`, `value`, `dateCreated`, `dateUpdated`) VALUES (?, ?, ?, ?)', [
        'secret-key-value',
        '"reset link secret-value"',
        '2026-01-01 00:00:00',
        '2026-01-01 00:00:00',
      ]);
    await insert();
    const error = await insert().catch((refused: unknown) => refused);
    expect(error).toBeInstanceOf(QueryFailedError);
    expect(JSON.stringify({ ...(error as object), message: (error as Error).message })).toContain('secret-');
    shop.app.get(Logger).error({ err: error }, 'a write failed');
    expect(logged()).toContain('a write failed');
    expect(logged()).toContain('QueryFailedError');
    expect(logged()).not.toContain('secret-');
  });

  it('knows every route whose path carries a credential', () => {
    const router = shop.app.getHttpAdapter().getInstance().router as { stack: Array<{ route?: { path: unknown } }> };
    const paths = router.stack.flatMap((layer) => [layer.route?.path ?? []].flat()).map(String);
    const withCredentials = paths.filter((path) =>
      path.split('/').some((part) => CREDENTIAL_PARAMS.test(part.slice(1))),
    );
    expect(withCredentials.length).toBeGreaterThanOrEqual(9);
    for (const path of withCredentials) {
      const url = path.replace(/:(\w+)/g, (_, name: string) => (CREDENTIAL_PARAMS.test(name) ? `S3CR3T-${name}` : '7'));
      expect(`${path} → ${redactUrl(url)}`).not.toContain('S3CR3T');
    }
  });
});
