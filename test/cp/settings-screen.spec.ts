import { AuditEntry } from '../../src/commerce/audit/audit-entry.entity';
import { SETTING_GROUPS } from '../../src/config/core-setting-groups';
import { CORE_SETTINGS } from '../../src/config/core-settings';
import { SettingsService } from '../../src/config/settings.service';
import { formFields } from '../support/cp-forms';
import { cpNavLabels, cpStaff } from '../support/cp-staff';
import { storedSetting } from '../support/settings';
import { ShopClient } from '../support/shop-client';
import { eventually, startTestApp, TestApp, usingMysql, usingRedis } from '../support/test-app';

const SCREEN = '/admin/settings';

/**
 * The CP settings screen: every core setting in its section with its current value, a save that writes only what
 * changed (audited) and reaches every instance, field errors in place with nothing saved, and its permission.
 */
describe(`CP settings screen (${usingMysql ? 'MariaDB' : 'SQLite'}${usingRedis ? ' + Redis' : ''})`, () => {
  let shop: TestApp;
  let admin: ShopClient;
  beforeAll(async () => {
    shop = await startTestApp();
    admin = new ShopClient(shop.server);
    await admin.loginCp();
  });
  afterAll(() => shop.close());

  const screen = async (client = admin) => (await client.get(SCREEN).set('Accept', 'text/html').expect(200)).text;
  const stored = (key: string) => storedSetting(shop, key);
  const auditCount = () => shop.dataSource.getRepository(AuditEntry).countBy({ area: 'setting' });
  /** The `<div>` of one field: its input, help text and errors. */
  const fieldBlock = (html: string, key: string) =>
    new RegExp(`<label for="${key}">[^<]*</label>\\s*<div>([\\s\\S]*?)</div>`).exec(html)?.[1] ?? '';

  it('shows every core setting in its section, with its label, help, kind of field and current value', async () => {
    const html = await screen();
    expect(html).toContain('<a href="/admin/store">Store details</a>');

    const sections = [
      ...html.matchAll(/<fieldset id="settings-(\w+)"[^>]*>\s*<legend>([^<]+)<\/legend>([\s\S]*?)<\/fieldset>/g),
    ];
    expect(sections.map(([, group, heading]) => [group, heading])).toEqual(
      Object.entries(SETTING_GROUPS).map(([group, heading]) => [group, heading]),
    );
    // Every core setting lands in exactly one section, each section holds at least one.
    const shown = sections.flatMap(([, group, , body]) =>
      [...body.matchAll(/<label for="([^"]+)">/g)].map((label) => [label[1], group]),
    );
    expect(shown.map(([key]) => key).sort()).toEqual(CORE_SETTINGS.map(({ key }) => key).sort());
    for (const [, group, , body] of sections)
      expect({ group, empty: !body.includes('<label') }).toEqual({ group, empty: false });
    expect(Object.fromEntries(shown)).toMatchObject({
      salesCouponsEnabled: 'cart',
      salesTaxRate: 'tax',
      customerAccountsEnabled: 'customers',
      shipmentsShippedMail: 'mail',
      flowsEnabled: 'flows',
    });

    // A checkbox for a flag (the demo shop has coupons on), a number, a select, a textarea for JSON; each with help.
    expect(html).toContain('<label for="salesCouponsEnabled">Sales coupons enabled</label>');
    expect(fieldBlock(html, 'salesCouponsEnabled')).toMatch(/type="checkbox" value="on" checked/);
    expect(fieldBlock(html, 'salesCouponsEnabled')).toContain(
      '<small id="salesCouponsEnabled-help">Coupon codes in the cart</small>',
    );
    expect(fieldBlock(html, 'salesCustomerCancelEnabled')).not.toMatch(/checked/);
    expect(fieldBlock(html, 'salesTaxRate')).toMatch(/type="number" min="0" step="1" value="20"/);
    expect(fieldBlock(html, 'salesValidateVATType')).toMatch(/<option value="format_existence" selected>/);
    expect(fieldBlock(html, 'catalogAliases')).toContain(
      '<textarea id="catalogAliases" name="catalogAliases" aria-describedby="catalogAliases-help">[&quot;/products&quot;,',
    );
    expect(fieldBlock(html, 'salesBankTransferHolder')).toContain('value="Demo Outdoor &amp; Coffee s.r.o."');
    // Plugins' settings, their secrets among them, stay on their own pages.
    expect(html).not.toContain('sandbox-secret');
    expect(html).not.toContain('clientSecret');
  });

  it('saves only what changed, with its audit entry, and the switched-off feature is gone at once', async () => {
    const shopper = new ShopClient(shop.server);
    await shopper.get('/shop/login').set('Accept', 'text/html').expect(200);
    const fields = formFields(await screen(), SCREEN);
    fields.customerAccountsEnabled = 'off'; // unticked: only the box's hidden field is sent
    const entriesBefore = await auditCount();

    const saved = await admin.submitForm(SCREEN, fields);
    expect(saved.status).toBe(303);
    expect(saved.headers.location).toBe(SCREEN);
    expect(await screen()).toContain('Settings saved: Customer accounts enabled.');
    expect(await stored('customerAccountsEnabled')).toBe(false);
    // One setting changed, one entry: the other fields were posted as they were and are not written again.
    const entries = await shop.dataSource
      .getRepository(AuditEntry)
      .find({ where: { area: 'setting' }, order: { id: 'DESC' } });
    expect(entries.length - entriesBefore).toBe(1);
    expect(entries[0]).toMatchObject({
      actor: 'cp:admin@example.com',
      action: 'updated',
      subject: 'customerAccountsEnabled',
      subjectLabel: 'Customer accounts enabled',
      changes: { customerAccountsEnabled: { from: true, to: false } },
    });
    await shopper.get('/shop/login').set('Accept', 'text/html').expect(404);

    // The same form again changes nothing and writes nothing.
    const again = await admin.submitForm(SCREEN, fields);
    expect(again.headers.location).toBe(SCREEN);
    expect(await screen()).toContain('Nothing changed.');
    expect(await auditCount()).toBe(entriesBefore + 1);

    const back = await admin.post(SCREEN, { ...fields, customerAccountsEnabled: 'on' });
    expect(back.status).toBe(200);
    expect(back.body).toEqual({
      success: true,
      message: 'Settings saved: Customer accounts enabled.',
      changed: ['customerAccountsEnabled'],
    });
    await shopper.get('/shop/login').set('Accept', 'text/html').expect(200);

    // A post that does not name a setting (a script, a half-sent form) leaves it as it is: no box reads as unticked.
    const bare = await admin.post(SCREEN, { salesTaxRate: fields.salesTaxRate });
    expect(bare.body).toMatchObject({ success: true, changed: [] });
    expect(await stored('customerAccountsEnabled')).toBe(true);
  });

  it('reaches a second instance on the same database without a restart', async () => {
    const second = await startTestApp({ place: shop.place });
    try {
      const settings = second.app.get(SettingsService);
      expect(settings.get('salesReturnWindowDays')).toBe(14);
      const fields = formFields(await screen(), SCREEN);
      expect((await admin.submitForm(SCREEN, { ...fields, salesReturnWindowDays: '30' })).status).toBe(303);
      // Redis announces the save at once; without it the second instance's periodic reload (≤ 2 s) finds it.
      await eventually(() => settings.get('salesReturnWindowDays') === 30, 5000);
      expect((await admin.submitForm(SCREEN, { ...fields, salesReturnWindowDays: '14' })).status).toBe(303);
      await eventually(() => settings.get('salesReturnWindowDays') === 14, 5000);
    } finally {
      await second.close();
    }
  });

  it('refuses invalid values in place: 400, the form again as typed with each error by its field, nothing saved', async () => {
    const fields = formFields(await screen(), SCREEN);
    delete fields.salesCouponsEnabled; // a valid change, refused with the rest
    const entriesBefore = await auditCount();
    const refused = await admin.submitForm(SCREEN, {
      ...fields,
      salesTaxRate: 'twenty',
      salesTimezone: 'Mars/Olympus',
      catalogAliases: '["/katalog"',
      salesReturnWindowDays: '400',
    });
    expect(refused.status).toBe(400);
    const html = refused.text;
    expect(html).toContain('Nothing was saved:');
    expect(fieldBlock(html, 'salesTaxRate')).toContain('value="twenty"');
    expect(fieldBlock(html, 'salesTaxRate')).toContain('Sales tax rate: must be an integer');
    expect(fieldBlock(html, 'salesTimezone')).toContain('value="Mars/Olympus"');
    expect(fieldBlock(html, 'salesTimezone')).toContain('must be an IANA time zone such as Europe/Bratislava');
    expect(fieldBlock(html, 'catalogAliases')).toContain('>[&quot;/katalog&quot;</textarea>');
    expect(fieldBlock(html, 'catalogAliases')).toContain('Catalog aliases: must be valid JSON');
    expect(fieldBlock(html, 'salesReturnWindowDays')).toContain('must be from 0 (no returns) to 365 days');
    // The untouched fields carry no error; the unticked box stays unticked as it was posted.
    expect(fieldBlock(html, 'salesWithdrawalDays')).not.toContain('role="alert"');
    expect(fieldBlock(html, 'salesCouponsEnabled')).not.toMatch(/checked/);

    expect(await stored('salesCouponsEnabled')).toBe(true);
    expect(await stored('salesTaxRate')).toBe(20);
    expect(shop.app.get(SettingsService).get('salesCouponsEnabled')).toBe(true);
    expect(await auditCount()).toBe(entriesBefore);

    // A script gets the documented error shape, each field named.
    const json = await admin.post(SCREEN, { ...fields, salesTaxRate: 'x', salesCashOnDeliveryFee: '-1' });
    expect(json.status).toBe(400);
    expect(json.body.error).toMatchObject({
      code: 'invalid_setting',
      fields: { salesTaxRate: ['must be an integer'], salesCashOnDeliveryFee: ['must not be negative'] },
    });
  });

  it('is refused, and not linked, to staff without accessSettings', async () => {
    const clerk = await cpStaff(shop, 'settings-clerk@example.com', ['accessOrders']);
    const page = await clerk.get(SCREEN).expect(403);
    expect(page.body.error.message).toBe('You need the accessSettings permission to open this page.');
    const fields = formFields(await screen(), SCREEN);
    expect((await clerk.post(SCREEN, { ...fields, salesTaxRate: '5' })).status).toBe(403);
    expect(await stored('salesTaxRate')).toBe(20);
    expect(await cpNavLabels(clerk)).not.toContain('Settings');

    const keeper = await cpStaff(shop, 'settings-keeper@example.com', ['accessSettings']);
    await keeper.get(SCREEN).set('Accept', 'text/html').expect(200);
    expect(await cpNavLabels(keeper)).toEqual(['Settings', 'Store details']);
  });
});
