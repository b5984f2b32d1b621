import request from 'supertest';
import { Order } from '../../src/commerce/orders/order.entity';
import { PaymentTransaction } from '../../src/commerce/payments/payment-transaction.entity';
import { SettingsService } from '../../src/config/settings.service';
import { demoSettings } from '../../src/database/seeds/demo-settings';
import { productBySku } from '../support/catalog';
import { runCli } from '../support/cli';
import { addToCart, shippingValue } from '../support/checkout';
import { BANK_CONTROL, chooseAtBank, comeBackFromBank, placeBankOrder } from '../support/sandbox-bank';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp, usingMysql } from '../support/test-app';
import { storedSetting } from '../support/settings';

const SECTIONS = ['general', 'credentials', 'pricing', 'restrictions', 'test-cards'];
const BANKPAY_CODES = ['bankpay', 'bankpay-bank', 'bankpay-qr', 'bankpay-loan'];

/** The bankpay settings as the demo seed leaves them, plus the defaults of those the seed does not set. */
const baseline = (sessionSecret: string): Record<string, unknown> => ({
  ...Object.fromEntries(Object.entries(demoSettings(sessionSecret)).filter(([key]) => key.startsWith('bankpay.'))),
  'bankpay.gatewayBaseUrl': '',
  'bankpay.cardPayUrl': '',
  'bankpay.cardPayPublicKeys': {},
  'bankpay.fee': 0,
  'bankpay.minOrderTotal': 0,
  'bankpay.maxOrderTotal': 0,
  'bankpay.countries': [],
});

/** The form each section posts when nothing is changed: secrets blank (kept), the rest as seeded. */
const FORMS: Record<string, Record<string, string>> = {
  general: {
    paymentType: 'bankPayPlusAPI',
    enablePayLaterType: 'on',
    enableBankTransfer: 'on',
    enableQrPay: 'on',
  },
  credentials: {
    merchantMid: 'demo',
    secretKey: '',
    apiKey: '',
    clientSecret: '',
    gatewayBaseUrl: '',
    cardPayUrl: '',
    cardPayPublicKeys: '{}',
  },
  pricing: { fee: '0' },
  restrictions: { minOrderTotal: '0', maxOrderTotal: '0', countries: '[]' },
  'test-cards': { sandbox: 'off' }, // an unticked box sends only its hidden field
};

/**
 * The gateway's control-panel pages against the sandbox bank on loopback: who may open them, what the
 * dashboard reports, the settings sections (secrets masked, every value checked, the bank's method list
 * forgotten on save), the credentials test, loan previews, restrictions, and the order page's Check
 * Payment Status button that settles a payment the shopper never came back from.
 */
describe(`bankpay control panel (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  // The CardPay key the demo seed stored: this install's own, made from its session secret.
  let secretKey: string;
  let staff: ShopClient;
  let flatRate: string;
  beforeAll(async () => {
    shop = await startTestApp({ listen: true });
    secretKey = demoSettings(shop.config.sessionSecret)['bankpay.secretKey'] as string;
    flatRate = await shippingValue(shop.dataSource, 'flat-rate');
    staff = new ShopClient(shop.server);
    await staff.loginCp();
  });
  afterAll(() => shop.close());

  const placed = (code: string, sku?: string, qty?: number) => placeBankOrder(shop, flatRate, code, sku, qty);
  const choose = (redirect: string, outcome: string) => chooseAtBank(shop, redirect, outcome);
  const comeBack = comeBackFromBank;
  beforeEach(async () => {
    // The seeded settings (a save also empties the methods cache), and a bank that forgot everything.
    await shop.app.get(SettingsService).save(baseline(shop.config.sessionSecret));
    await bank().post(`${BANK_CONTROL}/reset`).expect(200);
  });

  const bank = () => request(shop.server);
  const bankStats = async () =>
    (await bank().get(`${BANK_CONTROL}/stats`).expect(200)).body as {
      tokenRequests: Record<string, number>;
      requests: Record<string, number>;
    };
  const methodsRequests = async () => (await bankStats()).requests['GET /v1/payments/methods'] ?? 0;
  const reload = (id: number) => shop.dataSource.getRepository(Order).findOneByOrFail({ id });
  const attempts = (orderId: number) =>
    shop.dataSource.getRepository(PaymentTransaction).find({ where: { orderId }, order: { id: 'ASC' } });
  const stored = (key: string) => storedSetting(shop, key);
  const setting = (key: string) => shop.app.get(SettingsService).value(key);
  const page = (client: ShopClient, path: string) => client.get(path).set('Accept', 'text/html');

  /** A CP form post without a Referer (browsers may omit it): the save answers with its own section anyway. */
  async function submit(client: ShopClient, path: string, fields: Record<string, string>) {
    const res = await client.submitForm(path, fields);
    expect(res.status).toBe(303);
    const next = await page(client, res.headers.location as string);
    return { location: res.headers.location as string, status: next.status, text: next.text };
  }

  const saveSection = (section: string, changes: Record<string, string> = {}, client = staff) =>
    submit(client, '/admin/bankpay/settings/save', { section, ...FORMS[section], ...changes });

  /** The bankpay codes checkout offers for a cart of one headlamp (39.00 EUR). */
  async function offeredCodes(shopper: ShopClient, country: string) {
    const res = await shopper
      .get(`/shop/checkout/get-payment-methods?code=${country}&shipping-method=${encodeURIComponent(flatRate)}`)
      .expect(200);
    return (res.body.payment_methods as Array<{ code: string }>)
      .map((method) => method.code)
      .filter((code) => BANKPAY_CODES.includes(code));
  }

  describe('access', () => {
    it('sends a visitor without a CP session to the CP login', async () => {
      const res = await request(shop.server).get('/admin/bankpay/dashboard').expect(302);
      expect(res.headers.location).toBe('/admin/login?next=%2Fadmin%2Fbankpay%2Fdashboard');
      const settings = await request(shop.server).get('/admin/bankpay/settings/general').expect(302);
      expect(settings.headers.location).toBe('/admin/login?next=%2Fadmin%2Fbankpay%2Fsettings%2Fgeneral');
    });

    it('answers 403 to a CP user without accessPlugin-bankpay, and 200 to one with it and to the admin', async () => {
      const clerk = await runCli(shop.place, 'cp:create-user', 'clerk@example.com', '--password', 'clerk-password-1');
      expect(clerk.json).toMatchObject({ ok: true, permissions: [] });
      const cashier = await runCli(
        shop.place,
        'cp:create-user',
        'cashier@example.com',
        '--password',
        'cashier-password',
        '--permission',
        'accessPlugin-bankpay',
      );
      expect(cashier.json).toMatchObject({ ok: true, permissions: ['accessPlugin-bankpay'] });

      const denied = new ShopClient(shop.server);
      await denied.loginCp('clerk@example.com', 'clerk-password-1');
      const forbidden = await denied.get('/admin/bankpay/dashboard').expect(403);
      expect(forbidden.body.error).toEqual({
        code: 'forbidden',
        message: 'You need the accessPlugin-bankpay permission to open this page.',
      });
      expect((await page(denied, '/admin/bankpay/dashboard')).status).toBe(403);
      expect((await page(denied, '/admin/bankpay/settings/credentials')).status).toBe(403);
      // Nor may the clerk save a section.
      const save = await denied.post('/admin/bankpay/settings/save', { section: 'pricing', fee: '999' });
      expect(save.status).toBe(403);
      expect(await stored('bankpay.fee')).toBe(0);

      const granted = new ShopClient(shop.server);
      await granted.loginCp('cashier@example.com', 'cashier-password');
      const dashboard = await page(granted, '/admin/bankpay/dashboard').expect(200);
      expect(dashboard.text).toContain('<h1>Bank payments</h1>');
      await page(granted, '/admin/bankpay/settings/general').expect(200);
      const landing = await granted.get('/admin/bankpay').expect(302);
      expect(landing.headers.location).toBe('/admin/bankpay/dashboard');

      await page(staff, '/admin/bankpay/dashboard').expect(200);
    });
  });

  describe('dashboard', () => {
    it('shows bank payments by status and by method, the latest failures and the bank’s methods', async () => {
      const card = await placed('bankpay');
      expect(await comeBack(card.client, await choose(card.redirect, 'card-ok'))).toBe('/shop/checkout/success');
      const gaveUp = await placed('bankpay');
      expect(await comeBack(gaveUp.client, await choose(gaveUp.redirect, 'cancel'))).toBe('/shop/checkout/failed');
      const transfer = await placed('bankpay-bank');
      expect((await reload(card.order.id)).status).toBe('paid');
      expect((await reload(gaveUp.order.id)).status).toBe('canceled');
      const [canceled] = await attempts(gaveUp.order.id);
      expect(canceled.status).toBe('canceled');

      // What the dashboard should count, from the database (earlier tests may have paid with the bank too).
      const all = await shop.dataSource.getRepository(PaymentTransaction).findBy({ gateway: 'bankpay' });
      const count = (match: (t: PaymentTransaction) => boolean) => all.filter(match).length;

      const dashboard = await page(staff, '/admin/bankpay/dashboard').expect(200);
      const text = dashboard.text;
      expect(text).toContain('Payment Type <strong>bankPayPlusAPI</strong>');
      expect(text).not.toContain('sandbox mode');
      for (const status of ['success', 'canceled', 'pending']) {
        expect(text).toContain(
          `<tr><td><span class="status status-${status}">${status}</span></td><td>${count((t) => t.status === status)}</td></tr>`,
        );
      }
      for (const code of ['bankpay', 'bankpay-bank']) {
        const paid = count((t) => t.code === code && t.status === 'success');
        expect(text).toContain(
          `<tr><td><code>${code}</code></td><td>${count((t) => t.code === code)}</td><td>${paid}</td></tr>`,
        );
      }
      // The canceled payment is listed with its order; the paid and the open ones are not failures.
      const failures = text.slice(text.indexOf('<h2>Recent failures</h2>'), text.indexOf('<h2>Methods'));
      expect(failures).toContain(`<a href="/admin/orders/${gaveUp.order.id}">${gaveUp.order.reference}</a>`);
      expect(failures).toContain(canceled.reference);
      expect(failures).not.toContain(card.order.reference);
      expect(failures).not.toContain(transfer.order.reference);
      // The merchant account's methods, as the bank lists them.
      const methods = text.slice(text.indexOf('<h2>Methods'));
      for (const method of ['CARD_PAY', 'BANK_TRANSFER', 'QR_PAY', 'PAY_LATER']) {
        expect(methods).toContain(`<code>${method}</code>`);
      }
      expect(methods).toContain('EUR CZK HUF USD');
      expect(methods).toContain('100–40000');
    });

    it('says so when the bank cannot list its methods', async () => {
      await bank().post(`${BANK_CONTROL}/mode`).send({ mode: 'error' }).expect(200);
      const dashboard = await page(staff, '/admin/bankpay/dashboard').expect(200);
      expect(dashboard.text).toContain('The bank did not list any methods (check the credentials).');
      await bank().post(`${BANK_CONTROL}/mode`).send({ mode: 'normal' }).expect(200);
      // A failure is not cached: the next visit asks again.
      const again = await page(staff, '/admin/bankpay/dashboard').expect(200);
      expect(again.text).toContain('<code>PAY_LATER</code>');
    });

    it('asks the bank for its methods once, and again after any section is saved', async () => {
      await page(staff, '/admin/bankpay/dashboard').expect(200);
      await page(staff, '/admin/bankpay/dashboard').expect(200);
      expect(await methodsRequests()).toBe(1);

      const saved = await saveSection('pricing', { fee: '0' });
      expect(saved.text).toContain('Pricing settings saved.');
      await page(staff, '/admin/bankpay/dashboard').expect(200);
      expect(await methodsRequests()).toBe(2);
      await page(staff, '/admin/bankpay/dashboard').expect(200);
      expect(await methodsRequests()).toBe(2);

      await saveSection('test-cards');
      await page(staff, '/admin/bankpay/dashboard').expect(200);
      expect(await methodsRequests()).toBe(3);
    });
  });

  describe('settings', () => {
    it('renders every section with its fields and tabs, and answers 404 for an unknown one', async () => {
      const landing = await staff.get('/admin/bankpay/settings').expect(302);
      expect(landing.headers.location).toBe('/admin/bankpay/settings/general');
      const fields: Record<string, string[]> = {
        general: ['paymentType', 'enablePayLaterType', 'enableBankTransfer', 'enableQrPay'],
        credentials: ['merchantMid', 'secretKey', 'apiKey', 'clientSecret', 'gatewayBaseUrl', 'cardPayPublicKeys'],
        pricing: ['fee'],
        restrictions: ['minOrderTotal', 'maxOrderTotal', 'countries'],
        'test-cards': ['sandbox'],
      };
      for (const section of SECTIONS) {
        const res = await page(staff, `/admin/bankpay/settings/${section}`).expect(200);
        expect(res.text).toContain(`<input type="hidden" name="section" value="${section}">`);
        expect(res.text).toContain(`<a href="/admin/bankpay/settings/${section}" aria-current="page">`);
        for (const name of fields[section]) expect(res.text).toContain(`name="${name}"`);
      }
      const general = await page(staff, '/admin/bankpay/settings/general');
      expect(general.text).toContain('<option value="bankPayPlusAPI" selected>');
      expect(general.text).toMatch(/id="enableQrPay" name="enableQrPay" type="checkbox" value="on" checked/);
      const credentials = await page(staff, '/admin/bankpay/settings/credentials');
      expect(credentials.text).toContain('name="merchantMid" value="demo"');
      expect(credentials.text).toContain('Test the REST API credentials');

      const unknown = await page(staff, '/admin/bankpay/settings/nope');
      expect(unknown.status).toBe(404);
      expect(unknown.text).toContain('There is no settings section &quot;nope&quot;.');
    });

    it('never puts a stored secret into a settings page, only a masked hint', async () => {
      for (const section of [...SECTIONS, 'pricing?amount=500']) {
        const res = await page(staff, `/admin/bankpay/settings/${section}`).expect(200);
        expect(res.text).not.toContain('sandbox-secret');
        expect(res.text).not.toContain('sandbox-client');
        expect(res.text).not.toContain(secretKey);
        expect(res.text).not.toMatch(/[0-9a-f]{128}/);
      }
      const credentials = await page(staff, '/admin/bankpay/settings/credentials');
      expect(credentials.text).toContain('placeholder="••••••••cret (leave blank to keep)"');
      expect(credentials.text).toContain(`placeholder="••••••••${secretKey.slice(-4)} (leave blank to keep)"`);
      expect(credentials.text).toMatch(/<input id="clientSecret" name="clientSecret" type="password"[^>]*>/);
      expect(credentials.text).not.toMatch(/name="clientSecret"[^>]* value=/);
      const dashboard = await page(staff, '/admin/bankpay/dashboard');
      expect(dashboard.text).not.toContain('sandbox-secret');
    });

    it('keeps a stored secret left blank, and saves the rest with a success flash', async () => {
      const saved = await saveSection('credentials', { merchantMid: 'shop', gatewayBaseUrl: '' });
      expect(saved.location).toBe('/admin/bankpay/settings/credentials');
      expect(saved.text).toContain('<p class="flash flash-success" role="status">Credentials settings saved.</p>');
      expect(saved.text).toContain('name="merchantMid" value="shop"');
      expect(await stored('bankpay.merchantMid')).toBe('shop');
      expect(await stored('bankpay.clientSecret')).toBe('sandbox-secret');
      expect(await stored('bankpay.secretKey')).toBe(secretKey);
      expect(await stored('bankpay.apiKey')).toBe('sandbox-client');
      expect(setting('bankpay.merchantMid')).toBe('shop');
      expect(setting('bankpay.clientSecret')).toBe('sandbox-secret');
      // The CLI, another process reading the same database, sees the change too.
      const cli = await runCli(shop.place, 'settings:get', 'bankpay.merchantMid');
      expect(cli.json).toMatchObject({ ok: true, value: 'shop' });

      // A new secret typed in replaces the stored one.
      await saveSection('credentials', { clientSecret: '  another-secret  ' });
      expect(await stored('bankpay.clientSecret')).toBe('another-secret');
      expect(setting('bankpay.clientSecret')).toBe('another-secret');
    });

    it('refuses an invalid value with an error flash on the section and changes nothing', async () => {
      const refused = await saveSection('credentials', { merchantMid: 'TOO-LONG', clientSecret: 'fresh-secret' });
      expect(refused.location).toBe('/admin/bankpay/settings/credentials');
      expect(refused.text).toContain(
        '<p class="flash flash-error" role="alert">bankpay.merchantMid must be 3 or 4 lowercase letters or digits</p>',
      );
      expect(await stored('bankpay.merchantMid')).toBe('demo');
      expect(await stored('bankpay.clientSecret')).toBe('sandbox-secret');
      expect(setting('bankpay.merchantMid')).toBe('demo');

      const badJson = await saveSection('restrictions', { countries: '["SK", "cz"]', maxOrderTotal: '5000' });
      expect(badJson.text).toContain('bankpay.countries must be a JSON array of two-letter country codes');
      const negative = await saveSection('pricing', { fee: '-1' });
      expect(negative.text).toContain('bankpay.fee must not be negative');
      expect(await stored('bankpay.countries')).toEqual([]);
      expect(await stored('bankpay.maxOrderTotal')).toBe(0);
      expect(await stored('bankpay.fee')).toBe(0);

      // A script gets the error as JSON.
      const json = await staff.post('/admin/bankpay/settings/save', { section: 'pricing', fee: 'lots' });
      expect(json.status).toBe(400);
      expect(json.body.error).toMatchObject({ code: 'invalid_setting', message: 'bankpay.fee must be an integer' });

      const unknown = await staff.submitForm('/admin/bankpay/settings/save', { section: 'secrets' });
      expect(unknown.status).toBe(404);
    });

    it('refuses the card redirect Payment Type while its merchant id is blank', async () => {
      // Blank is fine for the REST API, which needs no MID.
      await saveSection('credentials', { merchantMid: '' });
      expect(await stored('bankpay.merchantMid')).toBe('');

      const refused = await saveSection('general', { paymentType: 'bankCardPay' });
      expect(refused.location).toBe('/admin/bankpay/settings/general');
      expect(refused.text).toContain('<p class="flash flash-error" role="alert">Fill in merchantMid first.</p>');
      expect(await stored('bankpay.paymentType')).toBe('bankPayPlusAPI');
      expect(setting('bankpay.paymentType')).toBe('bankPayPlusAPI');

      await saveSection('credentials', { merchantMid: 'demo' });
      const switched = await saveSection('general', { paymentType: 'bankCardPay', enableQrPay: '' });
      expect(switched.text).toContain('General settings saved.');
      expect(await stored('bankpay.paymentType')).toBe('bankCardPay');
      expect(await stored('bankpay.enableQrPay')).toBe(false);
      const dashboard = await page(staff, '/admin/bankpay/dashboard');
      expect(dashboard.text).toContain('Payment Type <strong>bankCardPay</strong>');
    });

    it('tests the stored REST API credentials with the bank', async () => {
      const ok = await submit(staff, '/admin/bankpay/settings/test', {});
      expect(ok.location).toBe('/admin/bankpay/settings/credentials');
      expect(ok.text).toContain('<p class="flash flash-success" role="status">The bank accepted the credentials.</p>');
      expect((await bankStats()).tokenRequests.BANKPAYPLUS).toBe(1);

      await saveSection('credentials', { clientSecret: 'not-the-secret' });
      const refused = await submit(staff, '/admin/bankpay/settings/test', {});
      expect(refused.location).toBe('/admin/bankpay/settings/credentials');
      expect(refused.text).toContain(
        '<p class="flash flash-error" role="alert">The bank did not issue a token: check the API key, client secret and base URL.</p>',
      );
      expect(refused.text).not.toContain('The bank accepted the credentials.');
      expect((await bankStats()).tokenRequests.BANKPAYPLUS).toBe(2);
    });

    it('previews the bank’s loan terms on the Pricing section', async () => {
      const res = await page(staff, '/admin/bankpay/settings/pricing?amount=500').expect(200);
      expect(res.text).toContain('<h2>Loan terms for 500 EUR</h2>');
      expect(res.text).toContain('<td>12 (suggested)</td><td>43.93</td><td>9.9</td><td>10.36</td><td>527.16</td>');
      expect(res.text).toContain('<td>6</td><td>85.76</td>');
      expect(res.text).toContain('<td>24</td><td>23.05</td>');
      expect((await bankStats()).requests['PUT /v1/payments/loans/precalculation']).toBe(1);

      const fallback = await page(staff, '/admin/bankpay/settings/pricing').expect(200);
      expect(fallback.text).toContain('<h2>Loan terms for 500 EUR</h2>');
      const tooLittle = await page(staff, '/admin/bankpay/settings/pricing?amount=50').expect(200);
      expect(tooLittle.text).toContain('The bank offered no terms for this amount.');
      // An amount that is no number previews the default rather than "NaN EUR".
      for (const amount of ['lots', '', '-5']) {
        const nonsense = await page(staff, `/admin/bankpay/settings/pricing?amount=${amount}`).expect(200);
        expect(nonsense.text).toContain('<h2>Loan terms for 500 EUR</h2>');
        expect(nonsense.text).toContain('<td>12 (suggested)</td><td>43.93</td>');
        expect(nonsense.text).not.toContain('NaN');
      }
    });

    it('offers the bank methods only in the countries and subtotal range of the Restrictions section', async () => {
      const shopper = new ShopClient(shop.server);
      await addToCart(shopper, (await productBySku(shop.dataSource, 'DEMO-HEADLAMP')).id, 1);
      // 39.00 EUR is too little for the loan (100–40,000 EUR); the other three are offered.
      expect(await offeredCodes(shopper, 'SK')).toEqual(['bankpay', 'bankpay-bank', 'bankpay-qr']);

      await saveSection('restrictions', { countries: '["CZ"]' });
      expect(await stored('bankpay.countries')).toEqual(['CZ']);
      expect(await offeredCodes(shopper, 'SK')).toEqual([]);
      expect(await offeredCodes(shopper, 'CZ')).toEqual(['bankpay', 'bankpay-bank', 'bankpay-qr']);

      await saveSection('restrictions', { countries: '', minOrderTotal: '5000' });
      expect(await stored('bankpay.countries')).toEqual([]);
      expect(await offeredCodes(shopper, 'SK')).toEqual([]);

      await saveSection('restrictions', { minOrderTotal: '3900', maxOrderTotal: '3899' });
      expect(await offeredCodes(shopper, 'SK')).toEqual([]);
      await saveSection('restrictions', { minOrderTotal: '3900', maxOrderTotal: '3900' });
      expect(await offeredCodes(shopper, 'SK')).toEqual(['bankpay', 'bankpay-bank', 'bankpay-qr']);
      expect(setting('bankpay.maxOrderTotal')).toBe(3900);
    });
  });

  describe('Check Payment Status on the order page', () => {
    const checkButton = 'Check Payment Status';
    const check = (orderId: number) =>
      submit(staff, `/admin/core/payment-transactions/check-payment-status/${orderId}`, {});

    it('settles a bank transfer whose shopper never came back: review first, paid once the bank has the money', async () => {
      const { order, redirect } = await placed('bankpay-bank');
      // The shopper pays by transfer at the bank and closes the tab before the redirect back.
      expect(await choose(redirect, 'bank-transfer')).toContain('/shop/checkout/process-payment?');
      expect((await reload(order.id)).status).toBe('pending_payment');
      expect((await attempts(order.id))[0].status).toBe('pending');

      const before = await page(staff, `/admin/orders/${order.id}`).expect(200);
      expect(before.text).toContain(checkButton);
      expect(before.text).toContain(`action="/admin/core/payment-transactions/check-payment-status/${order.id}"`);

      const first = await check(order.id);
      expect(first.location).toBe(`/admin/orders/${order.id}`);
      expect(first.text).toContain(
        '<p class="flash flash-success" role="status">Payment status updated: The bank transfer is on its way (ACSP).</p>',
      );
      expect((await reload(order.id)).status).toBe('payment_review');
      expect((await attempts(order.id))[0].status).toBe('review');
      // The button is for orders waiting for their payment only.
      expect(first.text).not.toContain(checkButton);

      await bank().post(`${BANK_CONTROL}/settings`).send({ settleAfterMs: 0 }).expect(200);
      const second = await check(order.id);
      expect(second.text).toContain('Payment status updated: The bank settled the bank transfer.');
      expect((await reload(order.id)).status).toBe('paid');
      expect((await attempts(order.id))[0]).toMatchObject({ status: 'success', paidAmount: order.total });
      expect(second.text).not.toContain(checkButton);

      // Asking about a paid order changes nothing.
      const third = await check(order.id);
      expect(third.text).toContain('This order has no payment waiting for the bank.');
      expect((await reload(order.id)).status).toBe('paid');
    });

    it('leaves a card payment the shopper has not finished pending', async () => {
      const { order } = await placed('bankpay');
      const before = await page(staff, `/admin/orders/${order.id}`).expect(200);
      expect(before.text).toContain(checkButton);
      const checked = await check(order.id);
      expect(checked.text).toContain(
        '<p class="flash flash-info" role="status">No change: The shopper has not finished paying yet.</p>',
      );
      expect((await reload(order.id)).status).toBe('pending_payment');
      expect((await attempts(order.id))[0].status).toBe('pending');
      expect(checked.text).toContain(checkButton);
    });

    it('says so when the bank cannot be asked, and keeps the order waiting', async () => {
      const { order, redirect } = await placed('bankpay-bank');
      await choose(redirect, 'bank-transfer');
      await bank().post(`${BANK_CONTROL}/mode`).send({ mode: 'error' }).expect(200);
      const checked = await check(order.id);
      expect(checked.text).toContain('The bank could not be asked right now. Try again in a minute.');
      expect((await reload(order.id)).status).toBe('pending_payment');
      await bank().post(`${BANK_CONTROL}/mode`).send({ mode: 'normal' }).expect(200);
    });

    it('shows no button for offline methods, a paid order, or the card redirect Payment Type', async () => {
      const cod = await placed('cod');
      expect((await reload(cod.order.id)).status).toBe('processing');
      const codPage = await page(staff, `/admin/orders/${cod.order.id}`).expect(200);
      expect(codPage.text).not.toContain(checkButton);
      const manual = await placed('bank-transfer-manual');
      expect((await reload(manual.order.id)).status).toBe('pending_payment');
      expect((await page(staff, `/admin/orders/${manual.order.id}`)).text).not.toContain(checkButton);

      const card = await placed('bankpay');
      await comeBack(card.client, await choose(card.redirect, 'card-ok'));
      expect((await reload(card.order.id)).status).toBe('paid');
      expect((await page(staff, `/admin/orders/${card.order.id}`)).text).not.toContain(checkButton);

      const open = await placed('bankpay-qr');
      expect((await page(staff, `/admin/orders/${open.order.id}`)).text).toContain(checkButton);
      await shop.app.get(SettingsService).save({ 'bankpay.paymentType': 'bankCardPay' });
      expect((await page(staff, `/admin/orders/${open.order.id}`)).text).not.toContain(checkButton);
    });
  });
});
