import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { orderMailKey } from '../../src/commerce/order-mails/order-mails.service';
import { OrderLine } from '../../src/commerce/orders/order-line.entity';
import { Order } from '../../src/commerce/orders/order.entity';
import { Refund } from '../../src/commerce/refunds/refund.entity';
import { SalesDocument } from '../../src/commerce/invoices/sales-document.entity';
import { SalesDocuments } from '../../src/commerce/invoices/sales-documents.service';
import { Shipment } from '../../src/commerce/shipments/shipment.entity';
import { SettingsService } from '../../src/config/settings.service';
import { Job } from '../../src/jobs/job.entity';
import { productBySku } from '../support/catalog';
import { pdfText } from '../support/pdf-text';
import { ADDRESS, addToCart, fillCheckout, placeOrder, shippingValue } from '../support/checkout';
import { BANK_CONTROL, chooseAtBank, comeBackFromBank, placeBankOrder } from '../support/sandbox-bank';
import { ShopClient } from '../support/shop-client';
import {
  attachedPdf,
  CapturedMail,
  contentTypeOf,
  mailHtml,
  mailParts,
  mailText,
  startSmtpCapture,
  subjectOf,
} from '../support/smtp-capture';
import { jobsSettled, startTestApp, TestApp, usingMysql } from '../support/test-app';

const SHOP = 'Demo Outdoor & Coffee';
const SELLER = { salesSellerEmail: 'hello@outdoor.example', salesSellerPhone: '+421 2 5555 0101' };
const GRACE = {
  ...ADDRESS,
  firstName: 'Grace',
  lastName: 'Hopper',
  street: 'Dunajská 7',
  zipCode: '040 01',
  city: 'Košice',
};

/** Intl writes a no-break space where a reader sees a space (Slovak amounts). */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

/**
 * The e-mails a shopper gets at each step of an order (docs/shop.md, _Order e-mails_), caught by a real SMTP
 * listener: HTML with a text part, written from the templates (one replaced from MAIL_TEMPLATES_DIR), in the
 * language the shopper ordered in, each once, each step's switchable off.
 */
describe(`order e-mails (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
  let staff: ShopClient;
  let settings: SettingsService;
  let overrides: string;
  let flatRate: string;
  let shopper = 0;

  beforeAll(async () => {
    overrides = mkdtempSync(join(tmpdir(), 'mail-templates-'));
    writeFileSync(join(overrides, 'order-delivered.subject.hbs'), 'Arrived: {{order.reference}}, {{shop.name}}\n');
    writeFileSync(
      join(overrides, 'order-delivered.html.hbs'),
      '<p class="ours">Enjoy order {{order.reference}}, from all of us at {{shop.name}}.</p>\n{{> items}}\n',
    );
    smtp = await startSmtpCapture();
    shop = await startTestApp({ listen: true, env: { SMTP_URL: smtp.url, MAIL_TEMPLATES_DIR: overrides } });
    settings = shop.app.get(SettingsService);
    await settings.save(SELLER);
    flatRate = await shippingValue(shop.dataSource, 'flat-rate');
    staff = new ShopClient(shop.server);
    await staff.loginCp();
  });
  afterAll(async () => {
    await shop?.close();
    await smtp?.close();
    rmSync(overrides, { recursive: true, force: true });
  });
  afterEach(async () => {
    await jobsSettled(shop);
    await settings.save({
      shipmentsShippedMail: true,
      shipmentsDeliveredMail: true,
      salesCanceledMail: true,
      salesRefundedMail: true,
    });
  });

  /** A cash-on-delivery order (so `processing`) of two headlamps (78.00, 4.90 courier, 1.50 fee), shipped to Grace. */
  async function placedOrder(client = new ShopClient(shop.server)): Promise<Order> {
    await addToCart(client, (await productBySku(shop.dataSource, 'DEMO-HEADLAMP')).id, 2);
    await fillCheckout(client, {
      email: `mails${++shopper}@example.com`,
      shippingMethod: flatRate,
      paymentMethod: 'cod',
      extra: { sameAsBilling: false, shippingAddress: GRACE },
    });
    const placed = await placeOrder(client);
    expect(placed.status).toBe(200);
    return shop.dataSource.getRepository(Order).findOneByOrFail({ number: placed.body.orderNumber });
  }

  /** What reached the order's shopper about it (its reference in the subject) once every queued job has run. */
  async function mailsOf(order: Order, subject: RegExp): Promise<CapturedMail[]> {
    await jobsSettled(shop);
    return smtp.messages.filter(
      (mail) =>
        mail.to.includes(order.email) && subjectOf(mail).includes(order.reference) && subject.test(subjectOf(mail)),
    );
  }

  async function onlyMail(order: Order, subject: RegExp): Promise<CapturedMail> {
    const mails = await mailsOf(order, subject);
    expect(mails).toHaveLength(1);
    return mails[0];
  }

  const post = async (path: string, body: Record<string, string>) => {
    const res = await staff.agent
      .post(`/admin/orders/${path}`)
      .set('X-CSRF-Token', await staff.csrfToken())
      .send(body);
    // A shipment answers a script with JSON; a status change, which has nothing to add, redirects.
    expect([200, 303]).toContain(res.status);
  };
  const setStatus = (order: Order, status: string) => post(`${order.id}/status`, { status });
  /** A parcel staff hand to a carrier themselves (the order ships), then see arrive (it completes). */
  async function shipAndDeliver(order: Order): Promise<void> {
    await post(`${order.id}/shipments`, {
      carrierName: 'Post',
      trackingNumber: `RR${order.id}SK`,
      trackingUrl: `https://post.example/track/RR${order.id}SK`,
    });
    const shipment = await shop.dataSource.getRepository(Shipment).findOneByOrFail({ orderId: order.id });
    await post(`${order.id}/shipments/${shipment.id}/delivered`, {});
    expect((await shop.dataSource.getRepository(Order).findOneByOrFail({ id: order.id })).status).toBe('completed');
  }

  it('confirms an order in HTML and text with its items, totals, addresses, methods and the seller', async () => {
    const order = await placedOrder();
    const mail = await onlyMail(order, /^Your order /);
    expect(subjectOf(mail)).toBe(`Your order ${order.reference} at ${SHOP}`);
    // Cash on delivery is invoiced once accepted: beside its HTML and text parts the confirmation carries the invoice.
    expect(contentTypeOf(mail)).toMatch(/^multipart\/mixed;/);
    expect(mail.raw).toMatch(/Content-Type: multipart\/alternative;/);
    expect(mailParts(mail).map((part) => part.type)).toEqual(['text/plain', 'text/html', 'application/pdf']);
    expect(mailText(mail)).toContain('Your invoice is attached.');
    expect(order).toMatchObject({ subtotal: 7800, shippingTotal: 490, paymentFee: 150, total: 8440 });

    const text = mailText(mail);
    expect(text).toContain(`Thank you for your order ${order.reference} at ${SHOP}.`);
    expect(text).toContain('2 × Beam 300 Headlamp (DEMO-HEADLAMP)  €78.00');
    for (const line of [
      'Subtotal: €78.00',
      `Shipping (${order.shippingName}): €4.90`,
      'Cash on delivery fee: €1.50',
      'Total: €84.40',
    ])
      expect(text).toContain(line);
    expect(text).toMatch(/incl\. VAT: €\d+\.\d\d/);
    expect(text).toContain('Billing address:\nAda Lovelace\nHlavná 1\n811 01 Bratislava\nSlovakia');
    expect(text).toContain('Shipping address:\nGrace Hopper\nDunajská 7\n040 01 Košice\nSlovakia');
    expect(text).toContain(`Shipping: ${order.shippingName}`);
    expect(text).toContain(`Payment: ${order.paymentName}`);
    expect(order.paymentName).toBe('Cash on delivery');
    expect(text).toContain(`Follow your order: ${shop.config.baseUrl}/shop/order/view/${order.number}`);
    for (const seller of [
      SHOP,
      'Hlavná 12',
      '811 01 Bratislava',
      'E-mail: hello@outdoor.example',
      'Phone: +421 2 5555 0101',
      'VAT ID: SK2020123456',
    ])
      expect(text).toContain(seller);
    expect(mail.raw).toMatch(/^Reply-To: hello@outdoor\.example\r$/m);

    const html = mailHtml(mail);
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toContain('Demo Outdoor &amp; Coffee');
    expect(html).toMatch(
      /<td>Beam 300 Headlamp <span[^>]*>\(DEMO-HEADLAMP\)<\/span><\/td>\s*<td align="right">2<\/td>/,
    );
    expect(html).toContain('<td align="right">€84.40</td>');
    expect(html).toContain('Grace Hopper<br>');
    expect(html).toContain('Ada Lovelace<br>');
    expect(html).toContain('<a href="mailto:hello@outdoor.example"');
    expect(html).toContain(`<a href="${shop.config.baseUrl}/shop/order/view/${order.number}"`);
    expect(html).toContain('Cash on delivery');

    // The job row names the kind and the order, never the message or the order's number (it opens the order).
    const [job] = await shop.dataSource.getRepository(Job).findBy({ jobKey: orderMailKey('confirmation', order.id) });
    expect(job).toMatchObject({
      name: 'order.mail',
      status: 'done',
      payload: { kind: 'confirmation', orderId: order.id },
    });
    expect(JSON.stringify(job)).not.toContain(order.number);
  });

  it('mails the shipping and the delivery once each, the delivery from the overriding templates', async () => {
    const order = await placedOrder();
    await shipAndDeliver(order);
    // A status set again, a parcel added later: nothing new to tell.
    await setStatus(order, 'completed');

    const shipped = await onlyMail(order, / is on its way$/);
    expect(subjectOf(shipped)).toBe(`Your order ${order.reference} at ${SHOP} is on its way`);
    expect(contentTypeOf(shipped)).toMatch(/^multipart\/alternative;/);
    expect(mailText(shipped)).toContain(`Post, parcel RR${order.id}SK: https://post.example/track/RR${order.id}SK`);
    expect(mailText(shipped)).toContain('2 × Beam 300 Headlamp (DEMO-HEADLAMP)  €78.00');
    expect(mailText(shipped)).toContain('Phone: +421 2 5555 0101');
    expect(mailHtml(shipped)).toContain(`<a href="https://post.example/track/RR${order.id}SK"`);

    // The shop's own subject and HTML from MAIL_TEMPLATES_DIR; the text it did not replace stays the built-in one.
    const delivered = await onlyMail(order, /^Arrived: /);
    expect(subjectOf(delivered)).toBe(`Arrived: ${order.reference}, ${SHOP}`);
    expect(mailHtml(delivered)).toContain(
      `<p class="ours">Enjoy order ${order.reference}, from all of us at Demo Outdoor &amp; Coffee.</p>`,
    );
    expect(mailHtml(delivered)).toContain('Beam 300 Headlamp');
    expect(mailHtml(delivered)).toContain('<a href="mailto:hello@outdoor.example"');
    expect(mailText(delivered)).toContain(`Your order ${order.reference} at ${SHOP} has been delivered.`);
    expect(mailText(delivered)).toContain(`Post, parcel RR${order.id}SK`);
  });

  it('sends no shipping or delivery e-mail while they are switched off', async () => {
    await settings.save({ shipmentsShippedMail: false, shipmentsDeliveredMail: false });
    const order = await placedOrder();
    await shipAndDeliver(order);
    expect(await mailsOf(order, /^Your order /)).toHaveLength(1);
    expect(await mailsOf(order, / is on its way$|^Arrived: /)).toEqual([]);
  });

  it('mails a cancellation once, and none while switched off', async () => {
    const order = await placedOrder();
    await setStatus(order, 'canceled');
    await setStatus(order, 'canceled');
    const mail = await onlyMail(order, / has been canceled$/);
    expect(subjectOf(mail)).toBe(`Your order ${order.reference} at ${SHOP} has been canceled`);
    expect(contentTypeOf(mail)).toMatch(/^multipart\/alternative;/);
    const text = mailText(mail);
    expect(text).toContain(`Your order ${order.reference} at ${SHOP} has been canceled.`);
    expect(text).toContain('If you have paid for it, we will refund the money.');
    expect(text).toContain('Total: €84.40');
    expect(text).toContain('E-mail: hello@outdoor.example');
    expect(mailHtml(mail)).toContain('has been canceled.');

    await settings.save({ salesCanceledMail: false });
    const quiet = await placedOrder();
    await setStatus(quiet, 'canceled');
    expect(await mailsOf(quiet, / has been canceled$/)).toEqual([]);
  });

  it('mails each refund once, the last one saying everything is refunded, and none while switched off', async () => {
    await request(shop.server).post(`${BANK_CONTROL}/reset`).expect(200);
    const cardOrder = async () => {
      const { client, order, redirect } = await placeBankOrder(shop, flatRate, 'bankpay', 'DEMO-HEADLAMP', 2);
      expect(await comeBackFromBank(client, await chooseAtBank(shop, redirect, 'card-ok'))).toBe(
        '/shop/checkout/success',
      );
      return order;
    };
    const refund = async (order: Order, body: Record<string, unknown>, key: string) => {
      const res = await staff.agent
        .post(`/admin/orders/${order.id}/refunds`)
        .set('X-CSRF-Token', await staff.csrfToken())
        .set('Idempotency-Key', key)
        .send(body);
      expect(res.status).toBe(200);
    };
    const order = await cardOrder();
    const [line] = await shop.dataSource.getRepository(OrderLine).findBy({ orderId: order.id });
    await refund(order, { lines: `${line.id}:1`, reason: 'Arrived broken (staff note)' }, `mail-first-${order.id}`);
    await refund(order, { lines: `${line.id}:1`, reason: 'Arrived broken (staff note)' }, `mail-first-${order.id}`);
    await refund(order, { full: true, reason: 'Returned' }, `mail-rest-${order.id}`);

    const mails = await mailsOf(order, /^A refund for your order /);
    expect(mails).toHaveLength(2);
    expect(mails.map(subjectOf)).toEqual([
      `A refund for your order ${order.reference} at ${SHOP}`,
      `A refund for your order ${order.reference} at ${SHOP}`,
    ]);
    const [first, rest] = mails.map(mailText);
    expect(first).toContain(`We have refunded €39.00 for your order ${order.reference} at ${SHOP}.`);
    expect(first).toContain('Refunded items:\n1 × Beam 300 Headlamp');
    expect(first).toContain(`The money goes back the way you paid (${order.paymentName})`);
    expect(first).not.toContain('Everything you paid');
    expect(first).not.toContain('staff note');
    expect(rest).toContain('We have refunded €43.90');
    expect(rest).toContain('Everything you paid for this order has now been refunded.');
    expect(rest).toContain('Total: €82.90');
    expect(mailHtml(mails[1])).toContain('<strong>Everything you paid for this order has now been refunded.</strong>');

    // Each carries the credit note its refund issued: the number the database holds, the very bytes stored.
    const refunds = await shop.dataSource
      .getRepository(Refund)
      .find({ where: { orderId: order.id, status: 'succeeded' }, order: { id: 'ASC' } });
    expect(refunds).toHaveLength(2);
    for (const [index, mail] of mails.entries()) {
      expect(contentTypeOf(mail)).toMatch(/^multipart\/mixed;/);
      expect(mailParts(mail).map((part) => part.type)).toEqual(['text/plain', 'text/html', 'application/pdf']);
      expect(mailText(mail)).toContain('Your credit note is attached.');
      const creditNote = await shop.dataSource
        .getRepository(SalesDocument)
        .findOneByOrFail({ refundId: refunds[index].id, kind: 'credit_note' });
      const attachment = attachedPdf(mail);
      expect(attachment.filename).toBe(`credit-note-${creditNote.number}.pdf`);
      expect(pdfText(attachment.pdf)).toContain(`Credit note number: ${creditNote.number}`);
      expect(attachment.pdf.equals(await shop.app.get(SalesDocuments).pdf(creditNote))).toBe(true);
    }

    await settings.save({ salesRefundedMail: false });
    const quiet = await cardOrder();
    await refund(quiet, { full: true, reason: 'Returned' }, `mail-quiet-${quiet.id}`);
    expect(await mailsOf(quiet, /^A refund for your order /)).toEqual([]);
  });

  it("writes the e-mails in the shopper's language: Slovak", async () => {
    const client = new ShopClient(shop.server);
    expect((await client.submitForm('/shop/language/set', { language: 'sk' })).status).toBe(303);
    const order = await placedOrder(client);
    expect(order.language).toBe('sk');
    const confirmation = await onlyMail(order, /^Vaša objednávka /);
    expect(subjectOf(confirmation)).toBe(`Vaša objednávka ${order.reference} v obchode ${SHOP}`);
    const text = plain(mailText(confirmation));
    for (const line of [
      `Ďakujeme za vašu objednávku ${order.reference} v obchode ${SHOP}.`,
      '2 × Beam 300 Headlamp (DEMO-HEADLAMP)  78,00 €',
      'Medzisúčet: 78,00 €',
      'Spolu: 84,40 €',
      'Fakturačná adresa:\nAda Lovelace',
      'Dodacia adresa:\nGrace Hopper',
      'Platba: Cash on delivery',
      'Telefón: +421 2 5555 0101',
      `Sledujte svoju objednávku: ${shop.config.baseUrl}/shop/order/view/${order.number}`,
    ])
      expect(text).toContain(line);
    expect(mailHtml(confirmation)).toContain('<html lang="sk">');
    expect(plain(mailHtml(confirmation))).toContain('Máte otázky? Napíšte nám alebo zavolajte');

    await setStatus(order, 'canceled');
    const canceled = await onlyMail(order, /bola zrušená$/);
    expect(mailText(canceled)).toContain(`Vaša objednávka ${order.reference} v obchode ${SHOP} bola zrušená.`);
  });
});
