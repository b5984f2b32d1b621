import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ProductImage } from '../../src/commerce/products/product-image.entity';
import { ProductVariant } from '../../src/commerce/products/product-variant.entity';
import { Product } from '../../src/commerce/products/product.entity';
import { CpUser } from '../../src/commerce/staff/cp-user.entity';
import { SettingRow } from '../../src/config/setting.entity';
import {
  accessibilityViolations,
  cpLogIn,
  expectText,
  follow,
  launchBrowser,
  settled,
  watchPage,
} from '../support/browser';
import { setPasswordMail } from '../support/cp-staff';
import { insertOrder, insertOrderLine } from '../support/fixtures';
import { testPng, testSidewaysJpeg } from '../support/images';
import { startSmtpCapture } from '../support/smtp-capture';
import { startTestApp, TestApp, usingMysql } from '../support/test-app';

const ARTIFACTS = join(__dirname, '..', 'artifacts', 'cp-owner-journey');
const VIEWPORT = { width: 1280, height: 900 };

/**
 * A shop owner's rounds in the control panel, in a real browser with JavaScript on, on a desktop screen: logs in,
 * switches customer accounts off and on again and sees the storefront follow, creates a product with two uploaded
 * pictures and a variant that a shopper then sees, exports the orders as CSV, and invites an order clerk who
 * chooses a password from the e-mailed link and meets only the order pages. Each CP page passes axe-core's
 * WCAG 2.1 A/AA rules and leaves a screenshot in test/artifacts/cp-owner-journey/; any console error, failed
 * request or error answer other than the clerk's deliberate 403 fails the test.
 */
describe(`a shop owner's rounds in the control panel (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let browser: Browser;
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
  /** The owner's browser and the shopper's, each with its own cookies. */
  let ownerContext: BrowserContext;
  let shopperContext: BrowserContext;
  let owner: Page;
  let shopper: Page;
  let ownerWatcher: ReturnType<typeof watchPage>;
  let shopperWatcher: ReturnType<typeof watchPage>;
  const violations: string[] = [];

  /** A browser context of its own on the test app, desktop-sized. */
  async function newContext(): Promise<BrowserContext> {
    const context = await browser.newContext({ baseURL: shop.config.baseUrl, viewport: VIEWPORT });
    context.setDefaultTimeout(10_000);
    return context;
  }

  /** Checks the CP page open in `page` with axe and keeps its screenshot under `what`. */
  async function check(page: Page, what: string): Promise<void> {
    await settled(page);
    violations.push(...(await accessibilityViolations(page)));
    await screenshot(page, what);
  }

  function screenshot(page: Page, what: string): Promise<Buffer> {
    return page.screenshot({ path: join(ARTIFACTS, `${what}.png`), fullPage: true });
  }

  /** Follows a link of the CP header. */
  async function openFromHeader(page: Page, label: string): Promise<void> {
    await follow(page.locator('header.cp-header nav').getByRole('link', { name: label, exact: true }));
    await page.waitForLoadState();
  }

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    [shop, browser] = await Promise.all([startTestApp({ listen: true, env: { SMTP_URL: smtp.url } }), launchBrowser()]);
    mkdirSync(ARTIFACTS, { recursive: true });
    [ownerContext, shopperContext] = await Promise.all([newContext(), newContext()]);
    [owner, shopper] = await Promise.all([ownerContext.newPage(), shopperContext.newPage()]);
    ownerWatcher = watchPage(owner);
    shopperWatcher = watchPage(shopper);
  });
  afterAll(async () => {
    await browser?.close();
    await shop?.close();
    await smtp?.close();
  });
  afterEach(() => {
    expect(violations.splice(0)).toEqual([]);
    ownerWatcher.expectClean();
    shopperWatcher.expectClean();
  });

  it('logs in to the control panel', async () => {
    await owner.goto('/admin/login');
    await check(owner, '1-login');
    await cpLogIn(owner);
    await expectText(owner.locator('h1'), 'Dashboard');
    await check(owner, '1-dashboard');
  });

  it('switches customer accounts off, and the storefront loses its account link; then on again', async () => {
    const accountLink = shopper.locator('header .account-link');
    await shopper.goto('/');
    expect(await accountLink.count()).toBe(1);

    /** Sets the flag on the settings page and sees it saved. */
    const setAccounts = async (on: boolean, what: string) => {
      await openFromHeader(owner, 'Settings');
      await owner.waitForURL(/\/admin\/settings$/);
      const flag = owner.getByLabel('Customer accounts enabled', { exact: true });
      expect(await flag.isChecked()).toBe(!on);
      await flag.setChecked(on);
      await check(owner, `2-settings-${what}`);
      await follow(owner.getByRole('button', { name: 'Save settings' }));
      await expectText(owner.locator('.flash-success'), 'Settings saved: Customer accounts enabled.');
      expect(await owner.getByLabel('Customer accounts enabled', { exact: true }).isChecked()).toBe(on);
      const row = await shop.dataSource.getRepository(SettingRow).findOneByOrFail({ key: 'customerAccountsEnabled' });
      expect(JSON.parse(row.value)).toBe(on);
    };

    await setAccounts(false, 'accounts-off');
    await check(owner, '2-settings-saved-off');
    await shopper.reload();
    await settled(shopper);
    expect(await accountLink.count()).toBe(0);
    await screenshot(shopper, '2-shop-without-accounts');

    await setAccounts(true, 'accounts-on');
    await shopper.reload();
    await settled(shopper);
    expect(await accountLink.count()).toBe(1);
    await screenshot(shopper, '2-shop-with-accounts');
  });

  it('creates a product with two uploaded pictures and a variant, and a shopper sees them', async () => {
    await openFromHeader(owner, 'Products');
    await follow(owner.getByRole('link', { name: 'New product', exact: true }));
    await owner.waitForURL(/\/admin\/products\/new$/);
    await owner.getByLabel('SKU', { exact: true }).fill('JOURNEY-MUG');
    await owner.getByLabel('Name', { exact: true }).fill('Journey Enamel Mug');
    await owner.getByLabel('URL slug').fill('journey-enamel-mug');
    await owner.getByLabel('Description', { exact: true }).fill('A mug for the trail, in two sizes of picture.');
    await owner.getByLabel('Price (EUR)').fill('12.90');
    await check(owner, '3-product-new');
    await follow(owner.getByRole('button', { name: 'Create product' }));
    await owner.waitForURL(/\/admin\/products\/\d+$/);
    await expectText(owner.locator('.flash-success'), 'Journey Enamel Mug created.');
    const product = await shop.dataSource.getRepository(Product).findOneByOrFail({ sku: 'JOURNEY-MUG' });
    expect(product).toMatchObject({ name: 'Journey Enamel Mug', slug: 'journey-enamel-mug', price: 1290 });
    expect(await owner.getByLabel('Visible in listing and search').isChecked()).toBe(true);

    // Two pictures in one upload: a PNG and a phone's sideways JPEG.
    await owner.getByLabel('Add images (up to 10 at a time)').setInputFiles([
      { name: 'mug-front.png', mimeType: 'image/png', buffer: await testPng(900, 700, '#16a085') },
      { name: 'mug-side.jpg', mimeType: 'image/jpeg', buffer: await testSidewaysJpeg(800, 600) },
    ]);
    await follow(owner.getByRole('button', { name: 'Upload', exact: true }));
    await expectText(owner.locator('.flash'), '2 images added.');
    expect(await owner.locator('#images tbody tr').count()).toBe(2);
    await check(owner, '3-product-images');

    const variantForm = owner.locator('form', { has: owner.getByRole('button', { name: 'Add variant' }) });
    await variantForm.getByLabel('SKU', { exact: true }).fill('JOURNEY-MUG-L');
    await variantForm.getByLabel('Options').fill('Size: L');
    await variantForm.getByLabel('Stock').fill('7');
    await follow(variantForm.getByRole('button', { name: 'Add variant' }));
    await expectText(owner.locator('.flash-success'), 'Variant JOURNEY-MUG-L added.');
    await expectText(owner.locator('main table').first(), 'JOURNEY-MUG-L');
    await check(owner, '3-product-variant');

    expect(await shop.dataSource.getRepository(ProductImage).countBy({ productId: product.id })).toBe(2);
    expect(await shop.dataSource.getRepository(ProductVariant).findBy({ productId: product.id })).toEqual([
      expect.objectContaining({ sku: 'JOURNEY-MUG-L', stock: 7 }),
    ]);
    expect(await shop.dataSource.getRepository(Product).findOneByOrFail({ id: product.id })).toMatchObject({
      visible: true,
      enabled: true,
    });

    // The shopper's view: the name, both pictures in their sizes, and the size to choose.
    await shopper.goto('/shop/p/journey-enamel-mug');
    await expectText(shopper.locator('h1'), 'Journey Enamel Mug');
    const thumbs = shopper.locator('.gallery-thumbs img');
    expect(await thumbs.count()).toBe(2);
    const srcsets = await thumbs.evaluateAll((images) => images.map((image) => image.getAttribute('srcset') ?? ''));
    expect(srcsets).toEqual([expect.stringContaining('/media/products/'), expect.stringContaining('/media/products/')]);
    expect(new Set(srcsets).size).toBe(2);
    expect(await shopper.locator('.gallery-main img').getAttribute('srcset')).toBe(srcsets[0]);
    const size = shopper.getByLabel('Size', { exact: true });
    expect(await size.locator('option').allTextContents()).toEqual([expect.any(String), 'L']);
    await size.selectOption('L');
    await expectText(shopper.locator('table.variants'), 'L');
    await settled(shopper);
    // Every picture arrived: a missing size would be a failed request or a 404 for the watcher.
    expect(await shopper.locator('.product-gallery img').evaluateAll((images) => images.length)).toBe(3);
    await screenshot(shopper, '3-shop-product');
  });

  it('exports the orders as CSV from the order list', async () => {
    const order = await insertOrder(shop.dataSource, 'paid', { email: 'csv-buyer@example.com' });
    await insertOrderLine(shop.dataSource, order, {
      sku: 'DEMO-HEADLAMP',
      name: 'Beam 300 Headlamp',
      qty: 1,
      price: 2490,
    });
    await openFromHeader(owner, 'Orders');
    await owner.waitForURL(/\/admin\/orders$/);
    await expectText(owner.locator('table.orders'), order.reference);
    await check(owner, '4-orders');
    const [download] = await Promise.all([
      owner.waitForEvent('download'),
      follow(owner.getByRole('link', { name: 'orders', exact: true })),
    ]);
    expect(download.suggestedFilename()).toMatch(/^orders.*\.csv$/);
    const csv = (await readFile(await download.path())).toString('utf8');
    // Every cell is quoted; none of these holds a quote, so splitting on the quotes' commas reads them.
    const [header, ...rows] = csv
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter(Boolean)
      .map((line) => line.slice(1, -1).split('","'));
    expect(header).toEqual([
      'Number',
      'Reference',
      'Date',
      'Status',
      'Customer',
      'E-mail',
      'Country',
      'Items',
      'Currency',
      'Subtotal',
      'Discount',
      'Shipping',
      'Payment fee',
      'VAT',
      'Total',
      'Gift cards',
      'Payment method',
      'Shipping method',
      'Coupon',
    ]);
    expect(rows.find((cells) => cells[0] === order.number)).toEqual(
      expect.arrayContaining([order.reference, 'paid', 'Ada Lovelace', 'csv-buyer@example.com', 'SK', '1', '29.80']),
    );
  });

  it('invites an order clerk, who sets a password from the e-mail and meets only the order pages', async () => {
    const email = 'clerk@example.com';
    await openFromHeader(owner, 'Staff');
    await follow(owner.getByRole('link', { name: 'Invite staff' }));
    await owner.waitForURL(/\/admin\/users\/new$/);
    await owner.getByLabel('E-mail').fill(email);
    await owner.getByLabel('Name').fill('Olga Clerk');
    await owner.getByRole('checkbox', { name: /^accessOrders\b/ }).check();
    const ticked = await owner
      .locator('input[name="permissions"]:checked')
      .evaluateAll((boxes) => boxes.map((box) => box.getAttribute('value')));
    expect(ticked).toEqual(['accessOrders']);
    expect(await owner.getByLabel('Admin (every permission)').isChecked()).toBe(false);
    await check(owner, '5-staff-invite');
    await follow(owner.getByRole('button', { name: 'Send invitation' }));
    await owner.waitForURL(/\/admin\/users\/\d+$/);
    await expectText(owner.locator('.flash-success'), `Invitation sent to ${email}.`);
    await check(owner, '5-staff-invited');
    expect(await shop.dataSource.getRepository(CpUser).findOneByOrFail({ email })).toMatchObject({
      name: 'Olga Clerk',
      permissions: ['accessOrders'],
      admin: false,
    });

    // The clerk, in a browser of their own, follows the e-mailed link.
    const mail = await setPasswordMail(shop, smtp.messages, email);
    const clerkContext = await newContext();
    const clerk = await clerkContext.newPage();
    const clerkWatcher = watchPage(clerk);
    try {
      await clerk.goto(`${shop.config.baseUrl}/admin/set-password/${mail.token}`);
      await expectText(clerk.locator('h1'), 'Choose your password');
      await clerk.getByLabel('Password', { exact: true }).fill('clerk counts parcels');
      await clerk.getByLabel('Repeat it').fill('clerk counts parcels');
      await check(clerk, '5-clerk-set-password');
      await follow(clerk.getByRole('button', { name: 'Set password and log in' }));
      await clerk.waitForURL(/\/admin$/);
      await expectText(clerk.locator('.flash-success'), 'Your password is set.');
      const links = await clerk.locator('header.cp-header nav a').allTextContents();
      expect(links).toEqual(['Orders', 'Returns', 'Withdrawals']);
      await check(clerk, '5-clerk-dashboard');

      const refused = await clerk.goto('/admin/products');
      expect(refused?.status()).toBe(403);
      await expectText(clerk.locator('main'), 'You need the accessProducts permission to open this page.');
      await check(clerk, '5-clerk-products-refused');
      const refusedUrl = `${shop.config.baseUrl}/admin/products`;
      clerkWatcher.expectClean([
        'console error: Failed to load resource: the server responded with a status of 403 (Forbidden)',
        `403 for GET ${refusedUrl}`,
      ]);
    } finally {
      await clerkContext.close();
    }
  });
});
