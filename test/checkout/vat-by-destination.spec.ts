import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shopNow } from '../../src/commerce/delivery/shop-calendar';
import { SalesDocument } from '../../src/commerce/invoices/sales-document.entity';
import { SalesDocuments } from '../../src/commerce/invoices/sales-documents.service';
import { OrderLine } from '../../src/commerce/orders/order-line.entity';
import { Order } from '../../src/commerce/orders/order.entity';
import { Product } from '../../src/commerce/products/product.entity';
import { VatRates } from '../../src/commerce/tax/vat-rates.service';
import { SettingsService } from '../../src/config/settings.service';
import { TransactionRunner } from '../../src/database/transaction-runner';
import { productBySku } from '../support/catalog';
import { runCli } from '../support/cli';
import { ADDRESS, addToCart, fillCheckout, placeOrder, shippingValue } from '../support/checkout';
import { binaryBody, pdfText } from '../support/pdf-text';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp } from '../support/test-app';

const BERLIN = { ...ADDRESS, street: 'Unter den Linden 1', city: 'Berlin', zipCode: '10117', country: 'DE' };
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * VAT by destination (docs/shop.md, _VAT by destination_). The demo shop is in SK: its standard rate is
 * `salesTaxRate` (20 %), its reduced one the table's 19 %; Germany's are 19 % and 7 %. The basket: a headlamp
 * (39.00, standard) and filter papers (3.90, reduced) by courier (4.90), cash on delivery (1.50). Shipping and the
 * fee (6.40) follow the goods: 5.82 of it at the headlamp's rate, 0.58 at the papers'.
 */
describe('VAT by destination', () => {
  let shop: TestApp;
  let admin: ShopClient;
  let settings: SettingsService;
  let flatRate: string;

  beforeAll(async () => {
    shop = await startTestApp();
    settings = shop.app.get(SettingsService);
    flatRate = await shippingValue(shop.dataSource, 'flat-rate');
    admin = new ShopClient(shop.server);
    await admin.loginCp();
    // The CP product form sets the papers' tax class.
    const papers = await productBySku(shop.dataSource, 'DEMO-FILTER-PAPER');
    const saved = await admin.submitForm(`/admin/products/${papers.id}`, {
      price: '3.90',
      stock: '190',
      visible: '1',
      enabled: '1',
      taxClass: 'reduced',
    });
    expect(saved.status).toBe(303);
  });
  afterEach(() => settings.save({ salesOssDestinationVat: false, salesPricesStable: 'gross' }));
  afterAll(() => shop.close());

  async function checkout(address = BERLIN) {
    const client = new ShopClient(shop.server);
    await addToCart(client, (await productBySku(shop.dataSource, 'DEMO-HEADLAMP')).id, 1);
    await addToCart(client, (await productBySku(shop.dataSource, 'DEMO-FILTER-PAPER')).id, 1);
    const saved = await fillCheckout(client, { address, shippingMethod: flatRate, paymentMethod: 'cod' });
    return { client, cart: saved.body.cart };
  }

  async function placed(client: ShopClient) {
    const res = await placeOrder(client);
    expect(res.status).toBe(200);
    return shop.dataSource.getRepository(Order).findOneByOrFail({ number: res.body.orderNumber });
  }

  it('keeps the tax class the CP form set, and refuses one that is not a class', async () => {
    const papers = await shop.dataSource.getRepository(Product).findOneByOrFail({ sku: 'DEMO-FILTER-PAPER' });
    expect(papers.taxClass).toBe('reduced');
    const res = await admin.post(`/admin/products/${papers.id}`, { price: '3.90', stock: '190', taxClass: 'luxury' });
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toEqual({ taxClass: ['must be one of standard, reduced, reduced2, zero'] });
  });

  it('imports a tax class with catalog:import, and rejects a row with one that is not a class', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vat-import-'));
    try {
      const file = join(dir, 'products.json');
      writeFileSync(
        file,
        JSON.stringify([
          { sku: 'VAT-BOOK', name: 'Field Guide', price: 12, stock: 5, taxClass: 'reduced2' },
          { sku: 'VAT-PLAIN', name: 'Plain Thing', price: 5, stock: 5 },
          { sku: 'VAT-BAD', name: 'Bad Thing', price: 5, stock: 5, taxClass: 'luxury' },
        ]),
      );
      const res = await runCli(shop.place, 'catalog:import', file);
      expect(res.json).toMatchObject({
        ok: true,
        created: 2,
        rejected: 1,
        errors: [{ line: 3, sku: 'VAT-BAD', message: 'taxClass must be one of standard, reduced, reduced2, zero' }],
      });
      const products = shop.dataSource.getRepository(Product);
      expect((await products.findOneByOrFail({ sku: 'VAT-BOOK' })).taxClass).toBe('reduced2');
      expect((await products.findOneByOrFail({ sku: 'VAT-PLAIN' })).taxClass).toBe('standard');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("charges a German consumer the shop's own rates while the threshold setting is off", async () => {
    const { client, cart } = await checkout();
    // 44.82 at 20 % (7.47) and 4.48 at 19 % (0.72).
    expect(cart).toMatchObject({ subtotal: 42.9, tax: 8.19, total: 49.3 });
    const order = await placed(client);
    expect(order).toMatchObject({
      vatCountry: 'SK',
      shippingVatRate: null,
      tax: 819,
      total: 4930,
      vatRows: [
        { rate: 2000, net: 3735, vat: 747 },
        { rate: 1900, net: 376, vat: 72 },
      ],
    });
  });

  it('charges German VAT by tax class above the threshold, the shelf price staying what the buyer pays', async () => {
    await settings.save({ salesOssDestinationVat: true });
    const { client, cart } = await checkout();
    // 44.82 at 19 % (7.16) and 4.48 at 7 % (0.29): the same total, less VAT.
    expect(cart).toMatchObject({ subtotal: 42.9, tax: 7.45, total: 49.3 });
    const order = await placed(client);
    expect(order).toMatchObject({
      vatCountry: 'DE',
      shippingVatRate: null,
      tax: 745,
      total: 4930,
      vatRows: [
        { rate: 1900, net: 3766, vat: 716 },
        { rate: 700, net: 419, vat: 29 },
      ],
    });
    const lines = await shop.dataSource
      .getRepository(OrderLine)
      .find({ where: { orderId: order.id }, order: { id: 'ASC' } });
    expect(lines.map(({ sku, vatRate, vatCountry }) => ({ sku, vatRate, vatCountry }))).toEqual([
      { sku: 'DEMO-HEADLAMP', vatRate: 1900, vatCountry: 'DE' },
      { sku: 'DEMO-FILTER-PAPER', vatRate: 700, vatCountry: 'DE' },
    ]);
    // A consumer at home still pays the shop's own rates.
    expect((await checkout(ADDRESS)).cart).toMatchObject({ tax: 8.19, total: 49.3 });
  });

  it('keeps the net price and lets the gross follow the German rate when prices are net-stable', async () => {
    await settings.save({ salesOssDestinationVat: true, salesPricesStable: 'net' });
    const { client, cart } = await checkout();
    // 39.00 + 5.82 at 20 % restated at 19 %: 38.68 + 5.77 = 44.45 (7.10 VAT); 3.90 + 0.58 at 19 % restated at
    // 7 %: 3.51 + 0.52 = 4.03 (0.26 VAT).
    expect(cart).toMatchObject({ subtotal: 42.9, tax: 7.36, total: 48.48 });
    const order = await placed(client);
    expect(order.vatRows).toEqual([
      { rate: 1900, net: 3735, vat: 710 },
      { rate: 700, net: 377, vat: 26 },
    ]);
    // Net-stable changes nothing where the rate is the shop's own.
    expect((await checkout(ADDRESS)).cart).toMatchObject({ tax: 8.19, total: 49.3 });
  });

  it('applies a rate entered for a future day only from that day', async () => {
    await settings.save({ salesOssDestinationVat: true });
    // The shop's tomorrow: a rate's first day is on the shop's clock (UTC's tomorrow is the shop's today near
    // midnight).
    const tomorrow = shopNow(settings.get('salesTimezone'), Date.now() + DAY_MS).date;
    const set = await runCli(shop.place, 'vat-rates:set', 'de', 'standard', '25', '--from', tomorrow);
    expect(set).toMatchObject({
      code: 0,
      json: { ok: true, saved: 'vat_rate', country: 'DE', taxClass: 'standard', percent: 25, validFrom: tomorrow },
    });
    // Today's German orders still pay 19 %.
    expect((await checkout()).cart).toMatchObject({ tax: 7.45, total: 49.3 });
    const rates = shop.app.get(VatRates);
    expect((await rates.context('SK', 'DE', Date.now())).rates).toMatchObject({ standard: 1900, reduced: 700 });
    expect((await rates.context('SK', 'DE', Date.now() + 2 * DAY_MS)).rates).toMatchObject({
      standard: 2500,
      reduced: 700,
    });
    const bad = await runCli(shop.place, 'vat-rates:set', 'Germany', 'luxury', '250', '--from', 'soon');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('validation_failed');
  });

  it("shows each rate on the invoice, and the quarter's OSS report sums the orders charged another country's VAT", async () => {
    await settings.save({ salesOssDestinationVat: true });
    const german = [await placed((await checkout()).client), await placed((await checkout()).client)];
    const domestic = await placed((await checkout(ADDRESS)).client);
    const runner = shop.app.get(TransactionRunner);
    for (const order of [...german, domestic]) {
      await runner.run((tx) => shop.app.get(SalesDocuments).issueInvoice(tx, order.id));
    }

    const invoice = await admin.get(`/admin/orders/${german[0].id}/invoice`).buffer(true).parse(binaryBody);
    expect(invoice.status).toBe(200);
    const text = pdfText(invoice.body as Buffer);
    expect(text).toMatch(/19 %\s+€37\.66\s+€7\.16\s+€44\.82/);
    expect(text).toMatch(/7 %\s+€4\.19\s+€0\.29\s+€4\.48/);

    // Every order of this file charged German VAT and invoiced (cash on delivery is invoiced once accepted), summed
    // per rate; the orders charged the shop's own VAT are no OSS sales.
    const invoiced: Order[] = [];
    for (const order of await shop.dataSource.getRepository(Order).findBy({ vatCountry: 'DE' })) {
      if (await shop.app.get(SalesDocuments).invoiceOf(order.id)) invoiced.push(order);
    }
    expect(invoiced.length).toBeGreaterThanOrEqual(german.length);
    const sum = (rate: number, field: 'net' | 'vat') =>
      invoiced.reduce((total, order) => total + order.vatRows!.find((row) => row.rate === rate)![field], 0);
    const now = new Date();
    const quarter = `${now.getUTCFullYear()}-Q${Math.floor(now.getUTCMonth() / 3) + 1}`;
    const csv = await admin.get(`/admin/reports/oss.csv?quarter=${quarter}`);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toContain(`oss-${quarter}.csv`);
    const money = (minor: number) => (minor / 100).toFixed(2);
    expect(csv.text).toBe(
      [
        'country,rate,currency,net,vat',
        `DE,19,EUR,${money(sum(1900, 'net'))},${money(sum(1900, 'vat'))}`,
        `DE,7,EUR,${money(sum(700, 'net'))},${money(sum(700, 'vat'))}`,
        '',
      ].join('\r\n'),
    );
    expect(sum(1900, 'vat')).toBe(invoiced.reduce((total, order) => total + order.vatRows![0].vat, 0));

    const page = await admin.get(`/admin/reports/oss?quarter=${quarter}`).set('Accept', 'text/html');
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<td>DE</td><td>19 %</td><td>EUR</td><td>${money(sum(1900, 'net'))}</td>`);
    expect((await admin.get('/admin/reports/oss.csv?quarter=2026-Q5')).status).toBe(400);
    expect((await admin.get('/admin/reports/oss.csv?quarter=2020-Q1')).text).toBe('country,rate,currency,net,vat\r\n');
  });

  it("charges shipping on books alone at the books' rate, not the standard one (VAT Directive Art. 78(b))", async () => {
    await settings.save({ salesOssDestinationVat: true });
    const client = new ShopClient(shop.server);
    await addToCart(client, (await productBySku(shop.dataSource, 'DEMO-FILTER-PAPER')).id, 1);
    const saved = await fillCheckout(client, {
      address: BERLIN,
      shippingMethod: flatRate,
      paymentMethod: 'bank-transfer-manual',
    });
    // 3.90 + 4.90 shipping, all at 7 %: 0.58 VAT (0.32 of it on shipping), not 0.26 + 0.78 at 19 %.
    expect(saved.body.cart).toMatchObject({ subtotal: 3.9, shipping: 4.9, tax: 0.58, total: 8.8 });
    expect(await placed(client)).toMatchObject({
      shippingVatRate: 700,
      tax: 58,
      total: 880,
      vatRows: [{ rate: 700, net: 822, vat: 58 }],
    });
  });

  /** A cash-on-delivery order delivered and paid, with its invoice. */
  async function delivered(order: Order) {
    for (const status of ['shipped', 'completed'])
      expect((await admin.submitForm(`/admin/orders/${order.id}/status`, { status })).status).toBe(303);
    await shop.app.get(TransactionRunner).run((tx) => shop.app.get(SalesDocuments).issueInvoice(tx, order.id));
  }

  /** A refund by bank transfer, and the text of its credit note. */
  async function refundWithNote(order: Order, body: Record<string, unknown>) {
    const res = await admin.agent
      .post(`/admin/orders/${order.id}/refunds`)
      .set('X-CSRF-Token', await admin.csrfToken())
      .set('Idempotency-Key', `vat-${Math.random()}`)
      .send({ reason: 'Returned', reference: 'DE-TRANSFER-1', ...body });
    expect(res.status).toBe(200);
    const note = await shop.dataSource.getRepository(SalesDocument).findOneByOrFail({
      orderId: order.id,
      kind: 'credit_note' as const,
      amount: Math.round(res.body.refund.amount * 100),
    });
    const pdf = await admin.get(`/admin/orders/${order.id}/credit-notes/${note.id}`).buffer(true).parse(binaryBody);
    expect(pdf.status).toBe(200);
    return pdfText(pdf.body as Buffer);
  }

  /** This quarter's OSS report as `country:rate` → [net, vat] in minor units. */
  async function ossReport(): Promise<Map<string, [number, number]>> {
    const now = new Date();
    const quarter = `${now.getUTCFullYear()}-Q${Math.floor(now.getUTCMonth() / 3) + 1}`;
    const csv = await admin.get(`/admin/reports/oss.csv?quarter=${quarter}`);
    expect(csv.status).toBe(200);
    const minor = (text: string) => Math.round(Number(text) * 100);
    return new Map(
      csv.text
        .split('\r\n')
        .slice(1, -1)
        .map((line) => line.split(','))
        .map(([country, rate, , net, vat]): [string, [number, number]] => [
          `${country}:${rate}`,
          [minor(net), minor(vat)],
        ]),
    );
  }

  /** How the OSS report moved from `before` to `after` at `key`: [net, vat]. */
  const moved = (before: Map<string, [number, number]>, after: Map<string, [number, number]>, key: string) => [
    after.get(key)![0] - before.get(key)![0],
    after.get(key)![1] - before.get(key)![1],
  ];

  it('credits a refunded line at its own rate, on the credit note and in the OSS report', async () => {
    await settings.save({ salesOssDestinationVat: true });
    const order = await placed((await checkout()).client);
    await delivered(order);
    const headlamp = await shop.dataSource
      .getRepository(OrderLine)
      .findOneByOrFail({ orderId: order.id, sku: 'DEMO-HEADLAMP' });
    const before = await ossReport();

    // The headlamp (39.00 at 19 %) comes back: 6.23 VAT, all at 19 %; nothing at the papers' 7 %.
    const text = await refundWithNote(order, { lines: `${headlamp.id}:1` });
    expect(text).toMatch(/19 %\s+-€32\.77\s+-€6\.23\s+-€39\.00/);
    expect(text).not.toMatch(/7 %\s+-?€/);
    const after = await ossReport();
    expect(moved(before, after, 'DE:19')).toEqual([-3277, -623]);
    expect(moved(before, after, 'DE:7')).toEqual([0, 0]);

    // The rest (the papers and the shipping and fee) as a free amount: spread over both rates, leaving each row at 0.
    const rest = await refundWithNote(order, { amount: '10.30' });
    expect(rest).toMatch(/19 %\s+-€4\.89\s+-€0\.93\s+-€5\.82/);
    expect(rest).toMatch(/7 %\s+-€4\.19\s+-€0\.29\s+-€4\.48/);
    expect(moved(before, await ossReport(), 'DE:19')).toEqual([-3766, -716]);
    expect(moved(before, await ossReport(), 'DE:7')).toEqual([-419, -29]);
  });

  it('spreads a free refund over the rates so the credited rows add up to the amount credited', async () => {
    await settings.save({ salesOssDestinationVat: true });
    // A headlamp and ten papers (39.00 each) picked up in store, cash on delivery: the 1.50 fee halves, 39.75 per rate.
    const client = new ShopClient(shop.server);
    await addToCart(client, (await productBySku(shop.dataSource, 'DEMO-HEADLAMP')).id, 1);
    await addToCart(client, (await productBySku(shop.dataSource, 'DEMO-FILTER-PAPER')).id, 10);
    const pickup = await shippingValue(shop.dataSource, 'store-pickup');
    await fillCheckout(client, { address: BERLIN, shippingMethod: pickup, paymentMethod: 'cod' });
    const order = await placed(client);
    expect(order.vatRows).toEqual([
      { rate: 1900, net: 3340, vat: 635 },
      { rate: 700, net: 3715, vat: 260 },
    ]);
    await delivered(order);
    const before = await ossReport();

    // 10.01 over two rows of 39.75: 5.01 and 5.00, not 5.01 twice (10.02).
    const text = await refundWithNote(order, { amount: '10.01' });
    expect(text).toMatch(/19 %\s+-€4\.21\s+-€0\.80\s+-€5\.01/);
    expect(text).toMatch(/7 %\s+-€4\.67\s+-€0\.33\s+-€5\.00/);
    const after = await ossReport();
    expect(moved(before, after, 'DE:19')).toEqual([-421, -80]);
    expect(moved(before, after, 'DE:7')).toEqual([-467, -33]);
  });
});
