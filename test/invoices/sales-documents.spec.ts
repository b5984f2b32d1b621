import { SalesDocumentCounter } from '../../src/commerce/invoices/sales-document-counter.entity';
import { SalesDocument } from '../../src/commerce/invoices/sales-document.entity';
import { SalesDocuments } from '../../src/commerce/invoices/sales-documents.service';
import { OrderStatusService } from '../../src/commerce/orders/order-status.service';
import { Order } from '../../src/commerce/orders/order.entity';
import { CpUsersService } from '../../src/commerce/staff/cp-users.service';
import { AppError } from '../../src/common/errors/app-error';
import { SettingsService } from '../../src/config/settings.service';
import { TransactionRunner } from '../../src/database/transaction-runner';
import { ADDRESS } from '../support/checkout';
import { registerCustomer } from '../support/customers';
import { binaryBody, pdfText } from '../support/pdf-text';
import { ShopClient } from '../support/shop-client';
import { attachedPdf, startSmtpCapture, subjectOf } from '../support/smtp-capture';
import { eventually, startTestApp, TestApp, usingMysql } from '../support/test-app';
import { placeTestPayOrder, returnPaid } from '../support/test-pay';
import { TestPluginModule } from '../support/test-plugin.module';

/** Letters of Slovak, Czech and Hungarian names and streets that the standard PDF fonts cannot print. */
const DIACRITICS = 'ľščťžýáíéúäôňŕĺ ő ű ě ř ů ĽŠČŤŽ Ő Ű';

/** Invoices and credit notes as numbered, stored documents: issue, PDF, downloads and the paid e-mail. */
describe(`invoices and credit notes (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
  let admin: ShopClient;
  const year = Number(new Intl.DateTimeFormat('en', { timeZone: 'Europe/Bratislava', year: 'numeric' }).format());

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    shop = await startTestApp({ env: { SMTP_URL: smtp.url }, extraModules: [TestPluginModule] });
    admin = new ShopClient(shop.server);
    await admin.loginCp();
  });
  afterAll(async () => {
    await shop.close();
    await smtp.close();
  });

  const documents = () => shop.app.get(SalesDocuments);
  const invoiceOf = (order: Order) =>
    shop.dataSource.getRepository(SalesDocument).findOneByOrFail({ invoicedOrderId: order.id });
  const pdfGet = (client: ShopClient, path: string) => client.get(path).buffer(true).parse(binaryBody);

  /** A shopper's order paid through the gateway's return (the settlement path), with its client. */
  async function paidOrder(address = ADDRESS) {
    const client = new ShopClient(shop.server);
    const order = await placeTestPayOrder(client, shop.dataSource, { address });
    await returnPaid(client, shop.dataSource, order);
    return { client, order: await shop.dataSource.getRepository(Order).findOneByOrFail({ id: order.id }) };
  }

  it('numbers an invoice when the order is paid, in the same transaction, and mails it with the confirmation', async () => {
    const { order } = await paidOrder();
    expect(order.status).toBe('paid');
    const invoice = await invoiceOf(order);
    expect(invoice).toMatchObject({ kind: 'invoice', year, amount: order.total, currency: 'EUR', pdfSize: null });
    expect(invoice.number).toBe(`${year}-${String(invoice.sequence).padStart(6, '0')}`);

    // The confirmation of the paid order carries the invoice, the very bytes stored for later downloads.
    const mail = await eventually(() =>
      smtp.messages.find((message) => subjectOf(message) === `Your order ${order.reference} at Demo Outdoor & Coffee`),
    );
    const attachment = attachedPdf(mail);
    expect(attachment.filename).toBe(`invoice-${invoice.number}.pdf`);
    expect(pdfText(attachment.pdf)).toContain(`Invoice ${invoice.number}`);
    const stored = await documents().pdf(await invoiceOf(order));
    expect(attachment.pdf.equals(stored)).toBe(true);
    // The job rows hold ids, not files or links.
    const jobs = await shop.dataSource.query('SELECT payload FROM jobs');
    expect(JSON.stringify(jobs)).not.toContain('JVBERi'); // base64 of "%PDF"
  });

  it('mails the invoice on its own when the order was confirmed before it was paid (bank transfer)', async () => {
    // Confirmed at placement, as an offline method is; then staff record the transfer.
    const order = await placeTestPayOrder(new ShopClient(shop.server), shop.dataSource, {
      paymentMethod: 'bank-transfer-manual',
    });
    await eventually(() =>
      smtp.messages.find((message) => subjectOf(message) === `Your order ${order.reference} at Demo Outdoor & Coffee`),
    );
    const marked = await admin.post(`/admin/orders/${order.id}/status`, { status: 'paid' });
    expect(marked.status).toBe(303);
    const invoice = await invoiceOf(order);
    const mail = await eventually(() =>
      smtp.messages.find((message) => subjectOf(message).startsWith(`Invoice ${invoice.number} for your order`)),
    );
    expect(mail.to).toEqual(['ada@example.com']);
    expect(attachedPdf(mail).filename).toBe(`invoice-${invoice.number}.pdf`);
  });

  it('gives numbers without gaps: a rolled-back issue gives its number back', async () => {
    const runner = shop.app.get(TransactionRunner);
    const first = await paidOrder();
    const before = (await invoiceOf(first.order)).sequence;
    const unpaid = await placeTestPayOrder(new ShopClient(shop.server), shop.dataSource);
    await expect(
      runner.run(async (tx) => {
        await documents().issueInvoice(tx, unpaid.id);
        throw new Error('the status change failed after the number was taken');
      }),
    ).rejects.toThrow('the status change failed');
    expect(await shop.dataSource.getRepository(SalesDocument).countBy({ orderId: unpaid.id })).toBe(0);
    const second = await paidOrder();
    expect((await invoiceOf(second.order)).sequence).toBe(before + 1);
    // Issuing again for an invoiced order answers with its invoice and takes no number.
    const again = await runner.run((tx) => documents().issueInvoice(tx, second.order.id));
    expect(again.number).toBe((await invoiceOf(second.order)).number);
    const counter = await shop.dataSource
      .getRepository(SalesDocumentCounter)
      .findOneByOrFail({ series: 'invoice', year });
    expect(counter.last).toBe(before + 1);
  });

  it('serves the stored PDF byte for byte after the seller moved, and snapshots the new address on new invoices', async () => {
    const settings = shop.app.get(SettingsService);
    const { order } = await paidOrder();
    const first = await pdfGet(new ShopClient(shop.server), `/shop/order/view/${order.number}/invoice`).expect(200);
    expect(first.headers['content-type']).toBe('application/pdf');
    expect(pdfText(first.body as Buffer)).toContain('Hlavná 12');
    const oldAddress = settings.get('salesSellerAddress');
    await settings.save({ salesSellerAddress: 'Nová ulica 7, 040 01 Košice' });
    try {
      const second = await pdfGet(new ShopClient(shop.server), `/shop/order/view/${order.number}/invoice`).expect(200);
      expect((second.body as Buffer).equals(first.body as Buffer)).toBe(true);
      const staff = await pdfGet(admin, `/admin/orders/${order.id}/invoice`).expect(200);
      expect((staff.body as Buffer).equals(first.body as Buffer)).toBe(true);

      const later = await paidOrder();
      const text = pdfText(await documents().pdf(await invoiceOf(later.order)));
      expect(text).toContain('Nová ulica 7');
      expect(text).toContain('040 01 Košice');
      expect(text).not.toContain('Hlavná 12');
    } finally {
      await settings.save({ salesSellerAddress: oldAddress });
    }
  });

  it('prints every letter of Slovak, Czech and Hungarian names with an embedded font', async () => {
    const address = { ...ADDRESS, firstName: 'Ľudovít Ő', lastName: 'Šťastný-Űrögi', street: DIACRITICS };
    const { order } = await paidOrder(address);
    const pdf = await documents().pdf(await invoiceOf(order));
    const text = pdfText(pdf);
    expect(text).toContain('Ľudovít Ő Šťastný-Űrögi');
    expect(text).toContain(DIACRITICS);
    // The font travels in the file (a TrueType subset), so every reader shows the same letters.
    const raw = pdf.toString('latin1');
    expect(raw).toMatch(/\/BaseFont \/[A-Z]{6}\+DejaVuSans\b/);
    expect(raw).toContain('/FontFile2');
  });

  it('numbers credit notes in their own sequence, each referring to the invoice, never beyond it', async () => {
    const runner = shop.app.get(TransactionRunner);
    const { client, order } = await paidOrder();
    const invoice = await invoiceOf(order);
    const issue = (refundId: number, amount: number, lines?: Array<{ name: string; qty: number; amount: number }>) =>
      runner.run((tx) => documents().issueCreditNote(tx, { orderId: order.id, refundId, amount, lines }));

    const refundBase = order.id * 100;
    const first = await issue(refundBase + 1, 500, [
      { name: 'Beam 300 Headlamp, returned strap', qty: 1, amount: 500 },
    ]);
    const second = await issue(refundBase + 2, 1000);
    expect(first).toMatchObject({ kind: 'credit_note', invoiceId: invoice.id, orderId: order.id, amount: 500, year });
    expect(first.number).toMatch(new RegExp(`^CN${year}-\\d{6}$`));
    expect(second.sequence).toBe(first.sequence + 1);
    // The credit-note sequence does not touch the invoices'.
    const counters = await shop.dataSource.getRepository(SalesDocumentCounter).findBy({ year });
    expect(counters.find((counter) => counter.series === 'credit_note')!.last).toBe(second.sequence);
    expect(counters.find((counter) => counter.series === 'invoice')!.last).toBeGreaterThanOrEqual(invoice.sequence);

    // The same refund again is the same credit note; more than the invoice is refused; so is a bad request.
    expect((await issue(refundBase + 1, 500)).number).toBe(first.number);
    expect((await invoiceOf(order)).credited).toBe(1500);
    const tooMuch = await issue(refundBase + 3, order.total).catch((error: AppError) => error);
    expect(tooMuch).toMatchObject({ code: 'credit_exceeds_invoice', status: 409 });
    const mismatch = await issue(refundBase + 4, 300, [{ name: 'x', qty: 1, amount: 200 }]).catch((e: AppError) => e);
    expect(mismatch).toMatchObject({ code: 'validation_failed', status: 400 });
    const unpaid = await placeTestPayOrder(new ShopClient(shop.server), shop.dataSource);
    const noInvoice = await runner
      .run((tx) => documents().issueCreditNote(tx, { orderId: unpaid.id, refundId: refundBase + 5, amount: 100 }))
      .catch((error: AppError) => error);
    expect(noInvoice).toMatchObject({ code: 'invoice_not_issued', status: 409 });

    // The shopper's account, the guest link and staff all get it.
    const guest = await pdfGet(
      new ShopClient(shop.server),
      `/shop/order/view/${order.number}/credit-notes/${first.id}`,
    );
    expect(guest.status).toBe(200);
    expect(guest.headers['content-disposition']).toBe(`attachment; filename="credit-note-${first.number}.pdf"`);
    const text = pdfText(guest.body as Buffer);
    expect(text).toContain(`Credit note ${first.number}`);
    expect(text).toContain(`Corrects invoice: ${invoice.number}`);
    expect(text).toContain('Beam 300 Headlamp, returned strap 1 -€5.00');
    expect(text).toContain('Total credited -€5.00');
    // The VAT given back: the invoice's 20 % in the share credited (7.32 of 43.90 → 0.83 of 5.00).
    expect(text).toContain('20 % -€4.17 -€0.83 -€5.00');
    const page = await client.get(`/shop/order/view/${order.number}`).set('Accept', 'text/html').expect(200);
    expect(page.text).toContain(`/shop/order/view/${order.number}/credit-notes/${second.id}`);
    const staff = await pdfGet(admin, `/admin/orders/${order.id}/credit-notes/${second.id}`).expect(200);
    expect(pdfText(staff.body as Buffer)).toContain(`Credit note ${second.number}`);
    const cpPage = await admin.get(`/admin/orders/${order.id}`).set('Accept', 'text/html').expect(200);
    expect(cpPage.text).toContain(first.number);
    expect(cpPage.text).toContain(invoice.number);
  });

  it('lets the account owner download invoice and credit notes, and nobody else', async () => {
    const client = new ShopClient(shop.server);
    await registerCustomer(client);
    const order = await placeTestPayOrder(client, shop.dataSource);
    const download = async (who: ShopClient, path: string, body: object) =>
      who.agent
        .post(path)
        .type('form')
        .buffer(true)
        .parse(binaryBody)
        .send({ ...body, _csrf: await who.csrfToken() });

    // Not paid yet: no invoice, anywhere.
    expect((await download(client, '/shop/account/download-invoice', { number: order.number })).status).toBe(404);
    expect((await pdfGet(client, `/shop/order/view/${order.number}/invoice`)).status).toBe(404);
    expect((await pdfGet(admin, `/admin/orders/${order.id}/invoice`)).status).toBe(404);
    await returnPaid(client, shop.dataSource, order);
    const note = await shop.app
      .get(TransactionRunner)
      .run((tx) => documents().issueCreditNote(tx, { orderId: order.id, refundId: order.id * 100 + 50, amount: 100 }));

    const invoice = await download(client, '/shop/account/download-invoice', { number: order.number });
    expect(invoice.status).toBe(200);
    const credit = await download(client, '/shop/account/download-credit-note', {
      number: order.number,
      creditNote: note.id,
    });
    expect(credit.status).toBe(200);
    expect(pdfText(credit.body as Buffer)).toContain(`Credit note ${note.number}`);
    const myOrder = await client.get(`/shop/account/my-order?number=${order.number}`).set('Accept', 'text/html');
    expect(myOrder.text).toContain(`name="creditNote" value="${note.id}"`);

    // Someone else's account, another order's credit note, an unknown order number: 404.
    const other = new ShopClient(shop.server);
    await registerCustomer(other, { firstName: 'Grace' });
    expect((await download(other, '/shop/account/download-invoice', { number: order.number })).status).toBe(404);
    expect(
      (await download(other, '/shop/account/download-credit-note', { number: order.number, creditNote: note.id }))
        .status,
    ).toBe(404);
    const { order: another } = await paidOrder();
    expect((await pdfGet(client, `/shop/order/view/${another.number}/credit-notes/${note.id}`)).status).toBe(404);
    expect((await pdfGet(client, `/shop/order/view/${'0'.repeat(32)}/invoice`)).status).toBe(404);
    expect((await pdfGet(admin, `/admin/orders/${another.id}/credit-notes/${note.id}`)).status).toBe(404);
    const bad = await client.post('/shop/account/download-credit-note', { number: order.number, creditNote: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toEqual({ creditNote: expect.any(Array) });

    // Staff without the orders permission, and visitors who are not staff, are refused.
    await shop.app
      .get(CpUsersService)
      .create({ email: 'marketing@example.com', password: 'staff-password-1', permissions: ['accessMarketing'] });
    const marketer = new ShopClient(shop.server);
    await marketer.loginCp('marketing@example.com', 'staff-password-1');
    const refused = await marketer.get(`/admin/orders/${order.id}/invoice`).set('Accept', 'application/json');
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
    // A visitor who is not logged in to the CP is sent to its login page, as for every CP page.
    const stranger = await new ShopClient(shop.server).get(`/admin/orders/${order.id}/invoice`);
    expect(stranger.status).toBe(302);
    expect(stranger.headers.location).toBe(
      `/admin/login?next=${encodeURIComponent(`/admin/orders/${order.id}/invoice`)}`,
    );
  });

  it('issues invoices when the order ships, with that setting', async () => {
    const settings = shop.app.get(SettingsService);
    await settings.save({ salesInvoiceIssuedWhen: 'shipped' });
    try {
      const { order } = await paidOrder();
      expect(await documents().invoiceOf(order.id)).toBeNull();
      expect((await pdfGet(new ShopClient(shop.server), `/shop/order/view/${order.number}/invoice`)).status).toBe(404);
      await shop.app.get(OrderStatusService).change(order.id, 'shipped', 'test');
      expect((await invoiceOf(order)).kind).toBe('invoice');
      expect((await pdfGet(new ShopClient(shop.server), `/shop/order/view/${order.number}/invoice`)).status).toBe(200);
    } finally {
      await settings.save({ salesInvoiceIssuedWhen: 'paid' });
    }
    // A format without the year would repeat last year's numbers.
    await expect(settings.save({ salesInvoiceNumberFormat: 'INV-{seq}' })).rejects.toThrow(
      'must hold {year} and {seq}',
    );
  });
});
