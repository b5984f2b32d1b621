import request from 'supertest';
import { AuditEntry } from '../../src/commerce/audit/audit-entry.entity';
import { Order } from '../../src/commerce/orders/order.entity';
import { Currency } from '../../src/commerce/stores/currency.entity';
import { CurrencyService } from '../../src/commerce/stores/currency.service';
import { PaymentTransaction } from '../../src/commerce/payments/payment-transaction.entity';
import { ShippingMethod } from '../../src/commerce/shipping/shipping-method.entity';
import { ShippingMethodRegistry } from '../../src/commerce/shipping/shipping-method.registry';
import { formatMoney } from '../../src/common/money-format';
import { SettingsService } from '../../src/config/settings.service';
import { CarrierAAutoShipment } from '../../src/plugins/carrier-a/carrier-a-auto-shipment.entity';
import { CarrierAShipment } from '../../src/plugins/carrier-a/carrier-a-shipment.entity';
import { productBySku } from '../support/catalog';
import { addToCart, fillCheckout, placeOrder, shippingValue } from '../support/checkout';
import { cpNavLabels, cpStaff } from '../support/cp-staff';
import { insertOrder, insertOrderLine } from '../support/fixtures';
import { ShopClient } from '../support/shop-client';
import { eventually, startTestApp, TestApp, usingMysql } from '../support/test-app';

const CARRIER_A_CONTROL = '/_sandbox/carrier-a/_control';

/**
 * The CP order screens: the list (filters, sort, paging), its two CSV exports, the order page as staff read it,
 * carrier A's parcel actions on it (offered where they make sense, a second parcel only when confirmed, a failed
 * automatic parcel and its retry), the audit entry of a status change, and the permission.
 */
describe(`CP orders screen (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let staff: ShopClient;
  let flatRate: string;
  let storePickup: string;
  let classic: string;

  beforeAll(async () => {
    // One attempt: a carrier A refusal fails the automatic parcel at once.
    shop = await startTestApp({ listen: true, env: { JOB_MAX_ATTEMPTS: '1' } });
    await shop.dataSource.getRepository(ShippingMethod).update({ type: 'carrier-a' }, { enabled: true });
    shop.app.get(ShippingMethodRegistry).forgetMethods();
    flatRate = await shippingValue(shop.dataSource, 'flat-rate');
    storePickup = await shippingValue(shop.dataSource, 'store-pickup');
    classic = await shippingValue(shop.dataSource, 'classic', 'carrier-a');
    staff = new ShopClient(shop.server);
    await staff.loginCp();
  });
  afterAll(() => shop.close());

  const html = (path: string, client = staff) => client.get(path).set('Accept', 'text/html');
  /** The page's own content, without the CP header (whose links name plugins by their handles). */
  const main = (text: string) => /<main id="content"[^>]*>([\s\S]*)<\/main>/.exec(text)![1];
  /** The order references the list shows, in its order. */
  const listed = async (query: string) => {
    const res = await html(`/admin/orders?${query}`).expect(200);
    return [
      ...main(res.text).matchAll(/<tr class="order-row">\s*<td><a href="\/admin\/orders\/\d+">([^<]+)<\/a>/g),
    ].map((match) => match[1]);
  };
  const address = (country: string) => ({
    firstName: 'Ada',
    lastName: 'Lovelace',
    street: 'Main 1',
    city: 'Town',
    zipCode: '81101',
    country,
  });
  const day = (date: string) => new Date(`${date}T12:00:00.000Z`);

  describe('the list', () => {
    /** Orders of their own e-mail domain, so `q` keeps other tests' orders out. */
    let a: Order, b: Order, c: Order, d: Order, e: Order;
    const Q = 'q=%40filters.test';
    beforeAll(async () => {
      const order = (status: Order['status'], fields: Partial<Order>) =>
        insertOrder(shop.dataSource, status, { email: `${status}@filters.test`, ...fields });
      a = await order('paid', { dateCreated: day('2026-03-10'), total: 1000, shippingMethod: flatRate });
      b = await order('paid', {
        dateCreated: day('2026-03-20'),
        total: 3000,
        paymentMethod: 'bank-transfer-manual',
        shippingMethod: flatRate,
        shippingAddress: address('CZ'),
      });
      c = await order('processing', { dateCreated: day('2026-03-15'), total: 2000, shippingMethod: flatRate });
      d = await order('paid', { dateCreated: day('2026-04-05'), total: 500, shippingMethod: storePickup });
      // Shipped nowhere: its billing country counts.
      e = await order('canceled', {
        dateCreated: day('2026-03-12'),
        total: 4000,
        billingAddress: address('DE'),
        shippingAddress: null,
      });
      await insertOrderLine(shop.dataSource, a, { sku: 'LAMP', name: 'Headlamp', qty: 2, price: 500 });
      await insertOrderLine(shop.dataSource, b, { sku: 'LAMP', name: 'Headlamp', qty: 1, price: 1000 });
      await insertOrderLine(shop.dataSource, b, { sku: 'ROPE', name: 'Rope', qty: 4, price: 500 });
    });

    it('combines the filters', async () => {
      expect(
        await listed(`${Q}&status=paid&from=2026-03-01&to=2026-03-31&payment=cod&shipping=${flatRate}&country=SK`),
      ).toEqual([a.reference]);
      expect(await listed(`${Q}&status=paid&to=2026-03-31`)).toEqual([b.reference, a.reference]);
      expect(await listed(`${Q}&from=2026-03-12&to=2026-03-15`)).toEqual([c.reference, e.reference]);
      expect(await listed(`${Q}&payment=bank-transfer-manual`)).toEqual([b.reference]);
      expect(await listed(`${Q}&shipping=${encodeURIComponent(storePickup)}`)).toEqual([d.reference]);
      expect(await listed(`${Q}&country=CZ`)).toEqual([b.reference]);
      expect(await listed(`${Q}&country=DE`)).toEqual([e.reference]);
      expect(await listed(`${Q}&status=processing&country=CZ`)).toEqual([]);
      // The "Any" options send empty values.
      expect(await listed(`${Q}&status=&payment=&shipping=&country=&from=&to=`)).toHaveLength(5);
      // The form shows the filters it applied.
      const page = await html(`/admin/orders?${Q}&status=paid&country=CZ&from=2026-03-01`).expect(200);
      expect(page.text).toContain('<option value="paid" selected>Paid</option>');
      expect(page.text).toContain('<option value="CZ" selected>Czechia</option>');
      expect(page.text).toContain('<input id="from" name="from" type="date" value="2026-03-01">');
      // A date that is not one is a 400, not a 500.
      await staff.get('/admin/orders?from=2026-13-45').expect(400);
    });

    it("counts days on the shop's clock, as the CP shows dates", async () => {
      // 23:30 UTC on 15 March is already 16 March in Bratislava (UTC+1), 00:30 UTC on 15 March is 01:30 there.
      const late = await insertOrder(shop.dataSource, 'paid', {
        email: 'late@days.test',
        dateCreated: new Date('2026-03-15T23:30:00.000Z'),
      });
      const early = await insertOrder(shop.dataSource, 'paid', {
        email: 'early@days.test',
        dateCreated: new Date('2026-03-15T00:30:00.000Z'),
      });
      expect(await listed('q=%40days.test&from=2026-03-15&to=2026-03-15')).toEqual([early.reference]);
      expect(await listed('q=%40days.test&from=2026-03-16&to=2026-03-16')).toEqual([late.reference]);
    });

    it('shows each order with its customer, items, formatted total, shipping by name and status', async () => {
      const row = /<tr class="order-row">[\s\S]*?<\/tr>/.exec(
        main((await html(`/admin/orders?${Q}&payment=bank-transfer-manual`).expect(200)).text),
      )![0];
      expect(row).toContain(b.reference);
      expect(row).toContain('Ada Lovelace');
      expect(row).toContain('Headlamp and 1 more (5 items)');
      expect(row).toContain('€30.00');
      expect(row).toContain('Courier');
      expect(row).toContain('Paid');
      expect(row).not.toContain('core:flat-rate');
      const single = main((await html(`/admin/orders?${Q}&status=paid&to=2026-03-15`).expect(200)).text);
      expect(single).toContain('2 × Headlamp');
    });

    it('sorts by date, total and status, either way', async () => {
      expect(await listed(Q)).toEqual([d, b, c, e, a].map((order) => order.reference));
      expect(await listed(`${Q}&sort=date`)).toEqual([a, e, c, b, d].map((order) => order.reference));
      expect(await listed(`${Q}&sort=-total`)).toEqual([e, b, c, a, d].map((order) => order.reference));
      expect(await listed(`${Q}&sort=total`)).toEqual([d, a, c, b, e].map((order) => order.reference));
      const byStatus = await listed(`${Q}&sort=status`);
      expect(byStatus[0]).toBe(e.reference);
      expect(byStatus.at(-1)).toBe(c.reference);
      // A sort the list does not know lists newest first.
      expect(await listed(`${Q}&sort=email`)).toEqual(await listed(Q));
      // The sorted column's header turns the order round, and keeps the filters.
      const page = await html(`/admin/orders?${Q}&status=paid&sort=total`).expect(200);
      expect(page.text).toContain(
        '<th scope="col" aria-sort="ascending"><a href="/admin/orders?q&#x3D;%40filters.test&amp;status&#x3D;paid&amp;sort&#x3D;-total">Total ▲</a></th>',
      );
    });

    it('pages the list, keeping the filters in the pager links', async () => {
      for (let i = 0; i < 51; i++) await insertOrder(shop.dataSource, 'paid', { email: `p${i}@paging.test` });
      const first = await html('/admin/orders?q=%40paging.test').expect(200);
      expect(first.text).toContain('51 orders');
      expect(first.text).toContain('Page 1 of 2');
      expect(first.text).toContain(
        '<a rel="next" href="/admin/orders?q&#x3D;%40paging.test&amp;page&#x3D;2">Next →</a>',
      );
      expect(await listed('q=%40paging.test')).toHaveLength(50);
      expect(await listed('q=%40paging.test&page=2')).toHaveLength(1);
      const second = await html('/admin/orders?q=%40paging.test&page=2').expect(200);
      expect(second.text).toContain('Page 2 of 2');
      expect(second.text).not.toContain('rel="next"');
    });

    it('exports the filtered orders and their lines as CSV, quoted against formulas', async () => {
      const tricky = await insertOrder(shop.dataSource, 'paid', {
        email: 'tricky@csv.test',
        billingAddress: { ...address('SK'), firstName: '=HYPERLINK("x")', lastName: 'Smith, "Jr"' },
        subtotal: 2222,
        shippingTotal: 490,
        total: 2712,
        dateCreated: day('2026-05-01'),
      });
      await insertOrderLine(shop.dataSource, tricky, { sku: '+SKU', name: 'Cable, 2 m', qty: 2, price: 1111 });
      await insertOrder(shop.dataSource, 'canceled', { email: 'other@csv.test' });

      const orders = await staff.get('/admin/orders/export.csv?q=%40csv.test&status=paid').expect(200);
      expect(orders.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(orders.headers['content-disposition']).toMatch(/^attachment; filename="orders-\d{4}-\d{2}-\d{2}\.csv"$/);
      const [header, ...rows] = orders.text.replace(/^\uFEFF/, '').split('\r\n');
      expect(header).toBe(
        '"Number","Reference","Date","Status","Customer","E-mail","Country","Items","Currency","Subtotal","Discount",' +
          '"Shipping","Payment fee","VAT","Total","Gift cards","Payment method","Shipping method","Coupon"',
      );
      expect(rows).toEqual([
        `"${tricky.number}","${tricky.reference}","2026-05-01T12:00:00.000Z","paid","'=HYPERLINK(""x"") Smith, ""Jr""",` +
          '"tricky@csv.test","SK","2","EUR","22.22","0.00","4.90","0.00","0.00","27.12","0.00","Cash on delivery","Courier",""',
        '',
      ]);

      const lines = await staff.get('/admin/orders/lines.csv?q=%40csv.test').expect(200);
      expect(lines.headers['content-disposition']).toMatch(/^attachment; filename="order-lines-/);
      expect(lines.text.replace(/^\uFEFF/, '').split('\r\n')).toEqual([
        '"Order number","Order reference","Order date","SKU","Name","Quantity","Currency","Unit price","Total","VAT rate %"',
        `"${tricky.number}","${tricky.reference}","2026-05-01T12:00:00.000Z","'+SKU","Cable, 2 m","2","EUR","11.11","22.22",""`,
        '',
      ]);
      // The list links to both exports with its filters.
      const page = await html('/admin/orders?q=%40csv.test&status=paid').expect(200);
      expect(page.text).toContain('href="/admin/orders/export.csv?q&#x3D;%40csv.test&amp;status&#x3D;paid"');
      expect(page.text).toContain('href="/admin/orders/lines.csv?q&#x3D;%40csv.test&amp;status&#x3D;paid"');
    });

    it('shows an order in a currency no longer sold with its own decimals, in the list and the CSV', async () => {
      const forint = await insertOrder(shop.dataSource, 'paid', {
        email: 'forint@disabled.test',
        currency: 'HUF',
        subtotal: 11855,
        shippingTotal: 490,
        total: 12345,
        dateCreated: day('2026-05-02'),
      });
      await insertOrderLine(shop.dataSource, forint, { sku: 'HL-1', name: 'Headlamp', qty: 1, price: 11855 });
      await shop.dataSource.getRepository(Currency).update({ code: 'HUF' }, { enabled: false });
      shop.app.get(CurrencyService).forget();
      try {
        const row = /<tr class="order-row">[\s\S]*?<\/tr>/.exec(
          main((await html('/admin/orders?q=%40disabled.test').expect(200)).text),
        )![0];
        expect(row).toContain(formatMoney(12345, { code: 'HUF', decimals: 0 }));
        expect(row).not.toContain('123.45');
        const orders = await staff.get('/admin/orders/export.csv?q=%40disabled.test').expect(200);
        expect(orders.text).toContain('"HUF","11855","0","490","0","0","12345","0"');
        const lines = await staff.get('/admin/orders/lines.csv?q=%40disabled.test').expect(200);
        expect(lines.text).toContain('"Headlamp","1","HUF","11855","11855"');
      } finally {
        await shop.dataSource.getRepository(Currency).update({ code: 'HUF' }, { enabled: true });
        shop.app.get(CurrencyService).forget();
      }
    });
  });

  it('shows the whole order by name, with formatted amounts, and no internal codes', async () => {
    const order = await insertOrder(shop.dataSource, 'paid', {
      email: 'grace@example.com',
      billingAddress: { ...address('SK'), firstName: 'Grace', lastName: 'Hopper', phone: '+421900123456' },
      shippingAddress: { ...address('CZ'), firstName: 'Grace', lastName: 'Hopper', street: 'Dock 9', city: 'Brno' },
      shippingMethod: classic,
      paymentMethod: 'bankpay-qr',
      subtotal: 2580,
      discount: 258,
      couponCode: 'SPRING10',
      shippingTotal: 390,
      tax: 452,
      total: 2712,
      vatRows: [{ rate: 2300, net: 2260, vat: 452 }],
      notes: 'Ring twice',
      deliveryDate: '2026-12-01',
      deliverySlotLabel: '08:00–12:00',
      termsVersion: 3,
      termsLanguage: 'en',
      termsAcceptedAt: Date.now(),
    });
    await insertOrderLine(shop.dataSource, order, {
      sku: 'LAMP',
      name: 'Headlamp',
      qty: 2,
      price: 1290,
      vatRate: 2300,
    });
    await shop.dataSource.getRepository(PaymentTransaction).save({
      orderId: order.id,
      gateway: 'bankpay',
      code: 'bankpay-qr',
      reference: 'QR-1',
      amount: 2712,
      currency: 'EUR',
      status: 'success',
      extra: {},
    });

    const page = main((await html(`/admin/orders/${order.id}`).expect(200)).text);
    for (const text of [
      'Grace Hopper',
      '<a href="mailto:grace@example.com">grace@example.com</a> · +421900123456',
      'Guest',
      'Dock 9<br>81101 Brno<br>Czechia',
      'Main 1<br>81101 Town<br>Slovakia',
      'Carrier A courier',
      'QR payment',
      '2026-12-01, 08:00–12:00',
      'Ring twice',
      'accepted version 3 (en)',
      '<td>Headlamp</td><td>2</td><td>€12.90</td><td>23 %</td><td>€25.80</td>',
      '<dt>Subtotal</dt><dd>€25.80</dd>',
      'coupon <code>SPRING10</code>',
      '−€2.58',
      '<dd>€3.90</dd>',
      '<dt>VAT 23 % on €22.60</dt><dd>€4.52</dd>',
      '<strong>€27.12</strong>',
      '<td>QR payment</td><td>QR-1</td><td>€27.12</td>',
    ]) {
      expect(page).toContain(text);
    }
    expect(page).not.toContain('minor units');
    expect(page).not.toContain('carrier-a:');
    expect(page).not.toContain('bankpay');
    expect(page).not.toContain('>1290<');
    expect(page).not.toContain('2712 EUR');
  });

  it('links a registered customer to their account and their orders', async () => {
    const order = await insertOrder(shop.dataSource, 'paid', { customerId: 424242 });
    const page = main((await html(`/admin/orders/${order.id}`).expect(200)).text);
    expect(page).toContain('<a href="/admin/customers/424242">account</a>');
    expect(page).toContain('<a href="/admin/orders?customer&#x3D;424242">all their orders</a>');
    expect(await listed('customer=424242')).toEqual([order.reference]);
    // Staff who may not open customers get no link to one.
    const clerk = await cpStaff(shop, 'orders-only@example.com', ['accessOrders']);
    const clerkPage = main((await html(`/admin/orders/${order.id}`, clerk).expect(200)).text);
    expect(clerkPage).not.toContain('/admin/customers/');
    expect(clerkPage).toContain('all their orders');
  });

  describe('carrier A parcel actions', () => {
    const parcels = (order: Order) => shop.dataSource.getRepository(CarrierAShipment).countBy({ orderId: order.id });
    const sandbox = () => request(shop.server);
    afterEach(() => sandbox().post(`${CARRIER_A_CONTROL}/reset`).expect(200));

    /** An order placed through checkout with carrier A's courier; pending its bank transfer. */
    async function placedOrder(): Promise<Order> {
      const client = new ShopClient(shop.server);
      await addToCart(client, (await productBySku(shop.dataSource, 'DEMO-HEADLAMP')).id, 1);
      await fillCheckout(client, { shippingMethod: classic, paymentMethod: 'bank-transfer-manual' });
      const placed = await placeOrder(client);
      expect(placed.status).toBe(200);
      return shop.dataSource.getRepository(Order).findOneByOrFail({ number: placed.body.orderNumber });
    }

    it('offers no parcel for a canceled order, and refuses one posted anyway', async () => {
      const order = await placedOrder();
      await staff.submitForm(`/admin/orders/${order.id}/status`, { status: 'canceled' }).then((res) => {
        expect(res.status).toBe(303);
      });
      const page = main((await html(`/admin/orders/${order.id}`).expect(200)).text);
      expect(page).toContain('<h2>Carrier A</h2>');
      expect(page).not.toContain('carrier-a/shipments/create/');

      const refused = await staff.submitForm(`/admin/carrier-a/shipments/create/${order.id}`, {});
      expect(refused.status).toBe(303);
      expect(refused.headers.location).toBe(`/admin/orders/${order.id}`);
      const flashed = await html(`/admin/orders/${order.id}`).expect(200);
      expect(flashed.text).toContain(`Order ${order.reference} is canceled: no parcel is created for it.`);
      const json = await staff.post(`/admin/carrier-a/shipments/create/${order.id}`);
      expect(json.status).toBe(409);
      expect(json.body.error.code).toBe('carrier_a_parcel_refused');
      expect(await parcels(order)).toBe(0);
    });

    it('creates a second parcel only when it is confirmed', async () => {
      const order = await placedOrder();
      const first = await staff.submitForm(`/admin/carrier-a/shipments/create/${order.id}`, {});
      expect(first.status).toBe(303);
      expect(await parcels(order)).toBe(1);

      const page = main((await html(`/admin/orders/${order.id}`).expect(200)).text);
      expect(page).toContain(
        '<label><input type="checkbox" name="another" value="on" required> This order already has a carrier A parcel: create another one</label>',
      );
      expect(page).toContain('<button type="submit">Create another carrier A parcel</button>');

      const refused = await staff.submitForm(`/admin/carrier-a/shipments/create/${order.id}`, {});
      expect(refused.status).toBe(303);
      expect(refused.headers.location).toBe(`/admin/orders/${order.id}`);
      expect((await html(`/admin/orders/${order.id}`)).text).toContain(
        `Order ${order.reference} already has a carrier A parcel: tick the confirmation to create another one.`,
      );
      expect(await parcels(order)).toBe(1);

      const confirmed = await staff.submitForm(`/admin/carrier-a/shipments/create/${order.id}`, { another: 'on' });
      expect(confirmed.status).toBe(303);
      expect(await parcels(order)).toBe(2);
    });

    it('shows a failed automatic parcel with its reason, and retries it', async () => {
      const settings = shop.app.get(SettingsService);
      const sellerAddress = settings.get('salesSellerAddress');
      await settings.save({ 'carrier-a.autoCreateStatus': 'paid', salesSellerAddress: 'nowhere' });
      try {
        const order = await placedOrder();
        await staff.submitForm(`/admin/orders/${order.id}/status`, { status: 'paid' });
        const row = () => shop.dataSource.getRepository(CarrierAAutoShipment).findOneBy({ orderId: order.id });
        await eventually(async () => (await row())?.state === 'failed');

        const page = main((await html(`/admin/orders/${order.id}`).expect(200)).text);
        expect(page).toContain(
          'The automatic parcel failed: Carrier A: set the seller address (salesSellerAddress) as &quot;street, ZIP town&quot; to send parcels',
        );
        expect(page).toContain(`action="/admin/carrier-a/shipments/retry-auto/${order.id}"`);

        await settings.save({ salesSellerAddress: sellerAddress });
        const retried = await staff.submitForm(`/admin/carrier-a/shipments/retry-auto/${order.id}`, {});
        expect(retried.status).toBe(303);
        expect(retried.headers.location).toBe(`/admin/orders/${order.id}`);
        await eventually(async () => (await row())?.state === 'created');
        expect(await parcels(order)).toBe(1);
        const after = main((await html(`/admin/orders/${order.id}`).expect(200)).text);
        expect(after).not.toContain('The automatic parcel failed');
        expect(after).not.toContain('retry-auto');

        const nothing = await staff.submitForm(`/admin/carrier-a/shipments/retry-auto/${order.id}`, {});
        expect(nothing.status).toBe(303);
        expect((await html(`/admin/orders/${order.id}`)).text).toContain('there is nothing to retry');
      } finally {
        await settings.save({ 'carrier-a.autoCreateStatus': '', salesSellerAddress: sellerAddress });
      }
    });
  });

  it('writes an audit entry with each status change, in its transaction', async () => {
    const order = await insertOrder(shop.dataSource, 'paid');
    const res = await staff.submitForm(`/admin/orders/${order.id}/status`, { status: 'processing' });
    expect(res.status).toBe(303);
    const entries = await shop.dataSource.getRepository(AuditEntry).findBy({ area: 'order', subject: order.number });
    expect(entries).toEqual([
      expect.objectContaining({
        actor: 'cp:admin@example.com',
        action: 'status',
        subjectLabel: order.reference,
        changes: { status: { from: 'paid', to: 'processing' } },
      }),
    ]);
    // A refused move writes neither history nor audit.
    await staff.submitForm(`/admin/orders/${order.id}/status`, { status: 'pending_payment' });
    expect(await shop.dataSource.getRepository(AuditEntry).countBy({ area: 'order', subject: order.number })).toBe(1);
  });

  it('is refused without accessOrders, and not linked in the header', async () => {
    const clerk = await cpStaff(shop, 'products-only@example.com', ['accessProducts']);
    const order = await insertOrder(shop.dataSource, 'paid');
    for (const path of [
      '/admin/orders',
      '/admin/orders/export.csv',
      '/admin/orders/lines.csv',
      `/admin/orders/${order.id}`,
    ]) {
      expect((await clerk.get(path)).status).toBe(403);
    }
    expect((await clerk.post(`/admin/orders/${order.id}/status`, { status: 'processing' })).status).toBe(403);
    expect(await cpNavLabels(clerk)).toEqual(['Products', 'Categories', 'Attributes', 'Search']);
  });
});
