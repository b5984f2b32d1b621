import type { Browser } from 'playwright-core';
import { accessibilityViolations, launchBrowser, settled, VIEWPORTS, watchPage } from '../support/browser';
import { startTestApp, TestApp, usingMysql } from '../support/test-app';

/**
 * The header's search suggestions (public/js/search-suggest.js) in a real browser: typing opens the list, the arrow
 * keys and Enter open a product, the open list passes axe, and Escape closes it. On a desktop and a phone screen.
 */
describe(`search suggestions in the browser (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    [shop, browser] = await Promise.all([startTestApp({ listen: true }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await shop?.close();
  });

  it.each(VIEWPORTS)('suggests while typing and opens the chosen product on a $name screen', async ({ viewport }) => {
    const context = await browser.newContext({ baseURL: shop.config.baseUrl, viewport });
    const page = await context.newPage();
    const watcher = watchPage(page);
    // The cart page: the product cards of other pages have an axe finding of their own (label-content-name-mismatch).
    await page.goto('/shop/cart');
    // The script makes the field a combobox: found by its id, the role is checked below.
    const field = page.locator('#site-search-q');
    await field.waitFor();

    await field.pressSequentially('grind', { delay: 30 });
    const combobox = page.getByRole('combobox', { name: 'Search products' });
    await combobox.waitFor();
    const list = page.getByRole('listbox', { name: 'Suggestions' });
    await list.waitFor();
    await expect(combobox.getAttribute('aria-expanded')).resolves.toBe('true');
    const options = list.getByRole('option');
    // The product, then the demo's Grinders category.
    await expect(options.allTextContents()).resolves.toEqual([
      expect.stringContaining('Hand Burr Grinder'),
      expect.stringContaining('Grinders'),
    ]);
    await expect(page.locator('#site-search-status').textContent()).resolves.toMatch(/^Suggestions: 2\./);

    await field.press('ArrowDown');
    await expect(combobox.getAttribute('aria-activedescendant')).resolves.toBe('site-search-option-0');
    await expect(options.first().getAttribute('aria-selected')).resolves.toBe('true');
    expect(await accessibilityViolations(page)).toEqual([]);

    await field.press('Escape');
    await list.waitFor({ state: 'hidden' });
    await expect(combobox.getAttribute('aria-expanded')).resolves.toBe('false');

    await field.fill('');
    await field.pressSequentially('expresso', { delay: 30 });
    await list.waitFor();
    await expect(options.first().textContent()).resolves.toContain('Espresso');
    await field.press('ArrowDown');
    await Promise.all([page.waitForURL(/\/shop\/p\//), field.press('Enter')]);
    await settled(page);
    await expect(page.locator('h1').textContent()).resolves.toMatch(/Espresso/);

    // With nothing chosen, Enter searches as the plain form does.
    await field.fill('lantern');
    await expect(options.first().textContent()).resolves.toContain('Lantern');
    await Promise.all([page.waitForURL(/search-results\?q=lantern/), field.press('Enter')]);
    await expect(page.locator('h1').textContent()).resolves.toBe('Search');
    watcher.expectClean();
    await context.close();
  });
});
