import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { Cart } from '../../src/commerce/carts/cart.entity';
import { CouponService } from '../../src/commerce/coupons/coupon.service';
import { shopNow } from '../../src/commerce/delivery/shop-calendar';
import { SalesDocument } from '../../src/commerce/invoices/sales-document.entity';
import { Order } from '../../src/commerce/orders/order.entity';
import { OrderReturn } from '../../src/commerce/returns/return.entity';
import { SettingsService } from '../../src/config/settings.service';
import {
  addToCart,
  cpLogIn,
  expectText,
  fillCheckoutDetails,
  follow,
  launchBrowser,
  settled,
  watchPage,
  VIEWPORTS,
} from '../support/browser';
import { shippingValue } from '../support/checkout';
import { pdfText } from '../support/pdf-text';
import { eventually, startTestApp, TestApp, usingMysql } from '../support/test-app';

const ARTIFACTS = join(__dirname, '..', 'artifacts', 'shopper-journey');
const COUPON = 'JOURNEY10';

/**
 * A shopper in a real browser (Debian's Chromium), through every page from the listing to the paid order, and on
 * with staff in a browser of their own: the order shipped and delivered, its parcel on the shopper's order page, a
 * line returned from there, the return approved, received and refunded in the CP, the credit note downloaded. On a
 * desktop and on a phone-sized screen. Each step is checked on what the page shows; any console error, failed
 * request or error answer of either page fails the test. Screenshots of the main pages go to test/artifacts/.
 */
describe(`a shopper's journey in the browser (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let browser: Browser;
  let flatRate: string;
  let storePickup: string;

  beforeAll(async () => {
    [shop, browser] = await Promise.all([startTestApp({ listen: true }), launchBrowser()]);
    flatRate = await shippingValue(shop.dataSource, 'flat-rate');
    storePickup = await shippingValue(shop.dataSource, 'store-pickup');
    await shop.app.get(CouponService).create({ code: COUPON, type: 'percent', value: 10 });
    // The shop asks shoppers to accept its terms: the journey ticks the box.
    await shop.app.get(SettingsService).save({ salesTermsCheckbox: true });
    mkdirSync(ARTIFACTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await shop?.close();
  });

  describe.each(VIEWPORTS)('on a $name screen', ({ name, viewport }) => {
    let context: BrowserContext;
    let page: Page;
    let watcher: ReturnType<typeof watchPage>;
    let staffContext: BrowserContext | undefined;
    let staffWatcher: ReturnType<typeof watchPage> | undefined;

    beforeEach(async () => {
      context = await browser.newContext({ baseURL: shop.config.baseUrl, viewport });
      context.setDefaultTimeout(10_000);
      page = await context.newPage();
      watcher = watchPage(page);
    });
    afterEach(async () => {
      try {
        watcher.expectClean();
        staffWatcher?.expectClean();
      } finally {
        await context.close();
        await staffContext?.close();
        staffContext = staffWatcher = undefined;
      }
    });

    /** A full-page screenshot loads every lazy image: they are let finish, so leaving the page aborts nothing. */
    function screenshot(what: string): Promise<void> {
      return screenshotOf(page, what);
    }

    async function screenshotOf(shown: Page, what: string): Promise<void> {
      await settled(shown);
      await shown.screenshot({ path: join(ARTIFACTS, `${name}-${what}.png`), fullPage: true });
      await settled(shown);
    }

    /** Staff in a browser of their own (the shopper's session stays apart), logged in to the CP. */
    async function staffLogsIn(): Promise<Page> {
      staffContext = await browser.newContext({ baseURL: shop.config.baseUrl, viewport });
      staffContext.setDefaultTimeout(10_000);
      const cp = await staffContext.newPage();
      staffWatcher = watchPage(cp);
      await cpLogIn(cp);
      return cp;
    }

    it('browses, fills the cart, checks out in another currency, pays at the bank and sees the order paid', async () => {
      // From the home page's category menu (behind its button on a phone) to Camping, narrowed to one brand.
      await page.goto('/');
      const menu = page.locator('.category-menu');
      if (!(await menu.locator('.category-nav').isVisible())) await follow(menu.locator('summary'));
      await follow(menu.getByRole('link', { name: 'Camping', exact: true }));
      await page.waitForURL('**/shop/c/camping');
      await expectText(page.locator('h1'), 'Camping');
      await expectText(page.locator('main'), 'Ridgeline 2-Person Tent');
      await page.getByRole('checkbox', { name: /^Firefly/ }).check();
      await follow(page.getByRole('button', { name: 'Apply' }));
      await page.waitForURL(/[?&]f\.brand=firefly\b/);
      await expectText(page.locator('.catalog-count'), '3 products');
      expect(await page.locator('.product-grid').textContent()).not.toContain('Ridgeline 2-Person Tent');
      await screenshot('category-faceted');
      await follow(page.getByRole('link', { name: 'Beam 300 Headlamp' }).first());
      await expectText(page.locator('h1'), 'Beam 300 Headlamp');
      await expectText(page.locator('main'), '€39.00');
      await addToCart(page, 'Beam 300 Headlamp');
      await expectText(miniCartCount(page), '1');
      await settled(page);

      // Paging through the listing, then the header search to a configurable product.
      await page.goto('/shop/catalog/products');
      await follow(page.locator('a[rel="next"]').first());
      await page.waitForURL(/[?&]page=2\b/);
      await expectText(page.locator('h1'), 'Products');
      await settled(page);
      await search(page, 't-shirt');
      await follow(page.getByRole('link', { name: 'Trail Logo T-Shirt' }).first());
      await expectText(page.locator('h1'), 'Trail Logo T-Shirt');
      await pickOption(page, 'size', 'M');
      await pickOption(page, 'color', 'blue');
      await screenshot('product');
      await addToCart(page, 'Trail Logo T-Shirt');
      await expectText(miniCartCount(page), '2');
      await settled(page);

      // The cart: both lines, a changed quantity, a coupon.
      await follow(page.locator('a.mini-cart'));
      await page.waitForURL('**/shop/cart');
      const headlamp = cartLine(page, 'Beam 300 Headlamp');
      const tee = cartLine(page, 'Trail Logo T-Shirt');
      await expectText(headlamp, '€39.00');
      await expectText(tee.locator('.cart-line-options'), 'size: M');
      await expectText(tee.locator('.cart-line-options'), 'color: blue');
      await expectText(page.locator('.cart-totals .subtotal'), '€63.90');

      await headlamp.getByLabel('Quantity of Beam 300 Headlamp', { exact: true }).fill('2');
      await headlamp.getByRole('button', { name: /^Update/ }).click();
      await expectText(page.locator('#cart-message'), 'Your cart was updated.');
      await expectText(headlamp.locator('.cart-line-total'), '€78.00');
      await expectText(page.locator('.cart-totals .subtotal'), '€102.90');
      await expectText(miniCartCount(page), '3');

      await page.getByLabel('Coupon code').fill(COUPON.toLowerCase());
      await page.getByRole('button', { name: 'Apply coupon' }).click();
      await expectText(page.locator('#cart-message'), `Coupon ${COUPON} applied.`);
      await expectText(page.locator('.cart-totals .discount'), '€10.29');
      await expectText(page.locator('.cart-totals .total'), '€92.61');
      await screenshot('cart');

      // A share link for the cart.
      await page.getByRole('button', { name: 'Create a share link' }).click();
      const shareLink = page.getByLabel('Anyone with this link can add these items to their own cart');
      await shareLink.waitFor();
      expect(await shareLink.inputValue()).toMatch(/\/shop\/cart\/share\/[0-9a-f]{32}$/);

      // Another currency: every amount follows.
      await switchCurrency(page, 'CZK');
      await expectText(page.locator('.cart-totals .total'), 'CZK');
      await expectText(page.locator('.cart-totals .discount'), 'CZK');
      await expectText(headlamp.locator('.cart-line-total'), 'CZK');

      // Checkout: details, door delivery in a slot, the bank's card payment.
      await follow(page.getByRole('link', { name: 'Go to checkout' }));
      await page.waitForURL('**/shop/checkout');
      await expectText(page.locator('#checkout-totals [data-amount="total"]'), 'CZK');
      const email = `journey-${name}-paid@example.com`;
      await fillCheckoutDetails(page, email);
      const courier = page.locator('.method', { has: page.locator(`input[value="${flatRate}"]`) });
      await expectText(courier, /Courier\s*CZK/);
      await courier.locator('input').check();
      const day = nextDeliveryDay();
      await page.getByLabel('Delivery day').fill(day);
      await page.getByLabel('08:00–12:00').check();
      await eventually(async () => (await cartOf(email)).deliverySlotId !== null);
      await page.locator('input[name="paymentMethod"][value="bankpay"]').check();
      await eventually(async () => (await cartOf(email)).paymentMethod === 'bankpay');
      await screenshot('checkout');

      // The button says that ordering means paying; the terms box must be ticked first.
      const orderButton = page.locator('#checkout-place-order');
      expect((await orderButton.textContent())?.trim()).toBe('Order with obligation to pay');
      const terms = page.getByLabel('I accept the terms and conditions');
      await orderButton.click();
      // The browser's own check holds the order back until the box is ticked.
      expect(await page.locator('#checkout-acceptTerms:invalid').count()).toBe(1);
      expect(page.url()).toMatch(/\/shop\/checkout$/);
      await terms.check();
      await orderButton.click();
      await page.waitForURL('**/_sandbox/bankpay/pay/**');
      const order = await orderOf(email);
      expect(order.currency).toBe('CZK');
      expect(order.termsVersion).toBe(1);
      expect(order.termsAcceptedAt).not.toBeNull();
      await expectText(page.locator('main'), `${(order.total / 100).toFixed(2)} CZK`);
      await screenshot('bank');
      await page.getByRole('button', { name: 'Pay by card' }).click();

      await page.waitForURL('**/shop/checkout/success');
      await expectText(page.locator('h1'), 'Thank you for your order');
      await expectText(page.locator('.order-reference'), order.reference);
      await expectText(page.locator('.order-number'), order.number);
      await expectText(page.locator('.order-status'), 'Paid');
      await expectText(page.locator('main'), `Delivery slot: ${day}, 08:00–12:00`);
      await expectText(page.locator('main'), `Discount (${COUPON})`);
      await screenshot('success');

      await follow(page.locator(`a[href="/shop/order/view/${order.number}"]`).first());
      await page.waitForURL(`**/shop/order/view/${order.number}`);
      await expectText(page.locator('h1'), `Order ${order.reference}`);
      await expectText(page.locator('.order-status'), 'Paid');
      await expectText(page.locator('.order-summary'), 'Trail Logo T-Shirt');
      await screenshot('order-view');
      expect((await reload(order)).status).toBe('paid');

      // Staff, in their own browser, ship the order by hand and later see it delivered.
      const cp = await staffLogsIn();
      await settled(cp);
      await cp.goto(`/admin/orders?q=${order.number}`);
      await follow(cp.getByRole('link', { name: order.reference, exact: true }));
      await expectText(cp.locator('h1'), `Order ${order.reference}`);
      await screenshotOf(cp, 'cp-order');
      const trackingNumber = `JRN${order.number}`;
      const trackingUrl = `https://tracking.example.com/parcels/${trackingNumber}`;
      await cp.getByLabel('Carrier').fill('Journey Express');
      await cp.getByLabel('Tracking number').fill(trackingNumber);
      await cp.getByLabel('Tracking page (optional)').fill(trackingUrl);
      await follow(cp.getByRole('button', { name: 'Add shipment' }));
      const parcel = cp.locator('table.shipments tr', { hasText: trackingNumber });
      await expectText(parcel, 'in_transit');
      await expectText(cp.locator('.facts .status'), 'Shipped');
      await follow(parcel.getByRole('button', { name: 'Mark delivered' }));
      await expectText(cp.locator('table.shipments tr', { hasText: trackingNumber }), 'delivered');
      await expectText(cp.locator('.facts .status'), 'Completed');
      await screenshotOf(cp, 'cp-order-shipped');
      expect((await reload(order)).status).toBe('completed');

      // The shopper's order page shows the parcel: carrier, tracking number and link, its status.
      await page.reload();
      await expectText(page.locator('.order-status'), 'Completed');
      const shipment = page.locator('.order-shipments .shipment');
      await expectText(shipment, 'Journey Express');
      await expectText(shipment.locator('.tracking-number'), trackingNumber);
      await expectText(shipment.locator('.shipment-status'), 'Delivered');
      expect(await shipment.getByRole('link', { name: 'Track the parcel' }).getAttribute('href')).toBe(trackingUrl);

      // From the same page, the shopper sends the T-shirt back.
      const returnForm = page.locator('form.return-form');
      await returnForm.locator('tr', { hasText: 'Trail Logo T-Shirt' }).getByRole('spinbutton').fill('1');
      await returnForm.getByLabel('Why are you returning them?').fill('The colour is not what I expected.');
      await screenshot('order-shipped');
      await follow(returnForm.getByRole('button', { name: 'Request a return' }));
      await expectText(page.locator('main'), 'Return requested. We will let you know by e-mail.');
      await expectText(page.locator('.return-list .return'), 'Trail Logo T-Shirt');
      await expectText(page.locator('.return-list .return .status'), 'Requested');
      const requested = await eventually(() =>
        shop.dataSource.getRepository(OrderReturn).findOneBy({ orderId: order.id }),
      );
      expect(requested.status).toBe('requested');

      // Staff approve it, receive the parcel and refund it, from the return's page.
      await settled(cp);
      await cp.reload();
      await follow(cp.locator('.order-returns').getByRole('link', { name: `Return ${requested.id}` }));
      await expectText(cp.locator('h1'), `Return ${requested.id}`);
      await cp.getByLabel('Message to the customer (how to send the goods back)').fill('Post it to our warehouse.');
      await follow(cp.getByRole('button', { name: 'Approve' }));
      await expectText(cp.locator('.facts .status'), 'approved');
      await follow(cp.getByRole('button', { name: 'Mark received' }));
      await expectText(cp.locator('.facts .status'), 'received');
      await screenshotOf(cp, 'cp-return');
      await follow(cp.locator('form.refund-form').getByRole('button', { name: 'Refund' }));
      await expectText(cp.locator('.facts .status'), 'refunded');
      await screenshotOf(cp, 'cp-return-refunded');
      const refunded = await shop.dataSource.getRepository(OrderReturn).findOneByOrFail({ id: requested.id });
      expect(refunded).toMatchObject({ status: 'refunded', refundId: expect.any(Number) });
      const creditNote = await eventually(() =>
        shop.dataSource.getRepository(SalesDocument).findOneBy({ orderId: order.id, kind: 'credit_note' }),
      );

      // The shopper sees the return refunded and downloads the credit note.
      await page.reload();
      await expectText(page.locator('.return-list .return .status'), 'Refunded');
      await screenshot('order-refunded');
      const [download, answer] = await Promise.all([
        page.waitForEvent('download'),
        page.waitForResponse((response) => response.url().endsWith(`/credit-notes/${creditNote.id}`)),
        page.getByRole('link', { name: `Download credit note ${creditNote.number} (PDF)` }).click(),
      ]);
      expect(answer.status()).toBe(200);
      expect(answer.headers()['content-type']).toMatch(/^application\/pdf/);
      expect(answer.headers()['content-disposition']).toMatch(/^attachment/);
      const pdf = readFileSync(await download.path());
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      expect(pdfText(pdf)).toContain(creditNote.number);
    });

    it('pays by card, is declined, retries from the failed page and pays', async () => {
      // With the bank's card redirect a declined card leaves the order awaiting payment (the REST API's
      // decline cancels the order instead), so the shopper can try again.
      const settings = shop.app.get(SettingsService);
      await settings.save({ 'bankpay.paymentType': 'bankCardPay' });
      try {
        await page.goto('/shop/catalog/products');
        await settled(page);
        await search(page, 'headlamp');
        await follow(page.getByRole('link', { name: 'Beam 300 Headlamp' }).first());
        await expectText(page.locator('h1'), 'Beam 300 Headlamp');
        await addToCart(page, 'Beam 300 Headlamp');
        await expectText(miniCartCount(page), '1');
        await settled(page);
        await page.goto('/shop/cart');
        await follow(page.getByRole('link', { name: 'Go to checkout' }));
        await page.waitForURL('**/shop/checkout');

        // A company buyer: the VAT id is checked with the EU VAT service as it is entered.
        const email = `journey-${name}-retry@example.com`;
        await page.getByLabel('Company name on the invoice (optional)').fill('Sandbox Company s.r.o.');
        await page.getByLabel('VAT ID (optional)').fill('SK2020123456');
        await page.getByLabel('VAT ID (optional)').press('Tab');
        await expectText(page.locator('#checkout-vatId-status'), 'VAT ID verified: SANDBOX COMPANY SK2020123456');
        await fillCheckoutDetails(page, email);
        await page.locator(`input[name="shippingMethod"][value="${storePickup}"]`).check();
        await page.locator('input[name="paymentMethod"][value="bankpay"]').check();
        await eventually(async () => (await cartOf(email)).paymentMethod === 'bankpay');
        await page.getByLabel('I accept the terms and conditions').check();
        await page.getByRole('button', { name: 'Order with obligation to pay' }).click();

        await page.waitForURL('**/_sandbox/bankpay/cardpay?**');
        const order = await orderOf(email);
        await expectText(page.locator('main'), `${(order.total / 100).toFixed(2)} EUR`);
        await page.getByRole('button', { name: 'Decline', exact: true }).click();

        await page.waitForURL('**/shop/checkout/failed');
        await expectText(page.locator('h1'), 'Your payment was not completed');
        await expectText(page.locator('main'), order.reference);
        await screenshot('failed');
        expect((await reload(order)).status).toBe('pending_payment');

        await follow(page.getByRole('link', { name: 'Try the payment again' }));
        await page.waitForURL('**/_sandbox/bankpay/cardpay?**');
        await page.getByRole('button', { name: 'Pay', exact: true }).click();
        await page.waitForURL('**/shop/checkout/success');
        await expectText(page.locator('.order-reference'), order.reference);
        await expectText(page.locator('.order-status'), 'Paid');

        await settled(page);
        await page.goto(`/shop/order/view/${order.number}`);
        await expectText(page.locator('.order-status'), 'Paid');
        await expectText(page.locator('.order-summary'), 'Sandbox Company s.r.o.');
        expect((await reload(order)).status).toBe('paid');
      } finally {
        await settings.save({ 'bankpay.paymentType': 'bankPayPlusAPI' });
      }
    });
  });

  function cartOf(email: string): Promise<Cart> {
    return shop.dataSource.getRepository(Cart).findOneByOrFail({ email });
  }

  function orderOf(email: string): Promise<Order> {
    return eventually(() => shop.dataSource.getRepository(Order).findOneBy({ email }));
  }

  function reload(order: Order): Promise<Order> {
    return shop.dataSource.getRepository(Order).findOneByOrFail({ id: order.id });
  }
});

function miniCartCount(page: Page): Locator {
  return page.locator('a.mini-cart [data-minicart-count]');
}

function cartLine(page: Page, product: string): Locator {
  return page.locator('tr.cart-line', { has: page.getByRole('link', { name: product }) });
}

/** Picks a configurable product's option, whether the page offers it as a list or as buttons. */
async function pickOption(page: Page, code: string, value: string): Promise<void> {
  const field = page.locator(`[name="configuration[${code}]"]`);
  if ((await field.first().evaluate((element) => element.tagName)) === 'SELECT') {
    await field.selectOption(value);
  } else {
    await page.locator(`[name="configuration[${code}]"][value="${value}"]`).check();
  }
}

/** The header's search box. */
async function search(page: Page, query: string): Promise<void> {
  const box = page.locator('form[role="search"] input[name="q"]').first();
  await box.fill(query);
  await box.press('Enter');
  await page.waitForURL(/\/shop\/catalog\/search-results\?q=/);
}

/** The header's currency switch; the page loads again in the new currency. */
async function switchCurrency(page: Page, code: string): Promise<void> {
  await settled(page);
  const form = page.locator('form.currency-switch').first();
  // shop.js submits the form on change; without it, the button does.
  const reloaded = page.waitForEvent('load', { timeout: 3_000 }).then(
    () => true,
    () => false,
  );
  await form.locator('select[name="currency"]').selectOption(code);
  if (await reloaded) return;
  const submitted = page.waitForEvent('load');
  await form.locator('[type="submit"]').click();
  await submitted;
}

/** The first day from tomorrow on that delivery slots run (the demo shop delivers Monday to Saturday). */
function nextDeliveryDay(): string {
  const today = Date.parse(`${shopNow('Europe/Bratislava').date}T00:00:00Z`);
  for (let days = 1; ; days++) {
    const date = new Date(today + days * 86_400_000);
    if (date.getUTCDay() !== 0) return date.toISOString().slice(0, 10);
  }
}
