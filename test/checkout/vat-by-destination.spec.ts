import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
 * (39.00, standard) and filter papers (3.90, reduced) by courier (4.90), cash on delivery (1.50).
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
    // 45.40 at 20 % (7.57) and 3.90 at 19 % (0.62).
    expect(cart).toMatchObject({ subtotal: 42.9, tax: 8.19, total: 49.3 });
    const order = await placed(client);
    expect(order).toMatchObject({
      vatCountry: 'SK',
      shippingVatRate: 2000,
      tax: 819,
      total: 4930,
      vatRows: [
        { rate: 2000, net: 3783, vat: 757 },
        { rate: 1900, net: 328, vat: 62 },
      ],
    });
  });

  it('charges German VAT by tax class above the threshold, the shelf price staying what the buyer pays', async () => {
    await settings.save({ salesOssDestinationVat: true });
    const { client, cart } = await checkout();
    // 45.40 at 19 % (7.25) and 3.90 at 7 % (0.26): the same total, less VAT.
    expect(cart).toMatchObject({ subtotal: 42.9, tax: 7.51, total: 49.3 });
    const order = await placed(client);
    expect(order).toMatchObject({
      vatCountry: 'DE',
      shippingVatRate: 1900,
      tax: 751,
      total: 4930,
      vatRows: [
        { rate: 1900, net: 3815, vat: 725 },
        { rate: 700, net: 364, vat: 26 },
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
    // 39.00 + 6.40 at 20 % restated at 19 %: 38.68 + 6.35 = 45.03 (7.19 VAT); 3.90 at 19 % restated at 7 %: 3.51.
    expect(cart).toMatchObject({ subtotal: 42.9, tax: 7.42, total: 48.54 });
    const order = await placed(client);
    expect(order.vatRows).toEqual([
      { rate: 1900, net: 3784, vat: 719 },
      { rate: 700, net: 328, vat: 23 },
    ]);
    // Net-stable changes nothing where the rate is the shop's own.
    expect((await checkout(ADDRESS)).cart).toMatchObject({ tax: 8.19, total: 49.3 });
  });

  it('applies a rate entered for a future day only from that day', async () => {
    await settings.save({ salesOssDestinationVat: true });
    const tomorrow = new Date(Date.now() + DAY_MS).toISOString().slice(0, 10);
    const set = await runCli(shop.place, 'vat-rates:set', 'de', 'standard', '25', '--from', tomorrow);
    expect(set).toMatchObject({
      code: 0,
      json: { ok: true, saved: 'vat_rate', country: 'DE', taxClass: 'standard', percent: 25, validFrom: tomorrow },
    });
    // Today's German orders still pay 19 %.
    expect((await checkout()).cart).toMatchObject({ tax: 7.51, total: 49.3 });
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
    expect(text).toMatch(/19 %\s+€38\.15\s+€7\.25\s+€45\.40/);
    expect(text).toMatch(/7 %\s+€3\.64\s+€0\.26\s+€3\.90/);

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
});
