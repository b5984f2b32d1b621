import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { Product } from '../../src/commerce/products/product.entity';
import {
  accessibilityViolations,
  addToCart,
  fillCheckoutDetails,
  launchBrowser,
  settled,
  VIEWPORTS,
  watchPage,
} from '../support/browser';
import { startTestApp, TestApp, usingMysql } from '../support/test-app';

const ARTIFACTS = join(__dirname, '..', 'artifacts', 'shop-accessibility');
const PRODUCT = 'Beam 300 Headlamp';

/** One storefront page type: `open` brings a new shopper's page to the state that is checked. */
interface ShopPage {
  name: string;
  open(page: Page, shop: TestApp): Promise<unknown>;
}

/** Every storefront page type a shopper meets; a new one (or a new state of one, a menu open) is a new row. */
const PAGES: ShopPage[] = [
  { name: 'home', open: (page) => page.goto('/') },
  {
    name: 'category-menu-open',
    open: async (page) => {
      await page.goto('/');
      // Open on a phone by its summary; a wide screen shows it always.
      if (!(await page.locator('.category-nav').isVisible())) await page.locator('.category-menu > summary').click();
      await page.locator('.category-nav').waitFor();
    },
  },
  { name: 'category', open: (page) => page.goto('/shop/c/camping') },
  { name: 'sub-category', open: (page) => page.goto('/shop/c/coffee/brewing') },
  { name: 'listing', open: (page) => page.goto('/shop/catalog/products') },
  {
    name: 'listing-with-facets',
    open: (page) => page.goto('/shop/catalog/products?f.brand=firefly,ridgeline&f.material=aluminium'),
  },
  { name: 'search-results', open: (page) => page.goto('/shop/catalog/search-results?q=lantern') },
  { name: 'product', open: openProduct },
  {
    name: 'cart',
    open: async (page, shop) => {
      await putLineInCart(page, shop);
      await page.goto('/shop/cart');
    },
  },
  {
    name: 'checkout',
    open: async (page, shop) => {
      await putLineInCart(page, shop);
      await page.goto('/shop/checkout');
    },
  },
  {
    name: 'checkout-methods',
    open: async (page, shop) => {
      await putLineInCart(page, shop);
      await page.goto('/shop/checkout');
      await fillCheckoutDetails(page, 'accessible@example.com');
    },
  },
  { name: 'content-page', open: (page) => page.goto('/shop/page/contact') },
  { name: 'login', open: (page) => page.goto('/shop/login') },
  { name: 'register', open: (page) => page.goto('/shop/register') },
];

/**
 * The storefront in a real browser, as shoppers meet it on a desktop and on a phone (the European Accessibility
 * Act): each page type passes axe-core's WCAG 2.1 A/AA rules, fits the screen's width, loads without a console
 * error, failed request or error answer, and leaves a screenshot in test/artifacts/shop-accessibility/.
 */
describe(`the storefront's accessibility in the browser (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
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

  describe.each(VIEWPORTS)('on a $name screen', ({ name: screen, viewport }) => {
    it.each(PAGES)('serves the $name page accessible, within the screen, and clean', async ({ name, open }) => {
      const context = await browser.newContext({ baseURL: shop.config.baseUrl, viewport });
      context.setDefaultTimeout(10_000);
      const page = await context.newPage();
      const watcher = watchPage(page);
      try {
        await open(page, shop);
        await settled(page);
        const violations = await accessibilityViolations(page);
        const width = await page.evaluate<number>('document.documentElement.scrollWidth');
        await page.screenshot({ path: join(ARTIFACTS, `${screen}-${name}.png`), fullPage: true });
        await settled(page);
        expect(violations).toEqual([]);
        expect(width).toBeLessThanOrEqual(viewport.width);
        watcher.expectClean();
      } finally {
        await context.close();
      }
    });
  });
});

async function openProduct(page: Page, shop: TestApp): Promise<void> {
  const { slug } = await shop.dataSource.getRepository(Product).findOneByOrFail({ name: PRODUCT });
  await page.goto(`/shop/p/${slug}`);
}

/** A line in the shopper's cart, added from the product page as a shopper does. */
async function putLineInCart(page: Page, shop: TestApp): Promise<void> {
  await openProduct(page, shop);
  await addToCart(page, PRODUCT);
  await settled(page);
}
