import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { Category } from '../../src/commerce/categories/category.entity';
import { ProductVariant } from '../../src/commerce/products/product-variant.entity';
import { Product } from '../../src/commerce/products/product.entity';
import { Store } from '../../src/commerce/stores/store.entity';
import { CpPasswordLink } from '../../src/commerce/staff/cp-password-link.entity';
import { CpUser } from '../../src/commerce/staff/cp-user.entity';
import { hashLinkToken, newLinkToken } from '../../src/common/link-token';
import { accessibilityViolations, cpLogIn, launchBrowser, settled, VIEWPORTS, watchPage } from '../support/browser';
import { insertOrder } from '../support/fixtures';
import { startTestApp, TestApp, usingMysql } from '../support/test-app';

const ARTIFACTS = join(__dirname, '..', 'artifacts', 'control-panel');

/**
 * Every CP screen in a real browser, as staff meet it on a desktop and on a phone: each page the header links,
 * and the detail pages behind them, passes axe-core's WCAG 2.1 A/AA rules, fits the screen's width (wide tables
 * scroll in their own box), loads without a console error, failed request or error answer, and leaves a screenshot
 * in test/artifacts/control-panel/.
 */
describe(`the control panel in the browser (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    [shop, browser] = await Promise.all([startTestApp({ listen: true }), launchBrowser()]);
    mkdirSync(ARTIFACTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await shop?.close();
  });

  describe.each(VIEWPORTS)('on a $name screen', ({ name, viewport }) => {
    // Every CP screen at one width, each checked by axe: well past jest's default minute on two busy cores.
    it('serves every screen accessible, within the screen, and clean', async () => {
      const order = await insertOrder(shop.dataSource, 'paid');
      const product = await shop.dataSource.getRepository(Product).findOneOrFail({ where: {}, order: { id: 'ASC' } });
      const staffMember = await shop.dataSource
        .getRepository(CpUser)
        .findOneOrFail({ where: {}, order: { id: 'ASC' } });
      const invitation = await openInvitation(shop, `invited-${name}@example.com`);
      const variant = await shop.dataSource
        .getRepository(ProductVariant)
        .findOneOrFail({ where: {}, order: { id: 'ASC' } });
      const category = await someCategory(shop);
      const context = await browser.newContext({ baseURL: shop.config.baseUrl, viewport });
      context.setDefaultTimeout(10_000);
      const page = await context.newPage();
      const watcher = watchPage(page);
      const violations: string[] = [];
      const tooWide: string[] = [];
      /** Checks the page that is open and keeps its screenshot under `what`. */
      const check = async (what: string) => {
        await settled(page);
        violations.push(...(await accessibilityViolations(page)));
        const width = await page.evaluate<number>('document.documentElement.scrollWidth');
        if (width > viewport.width) tooWide.push(`${page.url()}: ${width} px`);
        await page.screenshot({ path: join(ARTIFACTS, `${name}-${what}.png`), fullPage: true });
      };
      try {
        await page.goto('/admin/login');
        await check('login');
        await cpLogIn(page);
        await check('dashboard');
        for (const path of await headerLinks(page)) {
          await page.goto(path);
          await check(path.replace(/^\/admin\/?/, '').replace(/[^a-z0-9]+/g, '-') || 'home');
        }
        const details = {
          order: `/admin/orders/${order.id}`,
          product: `/admin/products/${product.id}`,
          'staff-invite': '/admin/users/new',
          'staff-member': `/admin/users/${staffMember.id}`,
          'set-password': `/admin/set-password/${invitation}`,
          'product-new': '/admin/products/new',
          'product-variant': `/admin/products/${variant.productId}/variants/${variant.id}`,
          'product-delete': `/admin/products/${product.id}/delete`,
          'products-bulk': `/admin/products/bulk?action=hide&ids=${product.id}`,
          'products-import': '/admin/products/import',
          'category-new': `/admin/categories/new?parent=${category.id}`,
          category: `/admin/categories/${category.id}`,
        };
        for (const [what, path] of Object.entries(details)) {
          await page.goto(path);
          await check(what);
        }
        expect(violations).toEqual([]);
        expect(tooWide).toEqual([]);
        watcher.expectClean();
      } finally {
        await context.close();
      }
    }, 180_000);
  });
});

/** The CP paths the header links, once each (on a phone the menu holds them). */
async function headerLinks(page: Page): Promise<string[]> {
  const hrefs = await page
    .locator('header.cp-header nav a')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
  return [...new Set(hrefs.filter((href) => href.startsWith('/admin')))];
}

/** A category with a sub-category (made once), so the tree, its edit page and the product's boxes have something. */
async function someCategory(shop: TestApp): Promise<Category> {
  const categories = shop.dataSource.getRepository(Category);
  const found = await categories.findOneBy({ path: 'gear' });
  if (found) return found;
  const store = await shop.dataSource.getRepository(Store).findOneOrFail({ where: {}, order: { id: 'ASC' } });
  const fields = { storeId: store.id, description: '', position: 0, visible: true };
  const gear = await categories.save({ ...fields, parentId: null, name: 'Gear', slug: 'gear', path: 'gear' });
  await categories.save({ ...fields, parentId: gear.id, name: 'Tents', slug: 'tents', path: 'gear/tents' });
  return gear;
}

/** An invited user and the token of their set-password link (stored hashed, as the invitation stores it). */
async function openInvitation(shop: TestApp, email: string): Promise<string> {
  const token = newLinkToken();
  await shop.dataSource.transaction(async (manager) => {
    const user = await manager.save(CpUser, { email, name: 'Invited', passwordHash: '', permissions: [] });
    await manager.insert(CpPasswordLink, {
      cpUserId: user.id,
      tokenHash: hashLinkToken(token),
      purpose: 'invite',
      expiresAt: Date.now() + 3_600_000,
      usedAt: null,
    });
  });
  return token;
}
