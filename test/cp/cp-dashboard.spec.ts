import { DataSource } from 'typeorm';
import { CartLine } from '../../src/commerce/carts/cart-line.entity';
import { Cart } from '../../src/commerce/carts/cart.entity';
import { shopNow } from '../../src/commerce/delivery/shop-calendar';
import { OrderLine } from '../../src/commerce/orders/order-line.entity';
import { Order } from '../../src/commerce/orders/order.entity';
import { PaymentTransaction } from '../../src/commerce/payments/payment-transaction.entity';
import { Product } from '../../src/commerce/products/product.entity';
import { Refund } from '../../src/commerce/refunds/refund.entity';
import { Currency } from '../../src/commerce/stores/currency.entity';
import { CurrencyService } from '../../src/commerce/stores/currency.service';
import { CpUsersService } from '../../src/commerce/staff/cp-users.service';
import { randomHex32 } from '../../src/common/ids';
import { formatMoney } from '../../src/common/money-format';
import { dayFormatter } from '../../src/cp/dashboard-chart';
import { Job } from '../../src/jobs/job.entity';
import { insertOrder } from '../support/fixtures';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp } from '../support/test-app';

const DAY = 86_400_000;
/** Noon UTC `days` days ago. */
const noonDaysAgo = (days: number) => new Date(Date.now() - days * DAY - (Date.now() % DAY) + 12 * 3_600_000);
const lateEvening = new Date(noonDaysAgo(7).getTime() + 11.5 * 3_600_000);
const TIME_ZONE = 'Europe/Bratislava';
const EUR = { code: 'EUR', decimals: 2 };
const COUNTED = ['paid', 'processing', 'shipped', 'completed'];

/** The text of the first element matching `pattern`'s group, or a failure naming what was looked for. */
function section(html: string, pattern: RegExp): string {
  const match = pattern.exec(html);
  if (!match) throw new Error(`not on the page: ${pattern}`);
  return match[1];
}

/** Rows of a table body as cell texts (tags stripped). */
function rows(tableHtml: string): string[][] {
  return [...tableHtml.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...row[1].matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((cell) =>
      cell[1]
        .replace(/<[^>]+>/g, '')
        .replace(/&amp;/g, '&')
        .replace(/&#x27;/g, "'")
        .trim(),
    ),
  );
}

describe('CP dashboard', () => {
  let shop: TestApp;
  let db: DataSource;
  let admin: ShopClient;
  beforeAll(async () => {
    shop = await startTestApp();
    db = shop.dataSource;
    admin = new ShopClient(shop.server);
    await admin.loginCp();
    await seedSales();
  });
  afterAll(() => shop.close());

  /** Orders over several days, in every status that matters, with lines, a refund and a failed payment; carts. */
  async function seedSales() {
    const [coffee, tea, mug] = await db.getRepository(Product).find({ order: { id: 'ASC' }, take: 3 });
    const order = async (status: Order['status'], at: Date, total: number, lines: [Product, number, number][] = []) => {
      const placed = await insertOrder(db, status, { dateCreated: at, total });
      for (const [product, qty, lineTotal] of lines) {
        await db.getRepository(OrderLine).save({
          orderId: placed.id,
          productId: product.id,
          sku: product.sku,
          name: product.name,
          qty,
          price: Math.round(lineTotal / qty),
          total: lineTotal,
        });
      }
      return placed;
    };
    await order('paid', noonDaysAgo(1), 5000, [
      [coffee, 2, 3000],
      [tea, 1, 1500],
    ]);
    await order('completed', noonDaysAgo(1), 2500, [[tea, 3, 2500]]);
    await order('shipped', noonDaysAgo(3), 12000, [[mug, 1, 12000]]);
    const refundedPart = await order('processing', noonDaysAgo(5), 8000, [[coffee, 5, 7500]]);
    // 23:30 UTC is half past midnight in Bratislava: the order counts on the next store day.
    await order('paid', lateEvening, 3300, [[mug, 1, 3300]]);
    await order('canceled', noonDaysAgo(2), 9900, [[coffee, 9, 9900]]);
    await order('refunded', noonDaysAgo(2), 4400, [[tea, 4, 4400]]);
    await order('completed', noonDaysAgo(45), 7700, [[mug, 7, 7700]]);
    await order('pending_payment', noonDaysAgo(0), 1000);
    const failed = await order('pending_payment', noonDaysAgo(4), 2000);
    await order('payment_review', noonDaysAgo(6), 3000);

    const transaction = (orderId: number, status: PaymentTransaction['status']) =>
      db.getRepository(PaymentTransaction).save({
        orderId,
        gateway: 'test',
        code: 'card',
        reference: randomHex32(),
        amount: 2000,
        currency: 'EUR',
        status,
        extra: {},
      });
    await transaction(failed.id, 'canceled');
    await transaction(failed.id, 'failed');
    const paidAttempt = await transaction(refundedPart.id, 'success');
    const refund = (amount: number, status: Refund['status']) =>
      db.getRepository(Refund).save({
        orderId: refundedPart.id,
        paymentTransactionId: paidAttempt.id,
        idempotencyKey: randomHex32(),
        amount,
        paymentAmount: amount,
        currency: 'EUR',
        method: 'manual',
        status,
        reason: 'damaged',
        actor: 'cli',
      });
    await refund(1500, 'succeeded');
    await refund(700, 'failed');

    const cart = (values: Partial<Cart>) =>
      db.getRepository(Cart).save({ uid: randomHex32(), storeId: 1, currency: 'EUR', lastActivityAt: 0, ...values });
    await cart({});
    const browsing = await cart({});
    const checkingOut = await cart({ email: 'buyer@example.com' });
    for (const { id } of [browsing, checkingOut]) {
      await db.getRepository(CartLine).save({ cartId: id, productId: coffee.id, lineKey: `${coffee.id}`, qty: 1 });
    }
    await db
      .getRepository(Job)
      .save({ name: 'test-failed', payload: {}, status: 'failed', runAt: 0, attempts: 3, maxAttempts: 3 });
  }

  /** The store-local dates of the last 30 days, oldest first. */
  function period(): string[] {
    const today = Date.parse(`${shopNow(TIME_ZONE).date}T00:00:00Z`);
    return Array.from({ length: 30 }, (_, index) => new Date(today - (29 - index) * DAY).toISOString().slice(0, 10));
  }

  /** What the dashboard should say, worked out here from the rows themselves. */
  async function expected() {
    const dates = period();
    const inPeriod = (at: Date) => dates.includes(shopNow(TIME_ZONE, at.getTime()).date);
    const orders = (await db.getRepository(Order).find()).filter(
      (order) => COUNTED.includes(order.status) && inPeriod(order.dateCreated),
    );
    const refunds = await db.getRepository(Refund).findBy({ status: 'succeeded' });
    const refunded = (orderId: number) =>
      refunds.filter((refund) => refund.orderId === orderId).reduce((sum, refund) => sum + refund.amount, 0);
    const perDay = dates.map((date) => {
      const ofDay = orders.filter((order) => shopNow(TIME_ZONE, order.dateCreated.getTime()).date === date);
      return {
        date,
        revenue: ofDay.reduce((sum, order) => sum + order.total - refunded(order.id), 0),
        orders: ofDay.length,
      };
    });
    const revenue = perDay.reduce((sum, day) => sum + day.revenue, 0);
    const lines = (await db.getRepository(OrderLine).find()).filter((line) =>
      orders.some((order) => order.id === line.orderId),
    );
    const products = new Map<string, { units: number; revenue: number }>();
    for (const line of lines) {
      const product = products.get(line.name) ?? { units: 0, revenue: 0 };
      products.set(line.name, { units: product.units + line.qty, revenue: product.revenue + line.total });
    }
    const carts = (await db.getRepository(Cart).find()).filter((cart) => inPeriod(cart.dateCreated));
    const cartLines = await db.getRepository(CartLine).find();
    const allOrders = await db.getRepository(Order).find();
    const withItems = carts.filter(
      (cart) => cart.orderedAt !== null || cartLines.some((line) => line.cartId === cart.id),
    );
    const placed = allOrders.filter((order) => carts.some((cart) => cart.id === order.cartId));
    return {
      perDay,
      revenue,
      orders: orders.length,
      averageOrderValue: Math.round(revenue / orders.length),
      products,
      funnel: [
        carts.length,
        withItems.length,
        withItems.filter((cart) => cart.orderedAt !== null || cart.email !== null).length,
        placed.length,
        placed.filter((order) => COUNTED.includes(order.status)).length,
      ],
      waiting: (status: string) => allOrders.filter((order) => order.status === status).length,
    };
  }

  it('shows revenue and orders per store day, the totals and the average order value, as the orders add up', async () => {
    const page = await admin.get('/admin').set('Accept', 'text/html').expect(200);
    const want = await expected();
    const day = dayFormatter('en');
    const table = section(
      page.text,
      /<caption>Revenue and orders per day<\/caption>[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/,
    );
    expect(rows(table)).toEqual(
      want.perDay.map((entry) => [day(entry.date), formatMoney(entry.revenue, EUR), String(entry.orders)]),
    );
    // The fixture's own arithmetic: five counted orders, a 15.00 refund subtracted, the late order on the next day.
    expect(want.orders).toBe(5);
    expect(want.revenue).toBe(5000 + 2500 + 12000 + 8000 - 1500 + 3300);
    const lateDay = want.perDay.find((entry) => entry.revenue === 3300)!;
    expect(lateDay.date).toBe(shopNow(TIME_ZONE, lateEvening.getTime()).date);
    expect(lateDay.date).not.toBe(lateEvening.toISOString().slice(0, 10));

    const stats = section(page.text, /<h2 id="sales-heading">[\s\S]*?<ul class="stats">([\s\S]*?)<\/ul>/);
    expect(stats).toContain(`<strong>${formatMoney(want.revenue, EUR)}</strong> revenue`);
    expect(stats).toContain(`<strong>${want.orders}</strong> orders`);
    expect(stats).toContain(`<strong>${formatMoney(want.averageOrderValue, EUR)}</strong> average order value`);
    expect(stats).toContain(`<strong>${formatMoney(1500, EUR)}</strong> refunded`);
    expect(page.text).toContain('Canceled and refunded orders do not count');
  });

  it('draws the charts as SVG with accessible text', async () => {
    const page = await admin.get('/admin').set('Accept', 'text/html').expect(200);
    const want = await expected();
    const svg = section(
      page.text,
      /(<svg[^>]*aria-labelledby="revenue-chart-title revenue-chart-desc"[\s\S]*?<\/svg>)/,
    );
    expect(svg).toContain('role="img"');
    expect(svg).toMatch(/<title id="revenue-chart-title">Revenue per day, [^<]+<\/title>/);
    expect(svg).toContain(`<desc id="revenue-chart-desc">${formatMoney(want.revenue, EUR)} in total;`);
    expect(svg.match(/<rect /g)).toHaveLength(30);
    const best = want.perDay.reduce((top, entry) => (entry.revenue > top.revenue ? entry : top));
    expect(svg).toContain(`<title>${dayFormatter('en')(best.date)}: ${formatMoney(best.revenue, EUR)}</title>`);
    expect(page.text).toMatch(/<svg[^>]*aria-labelledby="orders-chart-title orders-chart-desc"/);
  });

  it('lists the top products by units and by revenue', async () => {
    const page = await admin.get('/admin').set('Accept', 'text/html').expect(200);
    const { products } = await expected();
    const ranked = (key: 'units' | 'revenue') =>
      [...products.entries()]
        .sort((a, b) => b[1][key] - a[1][key])
        .slice(0, 5)
        .map(([name, sold]) => [name, String(sold.units), formatMoney(sold.revenue, EUR)]);
    const table = (heading: string) =>
      rows(section(page.text, new RegExp(`${heading}</h3>[\\s\\S]*?<tbody>([\\s\\S]*?)</tbody>`)));
    expect(table('Top products by units')).toEqual(ranked('units'));
    expect(table('Top products by revenue')).toEqual(ranked('revenue'));
    // Canceled, refunded and old orders sell nothing here: coffee is 2 + 5 units, not 16.
    expect(table('Top products by units')[0][1]).toBe('7');
  });

  it('follows the carts of the period to paid orders', async () => {
    const page = await admin.get('/admin').set('Accept', 'text/html').expect(200);
    const { funnel } = await expected();
    const shown = rows(section(page.text, /<table class="funnel">[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/));
    // Each step says what it counts under its name.
    expect(shown.map((row) => [row[0].split(' ').slice(0, 2).join(' '), Number(row[1])])).toEqual([
      ['Carts created', funnel[0]],
      ['Carts with', funnel[1]],
      ['Checkouts started', funnel[2]],
      ['Orders placed', funnel[3]],
      ['Paid of', funnel[4]],
    ]);
    // 10 orders in the period (their carts too), a browsing cart, one at checkout and an empty one.
    expect(funnel).toEqual([13, 12, 11, 10, 5]);
  });

  it('counts what waits for action and links each count to its filtered list', async () => {
    const page = await admin.get('/admin').set('Accept', 'text/html').expect(200);
    const { waiting } = await expected();
    const links = section(page.text, /<h2 id="waiting-heading">[\s\S]*?<ul class="stats">([\s\S]*?)<\/ul>/);
    for (const [status, words] of [
      ['paid', 'paid, to ship'],
      ['processing', 'processing, to ship'],
      ['pending_payment', 'awaiting payment'],
      ['payment_review', 'payments in review'],
    ]) {
      expect(links).toContain(
        `<a href="/admin/orders?status=${status}"><strong>${waiting(status)}</strong> ${words}</a>`,
      );
    }
    expect(links).toContain('<small><strong>1</strong> of them after a failed payment</small>');
    const failedJobs = await db.getRepository(Job).countBy({ status: 'failed' });
    expect(links).toContain(`<a href="/admin/jobs?status=failed"><strong>${failedJobs}</strong> failed jobs</a>`);

    // The links lead to lists that filter by what they count.
    const list = await admin.get('/admin/orders?status=payment_review').set('Accept', 'text/html').expect(200);
    expect(list.text).toMatch(/payment_review/);
    await admin.get('/admin/jobs?status=failed').set('Accept', 'text/html').expect(200);
  });

  it('shows order figures only to staff who may open the orders, job figures only with accessJobs', async () => {
    await shop.app
      .get(CpUsersService)
      .create({ email: 'jobs-only@example.com', password: 'staff-password-1', permissions: ['accessJobs'] });
    const clerk = new ShopClient(shop.server);
    await clerk.loginCp('jobs-only@example.com', 'staff-password-1');
    const page = await clerk.get('/admin').set('Accept', 'text/html').expect(200);
    expect(page.text).toContain('failed jobs');
    expect(page.text).not.toContain('sales-heading');
    expect(page.text).not.toContain('/admin/orders?status=');
    expect(page.text).not.toContain('<svg');

    await shop.app
      .get(CpUsersService)
      .create({ email: 'orders-only@example.com', password: 'staff-password-1', permissions: ['accessOrders'] });
    const seller = new ShopClient(shop.server);
    await seller.loginCp('orders-only@example.com', 'staff-password-1');
    const sales = await seller.get('/admin').set('Accept', 'text/html').expect(200);
    expect(sales.text).toContain('sales-heading');
    expect(sales.text).not.toContain('/admin/jobs?status=');
  });

  it('counts a currency no longer sold at its rate, and one with no rate as nothing', async () => {
    const before = await expected();
    await db.getRepository(Currency).update({ code: 'HUF' }, { enabled: false });
    shop.app.get(CurrencyService).forget();
    try {
      // 39 500 Ft at 395 to the euro is €100.00; there is no rate for złoty at all.
      await insertOrder(db, 'paid', { dateCreated: noonDaysAgo(2), currency: 'HUF', total: 39500 });
      await insertOrder(db, 'paid', { dateCreated: noonDaysAgo(2), currency: 'PLN', total: 5000 });
      const page = await admin.get('/admin').set('Accept', 'text/html').expect(200);
      const stats = section(page.text, /<h2 id="sales-heading">[\s\S]*?<ul class="stats">([\s\S]*?)<\/ul>/);
      expect(stats).toContain(`<strong>${formatMoney(before.revenue + 10000, EUR)}</strong> revenue`);
      expect(stats).toContain(`<strong>${before.orders + 2}</strong> orders`);
    } finally {
      await db.getRepository(Currency).update({ code: 'HUF' }, { enabled: true });
      shop.app.get(CurrencyService).forget();
    }
  });

  describe('CP layout', () => {
    it('serves a skip link, a menu that opens without JavaScript and the language switch', async () => {
      const page = await admin.get('/admin').set('Accept', 'text/html').expect(200);
      expect(page.text).toContain('<html lang="en">');
      expect(page.text).toContain('<a class="skip-link" href="#content">Skip to content</a>');
      expect(page.text).toContain('<main id="content" tabindex="-1">');
      expect(page.text).toMatch(/<details class="cp-menu">\s*<summary>Menu<\/summary>/);
      expect(page.text).toContain('<form class="language-switch" method="post" action="/shop/language/set">');
      expect(page.text).toMatch(/<option value="sk" lang="sk">Slovenčina<\/option>/);
    });

    it('shows the CP chrome in Slovak once the language switch chose it, and returns to the page it was on', async () => {
      const staff = new ShopClient(shop.server);
      await staff.loginCp();
      const token = await staff.csrfToken();
      const switched = await staff.agent
        .post('/shop/language/set')
        .type('form')
        .set('Accept', 'text/html')
        .set('Referer', `${new URL(shop.config.baseUrl).origin}/admin/jobs`)
        .send({ language: 'sk', _csrf: token });
      expect(switched.status).toBe(303);
      expect(switched.headers.location).toBe('/admin/jobs');

      const page = await staff.get('/admin').set('Accept', 'text/html').expect(200);
      expect(page.text).toContain('<html lang="sk">');
      expect(page.text).toContain('Preskočiť na obsah');
      expect(page.text).toContain('<title>Dashboard · Demo Outdoor &amp; Coffee · Ovládací panel</title>');
      const nav = section(page.text, /<nav aria-label="Ovládací panel">([\s\S]*?)<\/nav>/);
      const labels = [...nav.matchAll(/<a href="\/admin\/[^"]+">([^<]+)<\/a>/g)].map((link) => link[1]);
      expect(labels.slice(0, 6)).toEqual([
        'Objednávky',
        'Vrátenia',
        'Odstúpenia od zmluvy',
        'Produkty',
        'Kategórie',
        'Atribúty',
      ]);
      expect(page.text).toContain('<button type="submit">Odhlásiť sa</button>');
      expect(page.text).toMatch(/<option value="sk" lang="sk" selected>Slovenčina<\/option>/);
      // Amounts follow the page's language too.
      expect(page.text).toMatch(/<strong>[\d\s\u00a0]+,\d\d\s€<\/strong> revenue/);
    });
  });
});
