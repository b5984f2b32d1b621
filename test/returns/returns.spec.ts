import request from 'supertest';
import { orderMailKey } from '../../src/commerce/order-mails/order-mails.service';
import { OrderHistory } from '../../src/commerce/orders/order-history.entity';
import { OrderLine } from '../../src/commerce/orders/order-line.entity';
import { Order } from '../../src/commerce/orders/order.entity';
import { PaymentTransaction } from '../../src/commerce/payments/payment-transaction.entity';
import { Product } from '../../src/commerce/products/product.entity';
import { RefundReconciliation } from '../../src/commerce/refunds/refund-reconciliation.service';
import { Refund } from '../../src/commerce/refunds/refund.entity';
import { OrderReturn, OrderReturnHistory } from '../../src/commerce/returns/return.entity';
import { SettingsService } from '../../src/config/settings.service';
import { Job } from '../../src/jobs/job.entity';
import { productBySku } from '../support/catalog';
import { addToCart, fillCheckout, placeOrder, shippingValue } from '../support/checkout';
import { registerCustomer } from '../support/customers';
import { BANK_CONTROL, chooseAtBank, comeBackFromBank } from '../support/sandbox-bank';
import { ShopClient } from '../support/shop-client';
import { CapturedMail, contentTypeOf, mailHtml, mailText, startSmtpCapture } from '../support/smtp-capture';
import { eventually, jobsSettled, startTestApp, TestApp, usingMysql } from '../support/test-app';

const DAY_MS = 86_400_000;

/**
 * Returns (docs/shop.md, _Returns_), driven over HTTP as customers, guests and staff do it: a request from the
 * account's order page, approval, receipt and the refund made from the return (money through the sandbox bank,
 * stock back once, mails in the customer's language); the window, over-returns (also asked at once), a guest's
 * request through the order link, and a refusal.
 */
describe(`returns (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
  let staff: ShopClient;
  let flatRate: string;
  let headlampId: number;

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    shop = await startTestApp({ listen: true, env: { SMTP_URL: smtp.url } });
    flatRate = await shippingValue(shop.dataSource, 'flat-rate');
    await shop.dataSource.getRepository(Product).update({ sku: 'DEMO-HEADLAMP' }, { stock: 500 });
    headlampId = (await productBySku(shop.dataSource, 'DEMO-HEADLAMP')).id;
    staff = new ShopClient(shop.server);
    await staff.loginCp();
  });
  afterAll(async () => {
    await shop.close();
    await smtp.close();
  });
  beforeEach(async () => {
    await request(shop.server).post(`${BANK_CONTROL}/reset`).expect(200);
  });

  const stock = async () => (await productBySku(shop.dataSource, 'DEMO-HEADLAMP')).stock;
  const reload = (id: number) => shop.dataSource.getRepository(OrderReturn).findOneByOrFail({ id });
  const lineOf = async (orderId: number) => (await shop.dataSource.getRepository(OrderLine).findBy({ orderId }))[0];
  // The refund's own mail ("Vrátenie peňazí …", "A refund for …") is not a return mail.
  const returnMails = (to: string) =>
    smtp.messages.filter(
      (mail) =>
        mail.to.includes(to) && /return|vráten/i.test(decodedSubject(mail)) && !/peňazí/.test(decodedSubject(mail)),
    );

  /** `qty` headlamps ordered on `client` (a guest, or a logged-in customer), paid by card, shipped and delivered. */
  async function deliveredOrder(client: ShopClient, qty: number, email = 'ada@example.com'): Promise<Order> {
    await addToCart(client, headlampId, qty);
    await fillCheckout(client, { email, shippingMethod: flatRate, paymentMethod: 'bankpay' });
    const placed = await placeOrder(client);
    expect(placed.status).toBe(200);
    await comeBackFromBank(client, await chooseAtBank(shop, placed.body.redirect, 'card-ok'));
    const order = await shop.dataSource.getRepository(Order).findOneByOrFail({ number: placed.body.orderNumber });
    for (const status of ['shipped', 'completed'])
      expect((await staff.submitForm(`/admin/orders/${order.id}/status`, { status })).status).toBe(303);
    return shop.dataSource.getRepository(Order).findOneByOrFail({ id: order.id });
  }

  /** A return request as the account page's script posts it. */
  const askInAccount = (client: ShopClient, order: Order, qty: Record<number, number>, reason = 'Too small') =>
    client.post('/shop/account/returns', { number: order.number, qty: quantities(qty), reason });
  const askAsGuest = (client: ShopClient, order: Order, qty: Record<number, number>, reason = 'Too small') =>
    client.post('/shop/order/returns', { number: order.number, qty: quantities(qty), reason });

  /** Staff's move as a script posts it. */
  async function staffPost(path: string, body: object = {}) {
    return staff.agent
      .post(`/admin/returns/${path}`)
      .set('X-CSRF-Token', await staff.csrfToken())
      .send(body);
  }

  it('takes a return from the request to the refund: money and stock back once, statuses, history, mails', async () => {
    const customer = new ShopClient(shop.server);
    const email = await registerCustomer(customer);
    const order = await deliveredOrder(customer, 2, email);
    // Ordered in English, the return asked for in Slovak: its e-mails follow the return.
    expect(order.language).toBe('en');
    expect((await customer.submitForm('/shop/language/set', { language: 'sk' })).status).toBe(303);
    const line = await lineOf(order.id);
    const page = `/shop/account/my-order?number=${order.number}`;
    const before = await customer.get(page).set('Accept', 'text/html').expect(200);
    expect(before.text).toContain(`name="qty[line${line.id}]" min="0" max="2"`);
    expect(before.text).toContain('Požiadať o vrátenie');

    const asked = await askInAccount(customer, order, { [line.id]: 1 }, 'Príliš malé');
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({
      success: true,
      status: 'requested',
      message: expect.stringContaining('Return'),
    });
    const returnId = asked.body.returnId as number;
    const after = await customer.get(page).set('Accept', 'text/html').expect(200);
    expect(after.text).toContain(`Vrátenie ${returnId}`);
    expect(after.text).toContain(`name="qty[line${line.id}]" min="0" max="1"`);

    // Staff find it in the list and on the order page.
    expect((await staff.get('/admin/returns?status=requested').expect(200)).text).toContain(`Return ${returnId}`);
    expect((await staff.get(`/admin/orders/${order.id}`).expect(200)).text).toContain(`/admin/returns/${returnId}`);

    // Not received yet: nothing to refund.
    const early = await staffPost(`${returnId}/refund`, { reason: 'Too early' });
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe('illegal_transition');

    const approved = await staffPost(`${returnId}/approve`, { message: 'Send it to Main Street 1.' });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ success: true, status: 'approved' });
    const received = await staffPost(`${returnId}/receive`);
    expect(received.body).toMatchObject({ success: true, status: 'received' });

    // One click from the return page: the refund form with the returned line, restocking ticked.
    const form = await staff.get(`/admin/returns/${returnId}`).expect(200);
    expect(form.text).toContain(`name="qty[line${line.id}]" min="0" max="1" value="1"`);
    expect(form.text).toContain('type="radio" name="restock" value="on" checked');
    const fields = { [`qty[line${line.id}]`]: '1', restock: 'on', reason: `Return ${returnId}: Príliš malé` };
    const stockBefore = await stock();

    // The bank refuses: nothing is refunded, the return stays received and can be refunded again.
    await request(shop.server).post(`${BANK_CONTROL}/settings`).send({ refuseRefunds: true }).expect(200);
    const failed = await staffPost(`${returnId}/refund`, { reason: 'First try' });
    expect(failed.status).toBe(502);
    expect(failed.body.error.code).toBe('refund_failed');
    expect(await reload(returnId)).toMatchObject({ status: 'received', refundId: null });
    await request(shop.server).post(`${BANK_CONTROL}/settings`).send({ refuseRefunds: false }).expect(200);

    // The form posted by a browser and, at the same moment, by another staff member's script with a key of its own:
    // one refund.
    const colleague = new ShopClient(shop.server);
    await colleague.loginCp();
    const colleagueToken = await colleague.csrfToken();
    const [refunded, scripted] = await Promise.all([
      staff.submitForm(`/admin/returns/${returnId}/refund`, fields),
      colleague.agent
        .post(`/admin/returns/${returnId}/refund`)
        .set('X-CSRF-Token', colleagueToken)
        .set('Idempotency-Key', 'script-key')
        .send({ reason: 'Script' }),
    ]);
    expect(refunded.status).toBe(303);
    expect(refunded.headers.location).toBe(`/admin/returns/${returnId}`);
    expect(scripted.status).toBe(200);
    // Posted again later: the refund it made, nothing more.
    const again = await staffPost(`${returnId}/refund`, { reason: 'Again' });
    expect(again.status).toBe(200);
    expect(again.body.refund).toMatchObject({ replayed: true, amount: 39, restocked: true });

    const refunds = await shop.dataSource.getRepository(Refund).findBy({ orderId: order.id, status: 'succeeded' });
    expect(refunds).toMatchObject([{ method: 'gateway', amount: 3900, restock: true }]);
    const bank = await request(shop.server).get(`${BANK_CONTROL}/payments/${await paymentReference(order.id)}`);
    expect(bank.body.refunds).toMatchObject([{ amountValue: 39 }]);
    expect(await stock()).toBe(stockBefore + 1);
    expect(await reload(returnId)).toMatchObject({ status: 'refunded', refundId: refunds[0].id });
    // Half the order is still paid for: it stays completed.
    expect(await shop.dataSource.getRepository(Order).findOneByOrFail({ id: order.id })).toMatchObject({
      status: 'completed',
    });

    const history = await shop.dataSource
      .getRepository(OrderReturnHistory)
      .find({ where: { returnId }, order: { id: 'ASC' } });
    expect(history.map(({ fromStatus, toStatus, actor }) => [fromStatus, toStatus, actor])).toEqual([
      [null, 'requested', expect.stringMatching(/^customer:\d+$/)],
      ['requested', 'approved', 'cp:admin@example.com'],
      ['approved', 'received', 'cp:admin@example.com'],
      ['received', 'refunded', 'cp:admin@example.com'],
    ]);
    expect(history.every((entry) => entry.dateCreated instanceof Date)).toBe(true);
    const shown = await staff.get(`/admin/returns/${returnId}`).expect(200);
    expect(shown.text).toContain('received → refunded');
    expect(shown.text).not.toContain('class="refund-form"');

    // Told twice, in the language the customer asked in, as HTML with a text part like every order mail: the
    // returned items, the order's items and addresses, the seller. The refund itself is not a return mail.
    await jobsSettled(shop);
    const mails = await eventually(() => (returnMails(email).length >= 2 ? returnMails(email) : null));
    expect(mails.map(decodedSubject).sort()).toEqual([
      expect.stringMatching(new RegExp(`^Prijali sme vrátený tovar z objednávky ${order.reference} v `)),
      expect.stringMatching(new RegExp(`^Vrátenie tovaru z objednávky ${order.reference} v .* je schválené$`)),
    ]);
    const texts = mails.map(mailText);
    const approvedText = texts.find((text) => text.includes('Send it to Main Street 1.'));
    expect(approvedText).toContain('Schválili sme vrátenie');
    expect(approvedText).toContain('Naša správa:\nSend it to Main Street 1.');
    expect(texts.every((text) => text.includes(`/shop/order/view/${order.number}`))).toBe(true);
    const receivedMail = mails.find((mail) => decodedSubject(mail).startsWith('Prijali sme'))!;
    expect(contentTypeOf(receivedMail)).toMatch(/^multipart\/alternative;/);
    const receivedText = mailText(receivedMail);
    expect(receivedText).toContain('dorazil');
    expect(receivedText).not.toContain('Send it to Main Street 1.');
    expect(receivedText).toContain(`Vrátenie ${returnId}:\n1 × ${line.name}`);
    expect(receivedText).toContain(`2 × ${line.name} (${line.sku})`);
    expect(receivedText).toContain(`Fakturačná adresa:\n${order.billingAddress.firstName}`);
    expect(receivedText).toContain('Dodacia adresa:');
    expect(receivedText).toMatch(/^E-mail: \S+@\S+$/m);
    const receivedHtml = mailHtml(receivedMail);
    expect(receivedHtml).toContain('<html lang="sk">');
    expect(receivedHtml).toContain(`<li>1 × ${line.name}</li>`);
    expect(receivedHtml).toContain('Máte otázky? Napíšte nám alebo zavolajte');
    expect(returnMails(email)).toHaveLength(2);

    // The other unit can still be returned; the refunded one never again.
    const more = await askInAccount(customer, order, { [line.id]: 2 });
    expect(more.status).toBe(409);
    // A script gets the API's English; the customer's page says it in their language.
    expect(more.body.error).toEqual({
      code: 'return_line_exceeds_quantity',
      message: `"${line.name}": 2 asked, but only 1 can still be returned.`,
    });
    const asForm = await customer.submitForm('/shop/account/returns', {
      number: order.number,
      [`qty[line${line.id}]`]: '2',
      reason: 'Príliš malé',
    });
    expect(asForm.status).toBe(303);
    const told = await customer.get(page).set('Accept', 'text/html').expect(200);
    expect(told.text).toContain(`„${line.name}“: požadovaných 2, vrátiť sa však dá už len 1.`);
    expect((await askInAccount(customer, order, { [line.id]: 1 })).status).toBe(200);
  });

  it('refuses requests for orders not delivered, and outside the window', async () => {
    const customer = new ShopClient(shop.server);
    const email = await registerCustomer(customer);
    await addToCart(customer, headlampId, 1);
    await fillCheckout(customer, { email, shippingMethod: flatRate, paymentMethod: 'bankpay' });
    const placed = await placeOrder(customer);
    await comeBackFromBank(customer, await chooseAtBank(shop, placed.body.redirect, 'card-ok'));
    const paid = await shop.dataSource.getRepository(Order).findOneByOrFail({ number: placed.body.orderNumber });
    const line = await lineOf(paid.id);
    const notDelivered = await askInAccount(customer, paid, { [line.id]: 1 });
    expect(notDelivered.status).toBe(409);
    expect(notDelivered.body.error.code).toBe('return_not_delivered');

    for (const status of ['shipped', 'completed'])
      expect((await staff.submitForm(`/admin/orders/${paid.id}/status`, { status })).status).toBe(303);
    // Delivered 15 days ago: one day past the default window of 14.
    const delivered = await shop.dataSource
      .getRepository(OrderHistory)
      .findOneByOrFail({ orderId: paid.id, toStatus: 'completed' });
    await shop.dataSource
      .getRepository(OrderHistory)
      .update({ id: delivered.id }, { dateCreated: new Date(Date.now() - 15 * DAY_MS) });
    const late = await askInAccount(customer, paid, { [line.id]: 1 });
    expect(late.status).toBe(409);
    expect(late.body.error).toEqual({
      code: 'return_window_closed',
      message: 'Returns are accepted within 14 days of delivery; that time has passed.',
    });
    const page = await customer.get(`/shop/account/my-order?number=${paid.number}`).expect(200);
    expect(page.text).toContain('The time to return items of this order has passed.');
    expect(page.text).not.toContain('class="return-form"');

    // A longer window set by the shop lets the same request in.
    const settings = shop.app.get(SettingsService);
    await settings.save({ salesReturnWindowDays: 30 });
    try {
      expect((await askInAccount(customer, paid, { [line.id]: 1 })).status).toBe(200);
    } finally {
      await settings.save({ salesReturnWindowDays: 14 });
    }
    expect(await shop.dataSource.getRepository(OrderReturn).countBy({ orderId: paid.id })).toBe(1);
  });

  it('refuses more than was ordered less what returns and refunds took; a refusal frees the units and says why', async () => {
    const customer = new ShopClient(shop.server);
    const email = await registerCustomer(customer);
    const order = await deliveredOrder(customer, 2, email);
    const line = await lineOf(order.id);

    const tooMany = await askInAccount(customer, order, { [line.id]: 3 });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.error).toEqual({
      code: 'return_line_exceeds_quantity',
      message: `"${line.name}": 3 asked, but only 2 can still be returned.`,
    });
    const nothing = await askInAccount(customer, order, {});
    expect(nothing.status).toBe(400);
    expect(nothing.body.error.code).toBe('return_empty');
    const noReason = await customer.post('/shop/account/returns', {
      number: order.number,
      qty: quantities({ [line.id]: 1 }),
    });
    expect(noReason.status).toBe(400);
    const strangeLine = await askInAccount(customer, order, { [line.id + 100_000]: 1 });
    expect(strangeLine.status).toBe(400);

    const both = await askInAccount(customer, order, { [line.id]: 2 });
    expect(both.status).toBe(200);
    const third = await askInAccount(customer, order, { [line.id]: 1 });
    expect(third.status).toBe(409);
    expect(third.body.error.code).toBe('return_line_exceeds_quantity');

    const silent = await staffPost(`${both.body.returnId}/refuse`, { message: '' });
    expect(silent.status).toBe(400);
    const refused = await staffPost(`${both.body.returnId}/refuse`, {
      message: 'Worn and without its box.',
      confirm: 'yes',
    });
    expect(refused.status).toBe(200);
    expect(await reload(both.body.returnId)).toMatchObject({
      status: 'refused',
      staffMessage: 'Worn and without its box.',
    });
    const approveRefused = await staffPost(`${both.body.returnId}/approve`);
    expect(approveRefused.status).toBe(409);
    expect(approveRefused.body.error.code).toBe('illegal_transition');
    const mail = await eventually(() =>
      returnMails(email).find((candidate: CapturedMail) => decodedSubject(candidate).includes('was refused')),
    );
    expect(decodedSubject(mail)).toContain(`Your return for order ${order.reference}`);
    expect(mailText(mail)).toContain('Worn and without its box.');

    // A unit refunded by staff outside any return is no longer returnable.
    const refund = await staff.agent
      .post(`/admin/orders/${order.id}/refunds`)
      .set('X-CSRF-Token', await staff.csrfToken())
      .send({ lines: `${line.id}:1`, reason: 'Goodwill' });
    expect(refund.status).toBe(200);
    expect((await askInAccount(customer, order, { [line.id]: 2 })).status).toBe(409);
    expect((await askInAccount(customer, order, { [line.id]: 1 })).status).toBe(200);

    // Another customer's order is not found through this account.
    const stranger = new ShopClient(shop.server);
    await registerCustomer(stranger);
    expect((await askInAccount(stranger, order, { [line.id]: 1 })).status).toBe(404);
  });

  it('takes a guest request through the order link, and mails no approval while that mail is off', async () => {
    const guest = new ShopClient(shop.server);
    const email = `guest${Date.now()}@example.com`;
    const order = await deliveredOrder(guest, 1, email);
    const line = await lineOf(order.id);
    const view = await guest.get(`/shop/order/view/${order.number}`).set('Accept', 'text/html').expect(200);
    expect(view.text).toContain('action="/shop/order/returns"');
    expect(view.text).toMatch(/name="_csrf" value="[^"]+"/);

    const posted = await guest.submitForm('/shop/order/returns', {
      number: order.number,
      [`qty[line${line.id}]`]: '1',
      reason: 'Wrong colour',
    });
    expect(posted.status).toBe(303);
    expect(posted.headers.location).toBe(`/shop/order/view/${order.number}`);
    const [ret] = await shop.dataSource.getRepository(OrderReturn).findBy({ orderId: order.id });
    expect(ret).toMatchObject({ status: 'requested', reason: 'Wrong colour', language: 'en' });
    const shown = await guest.get(`/shop/order/view/${order.number}`).set('Accept', 'text/html').expect(200);
    expect(shown.text).toContain(`Return ${ret.id}`);
    expect(shown.text).toContain('Requested');
    expect(shown.text).not.toContain('class="return-form"');

    // Without the CSRF token, or with an unknown number: nothing.
    const forged = await request(shop.server)
      .post('/shop/order/returns')
      .send({ number: order.number, qty: quantities({ [line.id]: 1 }), reason: 'x' });
    expect(forged.status).toBe(403);
    const unknown = await askAsGuest(new ShopClient(shop.server), { number: 'f'.repeat(32) } as Order, {
      [line.id]: 1,
    });
    expect(unknown.status).toBe(404);

    const settings = shop.app.get(SettingsService);
    await settings.save({ salesReturnApprovedMail: false });
    try {
      expect((await staffPost(`${ret.id}/approve`)).status).toBe(200);
    } finally {
      await settings.save({ salesReturnApprovedMail: true });
    }
    const jobs = shop.dataSource.getRepository(Job);
    expect(await jobs.countBy({ jobKey: orderMailKey('return-approved', order.id, ret.id) })).toBe(0);
    expect(await reload(ret.id)).toMatchObject({ status: 'approved' });
    // The receipt's own mail is still on: that one goes out, as an order mail job naming the return only.
    expect((await staffPost(`${ret.id}/receive`)).status).toBe(200);
    await jobsSettled(shop);
    expect(await jobs.findOneByOrFail({ jobKey: orderMailKey('return-received', order.id, ret.id) })).toMatchObject({
      name: 'order.mail',
      status: 'done',
      payload: { kind: 'return-received', orderId: order.id, details: { returnId: ret.id } },
    });
    expect(returnMails(email).map(decodedSubject)).toEqual([
      `We received your return for order ${order.reference} at Demo Outdoor & Coffee`,
    ]);
  });

  it('marks a return refunded when its refund, left pending by a silent bank, is confirmed later', async () => {
    const order = await deliveredOrder(new ShopClient(shop.server), 1);
    const line = await lineOf(order.id);
    const asked = await askAsGuest(new ShopClient(shop.server), order, { [line.id]: 1 });
    const returnId = asked.body.returnId as number;
    expect((await staffPost(`${returnId}/approve`)).status).toBe(200);
    expect((await staffPost(`${returnId}/receive`)).status).toBe(200);

    const paths = [`/v1/payments/${await paymentReference(order.id)}/refunds`];
    await request(shop.server).post(`${BANK_CONTROL}/mode`).send({ mode: 'timeout', paths }).expect(200);
    const slow = await staffPost(`${returnId}/refund`, { reason: 'Returned' });
    await request(shop.server).post(`${BANK_CONTROL}/mode`).send({ mode: 'normal' }).expect(200);
    expect(slow.status).toBe(200);
    expect(slow.body.refund).toMatchObject({ status: 'pending' });
    expect(await reload(returnId)).toMatchObject({ status: 'received', refundId: null });

    expect(await shop.app.get(RefundReconciliation).reconcileDue(Date.now() + 24 * 60 * 60 * 1000)).toBe(1);
    const refund = await shop.dataSource.getRepository(Refund).findOneByOrFail({ orderId: order.id });
    expect(refund.status).toBe('succeeded');
    await eventually(async () => (await reload(returnId)).status === 'refunded');
    expect(await reload(returnId)).toMatchObject({ status: 'refunded', refundId: refund.id });
  });

  it('lets exactly one of four requests for the same unit made at once hold it', async () => {
    const order = await deliveredOrder(new ShopClient(shop.server), 1);
    const line = await lineOf(order.id);
    const guests = [1, 2, 3, 4].map(() => new ShopClient(shop.server));
    await Promise.all(guests.map((guest) => guest.csrfToken()));
    const answers = await Promise.all(guests.map((guest) => askAsGuest(guest, order, { [line.id]: 1 })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409]);
    for (const loser of answers.filter((answer) => answer.status === 409))
      expect(loser.body.error.code).toBe('return_line_exceeds_quantity');
    expect(await shop.dataSource.getRepository(OrderReturn).countBy({ orderId: order.id })).toBe(1);
  });

  async function paymentReference(orderId: number): Promise<string> {
    const [attempt] = await shop.dataSource.getRepository(PaymentTransaction).findBy({ orderId });
    return attempt.reference;
  }
});

/** `{ lineId: qty }` as the form's `qty[line<ID>]` fields. */
function quantities(qty: Record<number, number>): Record<string, string> {
  return Object.fromEntries(Object.entries(qty).map(([id, count]) => [`line${id}`, String(count)]));
}

/** The subject as a reader sees it: folded lines joined, MIME encoded-words (UTF-8, Q or B) decoded. */
function decodedSubject(mail: CapturedMail): string {
  const folded = /^Subject: (.*(?:\r\n[ \t].*)*)/m.exec(mail.raw)?.[1] ?? '';
  return folded
    .replace(/\r\n[ \t]/g, ' ')
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_word, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_hex, hex: string) => String.fromCharCode(parseInt(hex, 16))),
            'latin1',
          ).toString('utf8'),
    );
}
