import request from 'supertest';
import { Customer } from '../../src/commerce/customers/customer.entity';
import { MarketingConsent } from '../../src/commerce/marketing/marketing-consent.entity';
import { SettingsService } from '../../src/config/settings.service';
import { CUSTOMER_PASSWORD } from '../support/customers';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp, usingMysql } from '../support/test-app';

const HTML = { Accept: 'text/html' };
const SCRIPT = 'https://analytics.example.com/script.js';
const SCRIPT_TAG = `<script src="${SCRIPT}" defer></script>`;

/** The CSP's script-src sources. */
function scriptSrc(csp: string): string[] {
  const directive = csp.split(';').find((part) => part.startsWith('script-src '));
  return directive?.split(/\s+/).slice(1) ?? [];
}

/** Consent where the shop collects an address (registration), and the cookie notice for an optional script. */
describe(`consent: registration and the cookie notice (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let settings: SettingsService;
  beforeAll(async () => {
    shop = await startTestApp();
    settings = shop.app.get(SettingsService);
  });
  afterAll(() => shop.close());

  const consentsOf = (email: string) =>
    shop.dataSource.getRepository(MarketingConsent).find({ where: { email }, order: { id: 'ASC' } });

  it('offers the consent at registration, unticked, and records it with the account only when ticked', async () => {
    const form = await new ShopClient(shop.server).get('/shop/register').set(HTML).expect(200);
    expect(form.text).toContain('<input id="marketingConsent" name="marketingConsent" type="checkbox" value="true">');

    const details = { password: CUSTOMER_PASSWORD, firstName: 'Ada', lastName: 'Lovelace' };
    const without = await new ShopClient(shop.server).post('/shop/register', {
      email: 'quiet@example.com',
      ...details,
    });
    expect(without.status).toBe(200);
    expect(await consentsOf('quiet@example.com')).toEqual([]);

    const client = new ShopClient(shop.server);
    const token = await client.csrfToken();
    const registered = await client.agent
      .post('/shop/create-account')
      .type('form')
      .set(HTML)
      .send({ email: 'Keen@Example.com', ...details, marketingConsent: 'true', _csrf: token });
    expect(registered.status).toBe(303);
    const customer = await shop.dataSource.getRepository(Customer).findOneByOrFail({ email: 'keen@example.com' });
    expect(await consentsOf('keen@example.com')).toEqual([
      expect.objectContaining({
        granted: true,
        source: 'registration',
        customerId: customer.id,
        wordingKey: 'consent.marketing.v1',
        wording: expect.stringContaining('I can withdraw this at any time'),
      }),
    ]);
    // The account page shows it and changes it.
    const page = await client.get('/shop/account/subscriptions').set(HTML).expect(200);
    expect(page.text).toMatch(/You agreed on [\d-]+ [\d:]+ UTC \(when registering\)\./);
  });

  it('shows no cookie notice and no optional script while none is configured', async () => {
    expect(settings.get('privacyOptionalScriptUrl')).toBe('');
    const home = await request(shop.server).get('/').set(HTML).expect(200);
    expect(home.text).not.toContain('cookie-notice');
    expect(home.text).not.toContain('<script src="https://');
    expect(scriptSrc(home.headers['content-security-policy'])).not.toContain('analytics.example.com');
    // The shop sets no cookie on a first visit.
    expect(home.headers['set-cookie']).toBeUndefined();
  });

  it('shows the notice with a configured script, and names the script only after the visitor allows it', async () => {
    await settings.save({ privacyOptionalScriptUrl: SCRIPT });
    try {
      const visitor = new ShopClient(shop.server);
      const first = await visitor.get('/').set(HTML).expect(200);
      expect(first.text).toContain('<section class="cookie-notice"');
      expect(first.text).toContain('With your permission it also loads analytics.example.com');
      expect(first.text).not.toContain(SCRIPT);
      expect(scriptSrc(first.headers['content-security-policy'])).toContain('https://analytics.example.com');

      // Declining hides the notice and keeps the script out.
      const decliner = new ShopClient(shop.server);
      expect((await decliner.post('/shop/cookie-consent', { choice: 'decline' })).body).toEqual({
        success: true,
        cookieConsent: 'declined',
      });
      const declined = await decliner.get('/shop/catalog/products').set(HTML).expect(200);
      expect(declined.text).not.toContain('cookie-notice');
      expect(declined.text).not.toContain(SCRIPT);

      // Allowing, as the notice's plain form does: back to the page with the script tag.
      const token = await visitor.csrfToken();
      const allowed = await visitor.agent
        .post('/shop/cookie-consent')
        .type('form')
        .set(HTML)
        .set('Referer', `${shop.config.baseUrl}/shop/catalog/products`)
        .send({ choice: 'accept', _csrf: token });
      expect(allowed.status).toBe(303);
      expect(allowed.headers.location).toBe('/shop/catalog/products');
      const after = await visitor.get('/shop/catalog/products').set(HTML).expect(200);
      expect(after.text).toContain(SCRIPT_TAG);
      expect(after.text).not.toContain('<section class="cookie-notice"');
      expect(after.headers['cache-control']).toBe('no-store');

      const bad = await visitor.post('/shop/cookie-consent', { choice: 'maybe' });
      expect(bad.status).toBe(400);
      expect(bad.body.error.fields).toEqual({ choice: ['must be accept or decline'] });
    } finally {
      await settings.save({ privacyOptionalScriptUrl: '' });
    }
  });

  it('brings the notice back from a "Cookie settings" footer link, to withdraw or change the answer', async () => {
    const link = '<a href="/shop/cookie-consent">Cookie settings</a>';
    expect((await request(shop.server).get('/').set(HTML).expect(200)).text).not.toContain(link);
    await request(shop.server).get('/shop/cookie-consent').set(HTML).expect(404);

    await settings.save({ privacyOptionalScriptUrl: SCRIPT });
    try {
      const visitor = new ShopClient(shop.server);
      expect((await visitor.get('/').set(HTML).expect(200)).text).toContain(link);
      const unanswered = await visitor.get('/shop/cookie-consent').set(HTML).expect(200);
      expect(unanswered.text).toContain('You have not chosen yet: please choose below.');
      expect(unanswered.text.match(/<section class="cookie-notice"/g)).toHaveLength(1);

      expect((await visitor.post('/shop/cookie-consent', { choice: 'accept' })).status).toBe(200);
      const accepted = await visitor.get('/shop/catalog/products').set(HTML).expect(200);
      expect(accepted.text).toContain(SCRIPT_TAG);
      expect(accepted.text).not.toContain('<section class="cookie-notice"');
      expect(accepted.text).toContain(link);

      // The settings page shows the answer and the notice's forms again; declining there withdraws the consent.
      const page = await visitor.get('/shop/cookie-consent').set(HTML).expect(200);
      expect(page.text).toContain('<h1>Cookie settings</h1>');
      expect(page.text).toContain('You allowed analytics.example.com. You can change this below at any time.');
      expect(page.text).toContain('<section class="cookie-notice"');
      expect(page.text).toContain('<input type="hidden" name="choice" value="decline">');
      const token = await visitor.csrfToken();
      const declined = await visitor.agent
        .post('/shop/cookie-consent')
        .type('form')
        .set(HTML)
        .set('Referer', `${shop.config.baseUrl}/shop/cookie-consent`)
        .send({ choice: 'decline', _csrf: token });
      expect(declined.status).toBe(303);
      expect(declined.headers.location).toBe('/shop/cookie-consent');
      const after = await visitor.get('/shop/cookie-consent').set(HTML).expect(200);
      expect(after.text).toContain('Only the necessary cookies are used. You can change this below at any time.');
      expect(after.text).not.toContain(SCRIPT);
    } finally {
      await settings.save({ privacyOptionalScriptUrl: '' });
    }
  });

  it('accepts only a blank or https script URL', async () => {
    for (const url of ['http://analytics.example.com/a.js', 'javascript:alert(1)', 'https://u:p@example.com/a.js']) {
      await expect(settings.save({ privacyOptionalScriptUrl: url })).rejects.toThrow(/must be blank or an https URL/);
    }
    expect(settings.get('privacyOptionalScriptUrl')).toBe('');
  });
});
