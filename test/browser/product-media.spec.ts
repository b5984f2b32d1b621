import { Browser, BrowserContext, Page } from 'playwright-core';
import { ProductImage } from '../../src/commerce/products/product-image.entity';
import { ProductImages } from '../../src/commerce/products/product-images.service';
import { Product } from '../../src/commerce/products/product.entity';
import { accessibilityViolations, launchBrowser, settled, VIEWPORTS, watchPage } from '../support/browser';
import { productBySku, variantBySku } from '../support/catalog';
import { testPng } from '../support/images';
import { startTestApp, TestApp } from '../support/test-app';

const ZOOM_LINK_FOCUSED = `document.activeElement.hasAttribute('data-gallery-zoom')`;

/** The product page's pictures: the chosen variant's comes forward, the main one zooms in a dialog, all within the CSP. */
describe('product media in the browser', () => {
  let shop: TestApp;
  let browser: Browser;
  let mug: Product;
  let greenPicture: ProductImage;

  beforeAll(async () => {
    [shop, browser] = await Promise.all([startTestApp({ listen: true }), launchBrowser()]);
    mug = await productBySku(shop.dataSource, 'DEMO-MUG-ENAMEL');
    const images = shop.app.get(ProductImages);
    await images.upload('test', mug.id, [
      { name: 'white.png', bytes: await testPng(1200, 1200, '#ffffff') },
      { name: 'green.png', bytes: await testPng(1200, 1200, '#27ae60') },
      { name: 'navy.png', bytes: await testPng(1200, 1200, '#1f3a93') },
    ]);
    const stored = await shop.dataSource
      .getRepository(ProductImage)
      .find({ where: { productId: mug.id }, order: { position: 'ASC' } });
    greenPicture = stored[1];
    const green = await variantBySku(shop.dataSource, 'DEMO-MUG-ENAMEL-GREEN');
    await images.describe('test', mug.id, greenPicture.id, 'The green mug', green.id);
  });
  afterAll(async () => {
    await browser?.close();
    await shop?.close();
  });

  describe.each(VIEWPORTS)('on a $name screen', ({ viewport }) => {
    let context: BrowserContext;
    let page: Page;
    let watcher: ReturnType<typeof watchPage>;

    beforeEach(async () => {
      context = await browser.newContext({ baseURL: shop.config.baseUrl, viewport });
      context.setDefaultTimeout(10_000);
      page = await context.newPage();
      watcher = watchPage(page);
      // Every CSP refusal, counted where the page cannot hide it (an init script runs outside the page's CSP).
      await page.addInitScript(`
        window.cspViolations = [];
        document.addEventListener('securitypolicyviolation', (event) => {
          window.cspViolations.push(event.violatedDirective + ' ' + event.blockedURI);
        });
      `);
    });
    afterEach(async () => {
      try {
        watcher.expectClean();
      } finally {
        await context.close();
      }
    });

    it('shows the chosen variant’s picture, zooms the main one and closes with Escape, with no CSP refusal', async () => {
      await page.goto(`/shop/p/${mug.slug}`);
      await settled(page);
      expect(await page.locator('script[type="application/ld+json"]').count()).toBeGreaterThan(0);
      const main = page.locator('[data-gallery-main]');
      const zoomLink = page.locator('[data-gallery-zoom]');
      const greenSrc = `/media/products/${greenPicture.contentHash}-960.webp`;
      expect(await main.getAttribute('src')).not.toBe(greenSrc);

      await page.getByLabel('Color').selectOption('green');
      // Strings, not functions: the test is compiled without the DOM's types.
      await page.waitForFunction(`document.querySelector('[data-gallery-main]').getAttribute('src') === '${greenSrc}'`);
      expect(await main.getAttribute('alt')).toBe('The green mug');
      // A 1200 px original's largest stored size is 960 px, which the zoom opens.
      expect(await zoomLink.getAttribute('href')).toBe(greenSrc);
      expect(await page.locator('[data-gallery-thumb][aria-current="true"]').getAttribute('data-variant')).toBe(
        'green',
      );

      await zoomLink.click();
      const dialog = page.getByRole('dialog', { name: mug.name });
      await dialog.waitFor();
      expect(await dialog.evaluate((element) => (element as unknown as { open: boolean }).open)).toBe(true);
      expect(await dialog.getByRole('img').getAttribute('src')).toBe(greenSrc);
      await page.waitForFunction(`document.querySelector('[data-zoom-image]').complete`);
      expect(await accessibilityViolations(page)).toEqual([]);

      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      // Focus goes back to where the shopper was.
      expect(await page.evaluate(ZOOM_LINK_FOCUSED)).toBe(true);

      // And again, closed with its button this time.
      await zoomLink.press('Enter');
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'hidden' });
      expect(await page.evaluate(ZOOM_LINK_FOCUSED)).toBe(true);

      expect(await page.evaluate('window.cspViolations')).toEqual([]);
    });
  });
});
