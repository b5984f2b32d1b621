import { AttributeValue } from '../../src/commerce/attributes/attribute-value.entity';
import { Attribute } from '../../src/commerce/attributes/attribute.entity';
import { AuditEntry } from '../../src/commerce/audit/audit-entry.entity';
import { Category } from '../../src/commerce/categories/category.entity';
import { Customer } from '../../src/commerce/customers/customer.entity';
import { SalesDocument } from '../../src/commerce/invoices/sales-document.entity';
import { Order } from '../../src/commerce/orders/order.entity';
import { PaymentTransaction } from '../../src/commerce/payments/payment-transaction.entity';
import { ProductVariant } from '../../src/commerce/products/product-variant.entity';
import { ProductImportService } from '../../src/commerce/products/product-import.service';
import { Product } from '../../src/commerce/products/product.entity';
import { CpUser } from '../../src/commerce/staff/cp-user.entity';
import { Store } from '../../src/commerce/stores/store.entity';
import { SettingsService } from '../../src/config/settings.service';
import { productBySku } from '../support/catalog';
import { ADDRESS, addToCart, fillCheckout, placeOrder, shippingValue } from '../support/checkout';
import { runCli } from '../support/cli';
import { cpNavLabels, cpStaff } from '../support/cp-staff';
import { registerCustomer } from '../support/customers';
import { pdfText } from '../support/pdf-text';
import { ShopClient } from '../support/shop-client';
import { attachedPdf, CapturedMail, mailHtml, startSmtpCapture, subjectOf } from '../support/smtp-capture';
import { eventually, startTestApp, TestApp, TestPlace, usingMysql } from '../support/test-app';
import { placeTestPayOrder, returnPaid } from '../support/test-pay';
import { TestPluginModule } from '../support/test-plugin.module';
import { shownIn } from '../support/shown-time';
import { insertOrder } from '../support/fixtures';

const OWNER_PASSWORD = 'owner-password-1';

/**
 * Making the shop yours: the CP's Store details (permission, field errors, audit), `setup` with the new details and
 * `demo:remove`, after which the shop, its mails, invoices and CP carry the owner's name, contact and time zone and
 * nothing of the demo is left.
 */
describe(`store details and removing the demo (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
  let admin: ShopClient;
  /** The operator's shell: the owner's admin password for `setup`. */
  let owner: TestPlace;
  /** The demo's shopper: logged in, with a cart and an order, until the demo goes. */
  let shopper: ShopClient;
  const storeAudit = () =>
    shop.dataSource.getRepository(AuditEntry).find({ where: { area: 'store' }, order: { id: 'ASC' } });

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    shop = await startTestApp({ env: { SMTP_URL: smtp.url }, extraModules: [TestPluginModule] });
    owner = { ...shop.place, env: { ...shop.place.env, CP_ADMIN_PASSWORD: OWNER_PASSWORD } };
    admin = new ShopClient(shop.server);
    await admin.loginCp();
  });
  afterAll(async () => {
    await shop.close();
    await smtp.close();
  });

  it('opens Store details only with accessSettings, and links it only for them', async () => {
    const clerk = await cpStaff(shop, 'orders-clerk@example.com', ['accessOrders']);
    for (const page of ['/admin/store', '/admin/store/demo']) {
      const res = await clerk.get(page);
      expect({ page, status: res.status, message: res.body.error?.message }).toEqual({
        page,
        status: 403,
        message: 'You need the accessSettings permission to open this page.',
      });
    }
    expect((await clerk.post('/admin/store', { name: 'Not yours' })).status).toBe(403);
    expect((await clerk.post('/admin/store/demo')).status).toBe(403);
    expect(await cpNavLabels(clerk)).not.toContain('Store details');
    expect(await shop.dataSource.getRepository(Product).countBy({ sku: 'DEMO-HEADLAMP' })).toBe(1);

    const settingsClerk = await cpStaff(shop, 'settings-clerk@example.com', ['accessSettings']);
    expect(await cpNavLabels(settingsClerk)).toEqual(['Settings', 'Store details']);
    const form = await settingsClerk.get('/admin/store').set('Accept', 'text/html').expect(200);
    expect(form.text).toContain('<title>Store details · Demo Outdoor &amp; Coffee · Control panel</title>');
    expect(form.text).toContain('value="Demo Outdoor &amp; Coffee"');
    expect(form.text).toContain('<option selected>Europe/Bratislava</option>');
    expect(await storeAudit()).toEqual([]);
  });

  it('shows each problem beside its field and saves nothing', async () => {
    const refused = await admin.submitForm('/admin/store', {
      name: ' ',
      contactEmail: 'not-an-address',
      senderEmail: 'nor@this',
      timeZone: 'Mars/Olympus_Mons',
      logoPath: 'https://elsewhere.example.com/logo.png',
      baseCurrency: 'EURO',
    });
    expect(refused.status).toBe(400);
    for (const problem of [
      'Store name: must be 1 to 191 characters',
      'Contact e-mail: must be an e-mail address',
      'Mail sender address: must be an e-mail address',
      'Time zone: must be an IANA time zone such as Europe/Bratislava',
      'Logo: must be blank or an image path under /public, e.g. /public/images/logo.svg',
      'Base currency: must be an ISO 4217 currency code such as EUR',
    ]) {
      expect(refused.text).toContain(problem);
    }
    // What was typed stays in the form.
    expect(refused.text).toContain('value="not-an-address"');

    const json = await admin.post('/admin/store', { contactPhone: '+421 900 000 000', senderEmail: 'nobody' });
    expect(json.status).toBe(400);
    expect(json.body.error).toMatchObject({
      code: 'validation_failed',
      fields: { senderEmail: ['must be an e-mail address'] },
    });
    expect(shop.app.get(SettingsService).get('salesSellerPhone')).toBe('');
    expect(await storeAudit()).toEqual([]);
  });

  it('saves the details from the CP, with an audit entry, and the shop shows them at once', async () => {
    const saved = await admin.submitForm('/admin/store', {
      name: 'Demo Outdoor & Coffee',
      contactPhone: '+421 900 111 222',
      logoPath: '/public/images/favicon.svg',
    });
    expect(saved.status).toBe(303);
    expect(saved.headers.location).toBe('/admin/store');
    const [entry] = await storeAudit();
    expect(entry).toMatchObject({
      actor: 'cp:admin@example.com',
      action: 'updated',
      subject: 'default',
      changes: {
        contactPhone: { from: '', to: '+421 900 111 222' },
        logoPath: { from: '', to: '/public/images/favicon.svg' },
      },
    });
    const home = await new ShopClient(shop.server).get('/').expect(200);
    expect(home.text).toContain('<img class="brand-logo" src="/public/images/favicon.svg" alt="" height="32">');
    const again = await admin.post('/admin/store', { contactPhone: '+421 900 111 222' });
    expect(again.body).toMatchObject({ success: true });
    expect(await storeAudit()).toHaveLength(1);
  });

  it('keeps the demo unless confirmed, and while its admin is the only one', async () => {
    // Demo trading: a registered customer, a paid order with its invoice.
    shopper = new ShopClient(shop.server);
    await registerCustomer(shopper);
    const demoOrder = await placeTestPayOrder(shopper, shop.dataSource);
    await returnPaid(shopper, shop.dataSource, demoOrder);
    await eventually(() => shop.dataSource.getRepository(SalesDocument).countBy({ orderId: demoOrder.id }));

    const unconfirmed = await runCli(shop.place, 'demo:remove');
    expect(unconfirmed.json).toMatchObject({ ok: false, error: { fields: { yes: ['confirm with --yes'] } } });
    const lastAdmin = await runCli(shop.place, 'demo:remove', '--yes');
    expect(lastAdmin.json).toMatchObject({ ok: false, error: { code: 'last_admin' } });
    expect(await shop.dataSource.getRepository(Product).countBy({})).toBe(35);
    expect(await shop.dataSource.getRepository(Order).count()).toBe(1);
  });

  it("sets the owner's details and first admin with setup", async () => {
    const setup = await runCli(
      owner,
      'setup',
      '--store-name',
      'Kávička',
      '--admin-email',
      'owner@kavicka.example',
      '--legal-name',
      'Kávička Roasters s.r.o.',
      '--address',
      'Mlynská 5, 040 01 Košice',
      '--contact-email',
      'hello@kavicka.example',
      '--contact-phone',
      '+421 905 123 456',
      '--time-zone',
      'America/New_York',
      '--sender-name',
      'Kavicka Roasters',
      '--sender-email',
      'orders@kavicka.example',
      '--logo-path',
      '',
    );
    expect(setup.json).toEqual({
      ok: true,
      store: { name: 'Kávička', baseCurrency: 'EUR', country: 'SK', language: 'en' },
      admin: { email: 'owner@kavicka.example', created: true },
    });
    expect((await storeAudit()).at(-1)).toMatchObject({
      actor: 'cli',
      changes: {
        name: { from: 'Demo Outdoor & Coffee', to: 'Kávička' },
        timeZone: { from: 'Europe/Bratislava', to: 'America/New_York' },
        senderEmail: { from: '', to: 'orders@kavicka.example' },
      },
    });
  });

  it('removes the demo with demo:remove: the shop carries the owner’s name and no demo product', async () => {
    const removed = await runCli(shop.place, 'demo:remove', '--yes');
    expect(removed.json).toEqual({
      ok: true,
      removed: { products: 35, orders: 1, customers: 1, admin: 'admin@example.com' },
    });
    const demoTables = [Product, ProductVariant, Order, PaymentTransaction, SalesDocument, Customer];
    // The demo's categories and attributes went with its products: nothing else used them.
    for (const entity of [...demoTables, Category, Attribute, AttributeValue]) {
      expect({ entity: entity.name, rows: await shop.dataSource.getRepository<object>(entity).count() }).toEqual({
        entity: entity.name,
        rows: 0,
      });
    }
    expect((await shop.dataSource.getRepository(CpUser).find()).map(({ email }) => email).sort()).toEqual([
      'orders-clerk@example.com',
      'owner@kavicka.example',
      'settings-clerk@example.com',
    ]);
    expect((await storeAudit()).at(-1)).toMatchObject({
      actor: 'cli',
      action: 'demo-removed',
      changes: { products: { from: 35, to: 0 }, admin: { from: 'admin@example.com', to: null } },
    });
    // The store and its settings stay; the demo admin's login no longer opens the CP.
    expect(await shop.dataSource.getRepository(Store).findOneByOrFail({ isDefault: true })).toMatchObject({
      name: 'Kávička',
      baseCurrency: 'EUR',
    });
    await expect(new ShopClient(shop.server).loginCp()).rejects.toThrow('CP login failed');

    // The shop: header, titles, home heading, footer; no demo product anywhere.
    const home = await eventually(async () => {
      const page = await new ShopClient(shop.server).get('/').expect(200);
      return page.text.includes('<a class="brand" href="/">Kávička</a>') && page.text;
    });
    expect(home).toContain('<title>Welcome · Kávička</title>');
    expect(home).toContain('<h1>Kávička</h1>');
    expect(home).toContain('<p>Kávička · prices include VAT</p>');
    expect(home).not.toMatch(/Demo|Outdoor/);
    const listing = await new ShopClient(shop.server).get('/shop/catalog/products').expect(200);
    expect(listing.text).toContain('No products here yet.');
    // A demo shopper's session outlives their account and cart: it is logged out, not broken.
    await shopper.get('/shop/cart').set('Accept', 'text/html').expect(200);
    expect((await shopper.get('/shop/account').set('Accept', 'text/html')).status).toBe(302);
  });

  it("mails and invoices the owner's first order in the owner's name, and the CP shows it in their time zone", async () => {
    const store = await shop.dataSource.getRepository(Store).findOneByOrFail({ isDefault: true });
    const imported = await shop.app
      .get(ProductImportService)
      .importBatch(store.id, [{ sku: 'BEANS-1', name: 'Espresso beans', price: 14.9, stock: 5 }]);
    expect(imported.created).toBe(1);
    const buyer = new ShopClient(shop.server);
    await addToCart(buyer, (await productBySku(shop.dataSource, 'BEANS-1')).id, 1);
    await fillCheckout(buyer, {
      shippingMethod: await shippingValue(shop.dataSource, 'flat-rate'),
      paymentMethod: 'test-pay',
      address: ADDRESS,
      email: 'buyer@example.com',
    });
    const placed = await placeOrder(buyer);
    expect(placed.status).toBe(200);
    const order = await shop.dataSource.getRepository(Order).findOneByOrFail({ number: placed.body.orderNumber });
    await returnPaid(buyer, shop.dataSource, order);
    const mail: CapturedMail = await eventually(() =>
      smtp.messages.find(
        (message) => message.to.includes('buyer@example.com') && message.raw.includes('application/pdf'),
      ),
    );
    expect(subjectOf(mail)).toBe(`Your order ${order.reference} at Kávička`);
    expect(mail.from).toBe('orders@kavicka.example');
    expect(mail.raw).toMatch(/^From: "?Kavicka Roasters"? <orders@kavicka\.example>/m);
    const html = mailHtml(mail);
    for (const text of ['Kávička Roasters s.r.o.', 'Mlynská 5', 'hello@kavicka.example', '+421 905 123 456']) {
      expect(html).toContain(text);
    }
    const invoice = await eventually(() =>
      shop.dataSource.getRepository(SalesDocument).findOneBy({ invoicedOrderId: order.id }),
    );
    // Numbering started again with the shop's first real invoice.
    expect(invoice.number).toMatch(/-000001$/);
    const pdf = pdfText(attachedPdf(mail).pdf);
    for (const line of ['Kávička Roasters s.r.o.', 'Kávička', 'Mlynská 5', 'E-mail: hello@kavicka.example']) {
      expect(pdf).toContain(line);
    }
    expect(pdf).not.toContain('Demo Outdoor');

    // The CP: the store's name in the header, dates in the store's time zone.
    const ownerCp = new ShopClient(shop.server);
    await ownerCp.loginCp('owner@kavicka.example', OWNER_PASSWORD);
    const orders = await ownerCp.get('/admin/orders').set('Accept', 'text/html').expect(200);
    expect(orders.text).toContain('<a class="brand" href="/admin">Kávička · Control panel</a>');
    expect(orders.text).toContain(shownIn(order.dateCreated, 'America/New_York'));
    expect(orders.text).not.toContain(shownIn(order.dateCreated, 'UTC'));
  });

  it('removes the demo from the CP: an admin, after the confirmation page, with the box ticked; once', async () => {
    // A demo product again (the CLI removed the first demo above), and an order that would go with it.
    const store = await shop.dataSource.getRepository(Store).findOneByOrFail({ isDefault: true });
    // It shares a category and a brand with a product of the owner's, and has a category and a colour alone.
    await shop.app.get(ProductImportService).importBatch(store.id, [
      {
        sku: 'DEMO-AGAIN',
        name: 'Demo again',
        price: 1,
        stock: 1,
        categories: ['Coffee/Brewing', 'Coffee'],
        attributes: { brand: ['Leverette'], colour: ['Red'] },
      },
      {
        sku: 'OWN-1',
        name: 'Own blend',
        price: 9,
        stock: 5,
        categories: ['Coffee'],
        attributes: { brand: ['Leverette'] },
      },
    ]);
    const ordersBefore = await shop.dataSource.getRepository(Order).count();
    expect(ordersBefore).toBeGreaterThan(0);

    // Not for staff who merely hold accessSettings: it deletes every order, customer and the demo admin.
    const settingsClerk = new ShopClient(shop.server);
    await settingsClerk.loginCp('settings-clerk@example.com', 'staff-password-1');
    const refused = await settingsClerk.post('/admin/store/demo', { confirm: 'yes' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('admin_only');

    const admin = await cpStaff(shop, 'store-admin@example.com', [], { admin: true });
    const confirm = await admin.get('/admin/store/demo').set('Accept', 'text/html').expect(200);
    expect(confirm.text).toContain('1 demo products');
    expect(confirm.text).toContain('name="confirm"');
    // Without the box ticked, nothing goes.
    const unticked = await admin.post('/admin/store/demo', {});
    expect(unticked.status).toBe(400);
    expect(unticked.body.error.fields.confirm).toBeDefined();
    expect(await shop.dataSource.getRepository(Order).count()).toBe(ordersBefore);

    const done = await admin.submitForm('/admin/store/demo', { confirm: 'yes' });
    expect(done.status).toBe(303);
    expect(done.headers.location).toBe('/admin/store');
    expect(await shop.dataSource.getRepository(Order).count()).toBe(0);
    expect(await shop.dataSource.getRepository(Product).countBy({ sku: 'DEMO-AGAIN' })).toBe(0);
    expect((await shop.dataSource.getRepository(Category).find()).map(({ path }) => path)).toEqual(['coffee']);
    expect((await shop.dataSource.getRepository(Attribute).find()).map(({ code }) => code)).toEqual(['brand']);
    expect((await shop.dataSource.getRepository(AttributeValue).find()).map(({ slug }) => slug)).toEqual(['leverette']);
    const entry = (await storeAudit()).at(-1)!;
    expect(entry).toMatchObject({
      actor: 'cp:store-admin@example.com',
      action: 'demo-removed',
      changes: { products: { from: 1, to: 0 }, orders: { from: ordersBefore, to: 0 } },
    });
    expect(await shop.dataSource.getRepository(CpUser).countBy({ email: 'store-admin@example.com' })).toBe(1);

    // With the demo gone, a shop's own orders are never the demo's.
    await insertOrder(shop.dataSource, 'paid');
    const again = await admin.post('/admin/store/demo', { confirm: 'yes' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('no_demo');
    expect(await shop.dataSource.getRepository(Order).count()).toBe(1);
  });
});
