import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { OrderHistory } from '../../src/commerce/orders/order-history.entity';
import { OrderLine } from '../../src/commerce/orders/order-line.entity';
import { Order } from '../../src/commerce/orders/order.entity';
import { Withdrawal, WithdrawalLine } from '../../src/commerce/withdrawals/withdrawal.entity';
import { cpHeaderLink, cpLogIn, expectText, follow, launchBrowser, VIEWPORTS, watchPage } from '../support/browser';
import { productBySku } from '../support/catalog';
import { insertOrder } from '../support/fixtures';
import { startTestApp, TestApp, usingMysql } from '../support/test-app';

const ARTIFACTS = join(__dirname, '..', 'artifacts', 'withdrawal-journey');

/**
 * A guest withdraws from a delivered order in a real browser, without logging in and without JavaScript's help: the
 * footer's link, the order's reference and e-mail, the items (one unit kept), the confirmation, the receipt with its
 * time; then staff find it in the CP and make it a return. On a desktop and on a phone-sized screen, screenshots
 * of each step to test/artifacts/withdrawal-journey/; any console error, failed request or error answer fails the test.
 */
describe(`a guest's withdrawal in the browser (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
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

  /** A delivered order of two headlamps, written as checkout and delivery leave it. */
  async function deliveredOrder(): Promise<{ order: Order; line: OrderLine }> {
    const order = await insertOrder(shop.dataSource, 'completed');
    const headlamp = await productBySku(shop.dataSource, 'DEMO-HEADLAMP');
    const line = await shop.dataSource.getRepository(OrderLine).save({
      orderId: order.id,
      productId: headlamp.id,
      variantId: null,
      sku: 'DEMO-HEADLAMP',
      name: 'Beam 300 Headlamp',
      qty: 2,
      price: 3900,
      total: 7800,
      configuration: null,
      custom: null,
    });
    await shop.dataSource.getRepository(OrderHistory).save({
      orderId: order.id,
      fromStatus: 'shipped',
      toStatus: 'completed',
      note: null,
      actor: 'cp:admin@example.com',
    });
    return { order, line };
  }

  describe.each(VIEWPORTS)('on a $name screen', ({ name, viewport }) => {
    /** The guest's order, which staff then find. */
    let order: Order;

    it('withdraws from one of two items from the footer, and sees the receipt', async () => {
      const delivered = await deliveredOrder();
      order = delivered.order;
      const { line } = delivered;
      const context = await browser.newContext({ baseURL: shop.config.baseUrl, viewport, javaScriptEnabled: false });
      context.setDefaultTimeout(10_000);
      const page = await context.newPage();
      const watcher = watchPage(page);
      const screenshot = (what: string) =>
        page.screenshot({ path: join(ARTIFACTS, `${name}-${what}.png`), fullPage: true });
      try {
        await page.goto('/');
        await follow(page.getByRole('link', { name: 'Withdraw from contract' }));
        await page.waitForURL('**/shop/withdrawal');
        await expectText(page.locator('h1'), 'Withdraw from contract');
        await page.getByLabel('Order number').fill(order.reference);
        await page.getByLabel('E-mail address').fill(order.email);
        await screenshot('1-find');
        await follow(page.getByRole('button', { name: 'Continue', exact: true }));

        // Step 1: both units chosen; the shopper keeps one.
        await page.waitForURL(`**/shop/order/withdraw/${order.number}`);
        await expectText(page.locator('main'), 'Step 1 of 2');
        await expectText(page.locator('main'), 'The withdrawal period ends on');
        const qty = page.getByRole('spinbutton', { name: 'Withdraw: Beam 300 Headlamp' });
        expect(await qty.inputValue()).toBe('2');
        await qty.fill('1');
        await screenshot('2-items');
        await follow(page.getByRole('button', { name: 'Continue to confirmation' }));

        // Step 2: what is withdrawn, to confirm.
        await page.waitForURL('**/confirm?*');
        await expectText(page.locator('main'), 'Step 2 of 2');
        await expectText(page.locator('.withdrawal-chosen'), '1 × Beam 300 Headlamp');
        await screenshot('3-confirm');
        await follow(page.getByRole('button', { name: 'Confirm withdrawal' }));

        // The receipt, with the time of receipt the database holds.
        await page.waitForURL('**/received/*');
        const [withdrawal] = await shop.dataSource.getRepository(Withdrawal).findBy({ orderId: order.id });
        const receivedAt = withdrawal.dateCreated.toISOString().replace('T', ' ').slice(0, 19);
        await expectText(page.locator('h1'), 'Withdrawal received');
        await expectText(page.locator('.withdrawal-received'), `on ${receivedAt} (UTC)`);
        await expectText(page.locator('main'), `A confirmation has been sent to ${order.email}.`);
        await screenshot('4-received');
        expect(
          await shop.dataSource.getRepository(WithdrawalLine).findBy({ withdrawalId: withdrawal.id }),
        ).toMatchObject([{ orderLineId: line.id, qty: 1 }]);

        // The order's page links the function too; the unit kept is still there to withdraw from.
        await page.goto(`/shop/order/view/${order.number}`);
        await follow(page.locator('.order-withdrawal').getByRole('link', { name: 'Withdraw from contract' }));
        await page.waitForURL(`**/shop/order/withdraw/${order.number}`);
        expect(await qty.inputValue()).toBe('1');
        await expectText(page.locator('.withdrawal-earlier'), 'Withdrawal received');
        watcher.expectClean();
      } finally {
        await context.close();
      }
    });

    it('lets staff find the withdrawal with its period and make it a return in one step', async () => {
      // Staff, in a browser of their own.
      const cp = await browser.newContext({ baseURL: shop.config.baseUrl, viewport });
      cp.setDefaultTimeout(10_000);
      const staff = await cp.newPage();
      const staffWatcher = watchPage(staff);
      try {
        await cpLogIn(staff);
        await follow(await cpHeaderLink(staff, 'Withdrawals'));
        await staff.waitForURL(/\/admin\/withdrawals$/);
        const [withdrawal] = await shop.dataSource.getRepository(Withdrawal).findBy({ orderId: order.id });
        await follow(staff.getByRole('link', { name: `Withdrawal ${withdrawal.id}`, exact: true }));
        await expectText(staff.locator('.facts'), 'Period ends');
        await expectText(staff.locator('.facts'), 'on time');
        await staff.screenshot({ path: join(ARTIFACTS, `${name}-cp-withdrawal.png`), fullPage: true });
        await follow(staff.getByRole('button', { name: 'Make an approved return' }));
        await staff.waitForURL(/\/admin\/returns\/\d+$/);
        await expectText(staff.locator('.facts'), 'approved');
        staffWatcher.expectClean();
      } finally {
        await cp.close();
      }
    });
  });
});
