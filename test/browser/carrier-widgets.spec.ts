import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { Cart } from '../../src/commerce/carts/cart.entity';
import { Order } from '../../src/commerce/orders/order.entity';
import { fillCheckoutDetails, launchBrowser, watchPage } from '../support/browser';
import { productBySku } from '../support/catalog';
import { AJAX, shippingValue } from '../support/checkout';
import { eventually, startTestApp, TestApp, usingMysql } from '../support/test-app';

const ARTIFACTS = join(__dirname, '..', 'artifacts');
const WIDGET_EVENTS = ['carrier-a-shipping-selected', 'shipping-option-data', 'set-action-result'];

interface RecordedEvent {
  type: string;
  detail: unknown;
}

/** The page's window as these tests use it in `page.evaluate` (the tests compile without DOM types). */
interface PageWindow {
  recorded: RecordedEvent[];
  addEventListener(type: string, listener: (event: { detail: unknown }) => void): void;
  dispatchEvent(event: unknown): boolean;
  CustomEvent: new (type: string) => unknown;
}

/**
 * The checkout page in a real browser (Debian's Chromium): carrier A's and carrier B's pickup widgets, their
 * window events, the point saved on the cart, and an order placed through the page. Every test fails on a
 * console error or a failed request of the page.
 */
describe(`carrier widgets at checkout, in the browser (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let watcher: ReturnType<typeof watchPage>;
  let parcelShop: string;
  let carrierB: string;

  beforeAll(async () => {
    [shop, browser] = await Promise.all([startTestApp({ listen: true }), launchBrowser()]);
    parcelShop = await shippingValue(shop.dataSource, 'parcelshop', 'carrier-a');
    carrierB = await shippingValue(shop.dataSource, 'pickup-point', 'carrier-b');
  });
  afterAll(async () => {
    await browser?.close();
    await shop?.close();
  });

  beforeEach(async () => {
    context = await browser.newContext({ baseURL: shop.config.baseUrl });
    page = await context.newPage();
    watcher = watchPage(page);
  });
  afterEach(async () => {
    watcher.expectClean();
    await context.close();
  });

  /** Adds the headlamp (as the catalog's script would), then walks from the cart page to checkout. */
  async function openCheckoutWithHeadlamp(): Promise<void> {
    const token = (await (await context.request.get('/shop/customer/csrf-token')).json()).csrfToken as string;
    const headlamp = await productBySku(shop.dataSource, 'DEMO-HEADLAMP');
    const added = await context.request.post('/shop/cart/add', {
      headers: { ...AJAX, 'X-CSRF-Token': token },
      data: { product: headlamp.id, qty: 1 },
    });
    expect(added.status()).toBe(200);
    await page.goto('/shop/cart');
    await page.getByRole('link', { name: 'Go to checkout' }).click();
    await page.waitForURL('**/shop/checkout');
  }

  async function chooseShipping(value: string): Promise<void> {
    await page.locator(`input[name="shippingMethod"][value="${value}"]`).check();
  }

  async function recordWidgetEvents(): Promise<void> {
    await page.evaluate((names) => {
      const window = globalThis as unknown as PageWindow;
      window.recorded = [];
      for (const name of names) {
        window.addEventListener(name, (event) => window.recorded.push({ type: name, detail: event.detail }));
      }
    }, WIDGET_EVENTS);
  }

  async function recordedEvents(count: number): Promise<RecordedEvent[]> {
    await page.waitForFunction((expected) => (globalThis as unknown as PageWindow).recorded.length >= expected, count);
    return page.evaluate(() => (globalThis as unknown as PageWindow).recorded);
  }

  async function cartOf(email: string): Promise<Cart> {
    return shop.dataSource.getRepository(Cart).findOneByOrFail({ email });
  }

  it('sends a shopper with an empty cart back to the cart page', async () => {
    await page.goto('/shop/checkout');
    expect(new URL(page.url()).pathname).toBe('/shop/cart');
  });

  it("lists carrier A's pickup points for the address, and saves the one picked with both events", async () => {
    const pointRequests: string[] = [];
    page.on('request', (sent) => {
      if (sent.url().includes('carrier-a/api/pickup-points')) pointRequests.push(sent.url());
    });
    await openCheckoutWithHeadlamp();
    await fillCheckoutDetails(page, 'widget-a@example.com');
    await chooseShipping(parcelShop);

    const points = page.locator('.shipping-widget .pickup-point');
    await points.first().waitFor();
    const expected = (
      await request(shop.server).get('/index.php?p=carrier-a/api/pickup-points&country=carrier-a&zipCode=81101')
    ).body.points;
    expect(await points.count()).toBe(expected.length);
    expect(pointRequests).toEqual([
      `${shop.config.baseUrl}/index.php?p=carrier-a/api/pickup-points&country=carrier-a&zipCode=811%2001`,
    ]);
    const first = points.first();
    expect(await first.textContent()).toContain(expected[0].name);
    expect(await first.textContent()).toContain(`${expected[0].street}, ${expected[0].zipCode} ${expected[0].city}`);
    expect(await first.textContent()).toContain(expected[0].openingHours);

    await recordWidgetEvents();
    await first.locator('label').click();
    expect(await recordedEvents(2)).toEqual([
      { type: 'carrier-a-shipping-selected', detail: expected[0] },
      { type: 'shipping-option-data', detail: { method: 'carrier-a', pickupPoint: expected[0] } },
    ]);
    const saved = await eventually(async () => {
      const cart = await cartOf('widget-a@example.com');
      return cart.pickupPoint ? cart : null;
    });
    expect(saved.shippingMethod).toBe(parcelShop);
    expect(saved.pickupPoint).toEqual(expected[0]);

    // A search for another postal code asks the endpoint again.
    const widget = page.locator('.shipping-widget');
    await widget.getByLabel('Postal code for pickup points').fill('04001');
    await widget.getByRole('button', { name: 'Search' }).click();
    await eventually(() => pointRequests.length === 2);
    expect(pointRequests[1]).toContain('&country=carrier-a&zipCode=04001');
  });

  it("opens carrier B's widget, saves the point picked, ignores a close, and resets on toggle-carrier-b", async () => {
    let optionRequests = 0;
    page.on('request', (sent) => {
      if (sent.url().endsWith('/index.php?p=carrier-b/api/options')) optionRequests++;
    });
    await openCheckoutWithHeadlamp();
    await fillCheckoutDetails(page, 'widget-b@example.com');
    await chooseShipping(carrierB);
    const choose = page.getByRole('button', { name: 'Choose pickup point' });
    await choose.waitFor();
    await eventually(() => optionRequests === 1);
    const chosen = page.locator('.pickup-chosen');
    expect(await chosen.textContent()).toBe('No pickup point chosen yet.');

    await recordWidgetEvents();
    await choose.click();
    const sandboxWidget = page.getByRole('dialog', { name: 'Choose a pickup point' });
    await sandboxWidget.getByRole('button', { name: /^Sandbox point Hlavná/ }).click();
    const address = 'Sandbox point Hlavná, Hlavná 1, 811 01 Bratislava';
    const [actionResult, optionData] = await recordedEvents(2);
    expect(actionResult).toEqual({ type: 'set-action-result', detail: { address } });
    expect(optionData).toEqual({
      type: 'shipping-option-data',
      detail: {
        method: 'carrier-b',
        pickupPoint: expect.objectContaining({ id: '1001', pickupPointType: 'internal', address }),
      },
    });
    expect(await chosen.textContent()).toBe(`Pickup point: ${address}`);
    const internal = await eventually(async () => (await cartOf('widget-b@example.com')).pickupPoint);
    expect(internal).toEqual({
      id: '1001',
      pickupPointType: 'internal',
      name: 'Sandbox point Hlavná',
      street: 'Hlavná 1',
      city: 'Bratislava',
      zip: '811 01',
      country: 'sk',
      address,
    });
    expect((await cartOf('widget-b@example.com')).shippingMethod).toBe(carrierB);

    // Closing the widget without a choice changes nothing.
    await choose.click();
    await sandboxWidget.getByRole('button', { name: 'Close' }).click();
    await sandboxWidget.waitFor({ state: 'detached' });
    expect(await chosen.textContent()).toBe(`Pickup point: ${address}`);

    // Another carrier's box keeps that carrier's ids instead of the point id.
    await choose.click();
    await sandboxWidget.getByRole('button', { name: /^Partner box Nivy/ }).click();
    const external = await eventually(async () => {
      const point = (await cartOf('widget-b@example.com')).pickupPoint;
      return point?.pickupPointType === 'external' ? point : null;
    });
    expect(external).toMatchObject({ carrierId: 'sk-box', carrierPickupPointId: 'B-77', name: 'Partner box Nivy' });
    expect(external).not.toHaveProperty('id');
    expect((await recordedEvents(4)).map((event) => event.type)).toEqual([
      'set-action-result',
      'shipping-option-data',
      'set-action-result',
      'shipping-option-data',
    ]);

    await page.evaluate(() => {
      const window = globalThis as unknown as PageWindow;
      window.dispatchEvent(new window.CustomEvent('toggle-carrier-b'));
    });
    await eventually(() => optionRequests === 2);
    expect(await chosen.textContent()).toBe('No pickup point chosen yet.');
  });

  it('places an order through the page with a carrier A pickup point, shown on the success page and the order', async () => {
    await openCheckoutWithHeadlamp();
    await fillCheckoutDetails(page, 'widget-order@example.com');
    await chooseShipping(parcelShop);

    // Nobody collects cash at a pickup point: cash on delivery is not offered with it.
    const transfer = page.locator('input[name="paymentMethod"][value="bank-transfer-manual"]');
    await transfer.waitFor();
    expect(await page.locator('input[name="paymentMethod"][value="cod"]').count()).toBe(0);
    await transfer.check();
    await eventually(async () => (await cartOf('widget-order@example.com')).paymentMethod === 'bank-transfer-manual');

    // The ParcelShop method is not taken without its point.
    await page.getByRole('button', { name: 'Order with obligation to pay' }).click();
    await page.getByRole('alert').filter({ hasText: 'Choose a pickup point for Carrier A ParcelShop.' }).waitFor();

    const point = page.locator('.shipping-widget .pickup-point').first();
    const pointName = (await point.locator('strong').textContent())!;
    await point.locator('label').click();
    await eventually(async () => (await cartOf('widget-order@example.com')).pickupPoint);

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({
      path: join(ARTIFACTS, `checkout-${usingMysql ? 'mariadb' : 'sqlite'}.png`),
      fullPage: true,
    });

    await page.getByRole('button', { name: 'Order with obligation to pay' }).click();
    await page.waitForURL('**/shop/checkout/success');
    const order = await shop.dataSource.getRepository(Order).findOneByOrFail({ email: 'widget-order@example.com' });
    expect(order.shippingMethod).toBe(parcelShop);
    expect(order.pickupPoint).toMatchObject({ name: pointName });
    const saved = order.pickupPoint as { name: string; street: string; zipCode: string; city: string };
    const delivery = `Carrier A ParcelShop: ${saved.name}, ${saved.street}, ${saved.zipCode} ${saved.city}`;
    expect(await page.locator('.order-reference').textContent()).toContain(order.reference);
    expect(await page.locator('.delivery-method').textContent()).toBe(delivery);

    await page.locator(`a[href="/shop/order/view/${order.number}"]`).click();
    await page.waitForURL(`**/shop/order/view/${order.number}`);
    expect(await page.locator('.delivery-method').textContent()).toBe(delivery);
  });
});
