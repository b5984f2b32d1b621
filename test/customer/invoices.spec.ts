import { Customer } from '../../src/commerce/customers/customer.entity';
import { SalesDocument } from '../../src/commerce/invoices/sales-document.entity';
import { Order } from '../../src/commerce/orders/order.entity';
import { SettingsService } from '../../src/config/settings.service';
import { productBySku } from '../support/catalog';
import { ADDRESS, addToCart, fillCheckout, placeOrder, shippingValue } from '../support/checkout';
import { registerCustomer } from '../support/customers';
import { binaryBody, pdfText } from '../support/pdf-text';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp, usingMysql } from '../support/test-app';

/** A customer's orders, order detail, invoice list and invoice PDF. */
describe(`account orders and invoices (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let flatRate: string;
  beforeAll(async () => {
    // The app listens so that the reverse-charge checkout can reach the VIES sandbox.
    shop = await startTestApp({ listen: true });
    flatRate = await shippingValue(shop.dataSource, 'flat-rate');
  });
  afterAll(() => shop.close());

  const orders = () => shop.dataSource.getRepository(Order);
  const customerByEmail = (email: string) => shop.dataSource.getRepository(Customer).findOneByOrFail({ email });

  /** A headlamp (39.00) by courier (4.90): cash on delivery (+1.50) is invoiced at once, a bank transfer later. */
  async function buy(
    client: ShopClient,
    paymentMethod = 'cod',
    extra: Record<string, unknown> = {},
    address = ADDRESS,
  ) {
    await addToCart(client, (await productBySku(shop.dataSource, 'DEMO-HEADLAMP')).id, 1);
    await fillCheckout(client, { shippingMethod: flatRate, paymentMethod, address, extra });
    const placed = await placeOrder(client);
    if (placed.status !== 200) throw new Error(`place-order failed: ${placed.status} ${JSON.stringify(placed.body)}`);
    return orders().findOneByOrFail({ number: placed.body.orderNumber });
  }

  async function downloadInvoice(client: ShopClient, number: string) {
    const token = await client.csrfToken();
    return client.agent
      .post('/shop/account/download-invoice')
      .type('form')
      .set('Accept', 'text/html')
      .buffer(true)
      .parse(binaryBody)
      .send({ number, _csrf: token });
  }

  const page = (client: ShopClient, path: string) => client.get(path).set('Accept', 'text/html');
  /** Handlebars writes `=` in attribute values as `&#x3D;`, which browsers read back as `=`. */
  const href = (url: string) => `href="${url.replaceAll('=', '&#x3D;')}"`;

  it('lists the orders placed while logged in, newest first, and shows each only to its owner', async () => {
    const ada = new ShopClient(shop.server);
    const email = await registerCustomer(ada);
    const customer = await customerByEmail(email);
    const cod = await buy(ada);
    const transfer = await buy(ada, 'bank-transfer-manual');
    expect(cod.customerId).toBe(customer.id);
    expect(transfer.customerId).toBe(customer.id);

    const list = await page(ada, '/shop/account/my-orders').expect(200);
    expect(list.headers['cache-control']).toBe('no-store');
    expect(list.text).toContain('<meta name="viewport"');
    expect(list.text.indexOf(transfer.reference)).toBeGreaterThan(-1);
    expect(list.text.indexOf(transfer.reference)).toBeLessThan(list.text.indexOf(cod.reference));
    expect(list.text).toContain('Awaiting payment');
    expect(list.text).toContain('Being prepared');
    expect(list.text).toContain(href(`/shop/account/my-order?number=${cod.number}`));

    const detail = await page(ada, `/shop/account/my-order?number=${cod.number}`).expect(200);
    const headlamp = await productBySku(shop.dataSource, 'DEMO-HEADLAMP');
    expect(detail.text).toContain(`Order ${cod.reference}`);
    expect(detail.text).toContain(headlamp.name);
    expect(detail.text).toContain('€45.40');
    expect(detail.text).toContain('Being prepared');
    expect(detail.text).toContain('Download invoice');
    const unpaid = await page(ada, `/shop/account/my-order?number=${transfer.number}`).expect(200);
    expect(unpaid.text).not.toContain('Download invoice');

    // Someone else's order, an unknown one and a malformed one are all simply not there.
    const grace = new ShopClient(shop.server);
    await registerCustomer(grace, { firstName: 'Grace' });
    const foreign = await page(grace, `/shop/account/my-order?number=${cod.number}`).expect(404);
    expect(foreign.text).toContain('We could not find this order in your account.');
    await page(grace, `/shop/account/my-order?number=${'0'.repeat(32)}`).expect(404);
    await page(ada, '/shop/account/my-order?number=nope').expect(404);
    const othersList = await page(grace, '/shop/account/my-orders').expect(200);
    expect(othersList.text).not.toContain(cod.reference);
    expect(othersList.text).toContain('You have not ordered anything yet.');
    const missing = await ada.get('/shop/account/my-order').set('Accept', 'application/json').expect(400);
    expect(missing.body.error.fields).toEqual({ number: expect.any(Array) });
  });

  it('pages the order list ten at a time', async () => {
    const client = new ShopClient(shop.server);
    await registerCustomer(client);
    const placed: Order[] = [];
    for (let i = 0; i < 11; i++) placed.push(await buy(client));

    const first = await page(client, '/shop/account/my-orders').expect(200);
    const second = await page(client, '/shop/account/my-orders?page=2').expect(200);
    const shown = (html: string) => placed.filter((order) => html.includes(order.reference));
    expect(shown(first.text)).toHaveLength(10);
    expect(shown(second.text)).toEqual([placed[0]]);
    expect(first.text).toContain('Page 1 of 2');
    expect(first.text).toContain(href('/shop/account/my-orders?page=2'));
    expect(second.text).toContain(href('/shop/account/my-orders?page=1'));
    const beyond = await page(client, '/shop/account/my-orders?page=3').expect(200);
    expect(shown(beyond.text)).toHaveLength(0);
    const bad = await client.get('/shop/account/my-orders?page=0').set('Accept', 'application/json').expect(400);
    expect(bad.body.error.fields).toEqual({ page: ['must be a page number'] });
    await client.get('/shop/account/my-orders?page=abc').set('Accept', 'application/json').expect(400);
  });

  it('lists the invoices of paid orders and downloads each as a PDF with seller, buyer, lines, VAT and totals', async () => {
    const client = new ShopClient(shop.server);
    await registerCustomer(client);
    const cod = await buy(client);
    const transfer = await buy(client, 'bank-transfer-manual');

    const list = await page(client, '/shop/account/my-invoices').expect(200);
    expect(list.text).toContain(cod.reference);
    expect(list.text).not.toContain(transfer.reference);
    expect(list.text).toContain(`name="number" value="${cod.number}"`);
    expect(list.text).toMatch(/name="_csrf" value="[^"]+"/);

    const download = await downloadInvoice(client, cod.number);
    expect(download.status).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    const invoice = await shop.dataSource.getRepository(SalesDocument).findOneByOrFail({ invoicedOrderId: cod.id });
    expect(invoice.number).toMatch(/^\d{4}-\d{6}$/);
    expect(download.headers['content-disposition']).toBe(`attachment; filename="invoice-${invoice.number}.pdf"`);
    expect(download.headers['cache-control']).toBe('private, no-store');
    const pdf = download.body as Buffer;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(pdf);
    const headlamp = await productBySku(shop.dataSource, 'DEMO-HEADLAMP');
    for (const expected of [
      `Invoice ${invoice.number}`,
      // Seller: the account holder from the bank-transfer settings, the store, its address, country and VAT id.
      'Demo Outdoor & Coffee s.r.o.',
      'Hlavná 12',
      'Slovakia',
      'VAT ID: SK2020123456',
      'IBAN: SK31 1200 0000 1987 4263 7541',
      // Buyer: the billing address.
      'Ada Lovelace',
      'Hlavná 1',
      '811 01 Bratislava',
      // The line: qty, unit price, total.
      headlamp.name,
      'SKU DEMO-HEADLAMP',
      '1 €39.00 €39.00',
      'Shipping (Courier) €4.90',
      'Payment fee (Cash on delivery) €1.50',
      'Total €45.40',
      // 20 % VAT included in 45.40: 37.83 net + 7.57 VAT.
      '20 % €37.83 €7.57 €45.40',
    ]) {
      expect(text).toContain(expected);
    }

    // Unpaid, someone else's, unknown: no invoice.
    expect((await downloadInvoice(client, transfer.number)).status).toBe(404);
    const other = new ShopClient(shop.server);
    await registerCustomer(other);
    expect((await downloadInvoice(other, cod.number)).status).toBe(404);
    const json = await other.post('/shop/account/download-invoice', { number: cod.number });
    expect(json.status).toBe(404);
    expect(json.body.error.code).toBe('not_found');
    const empty = await client.post('/shop/account/download-invoice', {});
    expect(empty.status).toBe(400);
    expect(empty.body.error.fields).toEqual({ number: expect.any(Array) });
    await client.agent.post('/shop/account/download-invoice').send({ number: cod.number }).expect(403);

    // An order paid before invoices were kept as documents (its status set without the order machine) gets its
    // invoice at the first download.
    await orders().update({ id: transfer.id }, { status: 'paid' });
    expect((await downloadInvoice(client, transfer.number)).status).toBe(200);
    expect((await page(client, '/shop/account/my-invoices')).text).toContain(transfer.reference);
  });

  it('invoices a reverse-charge sale at 0 % VAT with the buyer company and VAT id', async () => {
    const client = new ShopClient(shop.server);
    await registerCustomer(client);
    const prague = { ...ADDRESS, street: 'Václavské náměstí 1', city: 'Praha', zipCode: '110 00', country: 'CZ' };
    const order = await buy(client, 'cod', { vatId: 'CZ 1234 5678', companyName: 'Firma s.r.o.' }, prague);
    expect(order).toMatchObject({ reverseCharge: true, tax: 0, total: 3783 });

    const download = await downloadInvoice(client, order.number);
    expect(download.status).toBe(200);
    const text = pdfText(download.body as Buffer);
    expect(text).toContain('Firma s.r.o.');
    expect(text).toContain('VAT ID: CZ12345678');
    // The embedded font prints every letter of the address.
    expect(text).toContain('Václavské náměstí 1');
    expect(text).toContain('Czechia');
    // Prices include VAT; a reverse-charge buyer does not pay the VAT part of 45.40.
    expect(text).toContain('VAT not charged (reverse charge) -€7.57');
    expect(text).toContain('Total €37.83');
    expect(text).toContain('0 % €37.83 €0.00 €37.83');
    expect(text).toContain('Reverse charge');
  });

  it('sends guests to the login page and answers 404 while customer accounts are off', async () => {
    const guest = new ShopClient(shop.server);
    for (const path of ['/shop/account/my-orders', '/shop/account/my-invoices', '/shop/account/my-order?number=x']) {
      const res = await page(guest, path).expect(302);
      expect(res.headers.location).toBe(`/shop/login?return=${encodeURIComponent(path)}`);
    }
    const json = await guest.post('/shop/account/download-invoice', { number: 'x' });
    expect(json.status).toBe(401);
    expect(json.body.error.code).toBe('login_required');

    const client = new ShopClient(shop.server);
    await registerCustomer(client);
    const settings = shop.app.get(SettingsService);
    await settings.save({ customerAccountsEnabled: false });
    try {
      await page(client, '/shop/account/my-orders').expect(404);
      await page(client, '/shop/account/my-invoices').expect(404);
      await page(guest, '/shop/account/my-order?number=x').expect(404);
      expect((await client.post('/shop/account/download-invoice', { number: 'x' })).status).toBe(404);
    } finally {
      await settings.save({ customerAccountsEnabled: true });
    }
  });
});
