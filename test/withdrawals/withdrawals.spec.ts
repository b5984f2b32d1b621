import request from 'supertest';
import { daysBetween, shopDateTime, shopNow } from '../../src/commerce/delivery/shop-calendar';
import { OrderHistory } from '../../src/commerce/orders/order-history.entity';
import { OrderLine } from '../../src/commerce/orders/order-line.entity';
import { Order } from '../../src/commerce/orders/order.entity';
import { Product } from '../../src/commerce/products/product.entity';
import { Refund } from '../../src/commerce/refunds/refund.entity';
import { OrderReturn, OrderReturnLine } from '../../src/commerce/returns/return.entity';
import { Withdrawal, WithdrawalLine } from '../../src/commerce/withdrawals/withdrawal.entity';
import { Job } from '../../src/jobs/job.entity';
import { GUEST_ORDER_LIMIT } from '../../src/shop/checkout/guest-order.controller';
import { productBySku } from '../support/catalog';
import { addToCart, fillCheckout, placeOrder, shippingValue } from '../support/checkout';
import { BANK_CONTROL, chooseAtBank, comeBackFromBank } from '../support/sandbox-bank';
import { ShopClient } from '../support/shop-client';
import { CapturedMail, mailHtml, mailText, startSmtpCapture, subjectOf } from '../support/smtp-capture';
import { eventually, jobsSettled, startTestApp, TestApp, usingMysql } from '../support/test-app';
import { shownIn } from '../support/shown-time';

const DAY_MS = 86_400_000;
const ZONE = 'Europe/Bratislava';

/**
 * The period's last moment for a delivery at `deliveredAt`: the last minute of the shop's day 14 days after the
 * day of delivery (checked to be that, and not delivery plus 14 × 24 hours).
 */
function periodEnd(deliveredAt: number): { deadline: number; lastDay: string } {
  const deliveryDay = shopNow(ZONE, deliveredAt).date;
  // Minute by minute from 13 days after delivery: the first last minute of a shop day 14 days on.
  let deadline = Math.floor(deliveredAt / 60_000) * 60_000 + 13 * DAY_MS;
  while (!(
    shopDateTime(ZONE, deadline).endsWith('T23:59') && daysBetween(deliveryDay, shopNow(ZONE, deadline).date) === 14
  ))
    deadline += 60_000;
  return { deadline: deadline + 59_999, lastDay: shopNow(ZONE, deadline).date };
}

/**
 * The withdrawal function (docs/shop.md, _Withdrawal_), driven over HTTP as a guest and staff use it: the two steps
 * from the order's link, the receipt page and mail with the time of receipt, the CP's list and page with the
 * period's end, the one step to an approved return refunded as any; the footer's lookup that answers a wrong number
 * and a wrong e-mail alike, repeated and simultaneous confirmations, late withdrawals, and the rate limit.
 */
describe(`withdrawals (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
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
    await request(shop.server).post(`${BANK_CONTROL}/reset`).expect(200);
  });
  afterAll(async () => {
    await shop.close();
    await smtp.close();
  });

  const withdrawalMails = (to: string) =>
    smtp.messages.filter((mail) => mail.to.includes(to) && /withdrawal|odstúpenie/i.test(subjectOf(mail)));
  const lineOf = async (orderId: number) => (await shop.dataSource.getRepository(OrderLine).findBy({ orderId }))[0];

  /**
   * `qty` headlamps ordered by a guest (in `language`), paid by card; shipped and delivered unless `delivered` is
   * false.
   */
  async function guestOrder(qty: number, email: string, delivered = true, language = 'en'): Promise<Order> {
    const guest = new ShopClient(shop.server);
    if (language !== 'en') expect((await guest.submitForm('/shop/language/set', { language })).status).toBe(303);
    await addToCart(guest, headlampId, qty);
    await fillCheckout(guest, { email, shippingMethod: flatRate, paymentMethod: 'bankpay' });
    const placed = await placeOrder(guest);
    expect(placed.status).toBe(200);
    await comeBackFromBank(guest, await chooseAtBank(shop, placed.body.redirect, 'card-ok'));
    const order = await shop.dataSource.getRepository(Order).findOneByOrFail({ number: placed.body.orderNumber });
    if (delivered)
      for (const status of ['shipped', 'completed'])
        expect((await staff.submitForm(`/admin/orders/${order.id}/status`, { status })).status).toBe(303);
    return shop.dataSource.getRepository(Order).findOneByOrFail({ id: order.id });
  }

  const html = (client: ShopClient, path: string) => client.get(path).set('Accept', 'text/html');

  it('takes a withdrawal in two steps from the order link, mails its time of receipt, and staff make one return of it', async () => {
    const email = `ada${Date.now()}@example.com`;
    const order = await guestOrder(2, email);
    const line = await lineOf(order.id);
    const delivered = await shop.dataSource
      .getRepository(OrderHistory)
      .findOneByOrFail({ orderId: order.id, toStatus: 'completed' });
    const { deadline, lastDay } = periodEnd(delivered.dateCreated.getTime());
    const guest = new ShopClient(shop.server);
    const base = `/shop/order/withdraw/${order.number}`;

    const view = await html(guest, `/shop/order/view/${order.number}`).expect(200);
    expect(view.text).toContain(`<a href="${base}">Withdraw from contract</a>`);

    // Step 1: every unit chosen; the period's end shown.
    const step1 = await html(guest, base).expect(200);
    expect(step1.headers['cache-control']).toBe('private, no-store');
    expect(step1.text).toContain('Step 1 of 2');
    expect(step1.text).toContain(`name="qty[line${line.id}]" min="0" max="2" value="2"`);
    expect(step1.text).toContain(`The withdrawal period ends on ${lastDay}.`);
    expect(step1.text).toContain(`action="${base}/confirm"`);

    // Step 2: the GET form's choice, to confirm; nothing chosen goes back to step 1.
    const none = await html(guest, `${base}/confirm?${encodeURIComponent(`qty[line${line.id}]`)}=0`);
    expect(none.status).toBe(303);
    expect(none.headers.location).toBe(base);
    const step2 = await html(guest, `${base}/confirm?${encodeURIComponent(`qty[line${line.id}]`)}=2`).expect(200);
    expect(step2.text).toContain('Step 2 of 2');
    expect(step2.text).toContain(`2 × ${line.name}`);
    expect(step2.text).toContain(`<input type="hidden" name="qty[line${line.id}]" value="2">`);
    expect(step2.text).toMatch(/name="_csrf" value="[^"]+"/);
    expect(step2.text).toContain('Confirm withdrawal');

    const confirmed = await guest.submitForm(base, { [`qty[line${line.id}]`]: '2' });
    expect(confirmed.status).toBe(303);
    const [withdrawal] = await shop.dataSource.getRepository(Withdrawal).findBy({ orderId: order.id });
    expect(withdrawal).toMatchObject({ late: false, deadline, returnId: null, language: 'en' });
    expect(await shop.dataSource.getRepository(WithdrawalLine).findBy({ withdrawalId: withdrawal.id })).toMatchObject([
      { orderLineId: line.id, qty: 2 },
    ]);
    const receiptUrl = `${base}/received/${withdrawal.id}`;
    expect(confirmed.headers.location).toBe(receiptUrl);
    const receivedAt = withdrawal.dateCreated.toISOString().replace('T', ' ').slice(0, 19);
    const receipt = await html(guest, receiptUrl).expect(200);
    expect(receipt.text).toContain(
      `We received your withdrawal from order ${order.reference} on ${receivedAt} (UTC) for:`,
    );
    expect(receipt.text).toContain(`2 × ${line.name}`);
    expect(receipt.text).toContain(`A confirmation has been sent to ${email}.`);

    // The receipt by e-mail, HTML and text, with the time of receipt to the second.
    const mail = await eventually(() => withdrawalMails(email)[0]);
    expect(subjectOf(mail)).toMatch(new RegExp(`^We received your withdrawal from order ${order.reference} at `));
    for (const body of [mailText(mail), mailHtml(mail)]) {
      expect(body).toContain(`on ${receivedAt} UTC.`);
      expect(body).toContain(`2 × ${line.name}`);
      expect(body).toContain(`The withdrawal period ends on ${lastDay}.`);
    }

    // Confirmed again (a second click, a script): the same withdrawal, nothing recorded or mailed twice.
    const again = await guest.submitForm(base, { [`qty[line${line.id}]`]: '2' });
    expect(again.headers.location).toBe(receiptUrl);
    const scripted = await guest.post(base, { qty: { [`line${line.id}`]: '2' } });
    expect(scripted.status).toBe(200);
    expect(scripted.body).toMatchObject({ success: true, withdrawalId: withdrawal.id, repeated: true, late: false });
    expect(await shop.dataSource.getRepository(Withdrawal).countBy({ orderId: order.id })).toBe(1);
    await jobsSettled(shop);
    expect(withdrawalMails(email)).toHaveLength(1);
    const step1After = await html(guest, base).expect(200);
    expect(step1After.text).toContain('There is nothing left in this order to withdraw from.');
    expect(step1After.text).toContain(`href="${receiptUrl}"`);

    // Staff: the list and the page, with the period's end.
    const list = await staff.get('/admin/withdrawals').expect(200);
    expect(list.text).toContain(`Withdrawal ${withdrawal.id}</a>`);
    expect(list.text).toContain(shownIn(deadline));
    expect((await staff.get(`/admin/orders/${order.id}`).expect(200)).text).toContain(
      `<a href="/admin/withdrawals/${withdrawal.id}">Withdrawal ${withdrawal.id}</a>`,
    );
    const page = await staff.get(`/admin/withdrawals/${withdrawal.id}`).expect(200);
    expect(page.text).toContain(
      `Period ends</dt><dd>end of ${lastDay} in shop time (${shownIn(deadline)} UTC) · on time`,
    );
    expect(page.text).toContain('class="withdrawal-return"');

    // One step: an approved return of the withdrawn lines; asked again, the same return.
    const made = await staff.submitForm(`/admin/withdrawals/${withdrawal.id}/return`, {
      message: 'Send it to Main Street 1.',
    });
    expect(made.status).toBe(303);
    const [ret] = await shop.dataSource.getRepository(OrderReturn).findBy({ orderId: order.id });
    expect(made.headers.location).toBe(`/admin/returns/${ret.id}`);
    expect(ret).toMatchObject({ status: 'approved', reason: `Withdrawal ${withdrawal.id}` });
    expect(await shop.dataSource.getRepository(OrderReturnLine).findBy({ returnId: ret.id })).toMatchObject([
      { orderLineId: line.id, qty: 2 },
    ]);
    const twice = await staff.agent
      .post(`/admin/withdrawals/${withdrawal.id}/return`)
      .set('X-CSRF-Token', await staff.csrfToken())
      .send({});
    expect(twice.body).toMatchObject({ success: true, returnId: ret.id });
    expect(await shop.dataSource.getRepository(OrderReturn).countBy({ orderId: order.id })).toBe(1);
    expect((await staff.get(`/admin/withdrawals/${withdrawal.id}`).expect(200)).text).not.toContain(
      'class="withdrawal-return"',
    );

    // Without the CSRF token, staff's write is refused.
    const forged = await staff.agent.post(`/admin/withdrawals/${withdrawal.id}/return`).send({});
    expect(forged.status).toBe(403);

    // From there, as any return: received, then refunded.
    const post = async (path: string, body: object = {}) =>
      staff.agent
        .post(`/admin/returns/${ret.id}/${path}`)
        .set('X-CSRF-Token', await staff.csrfToken())
        .send(body);
    expect((await post('receive')).status).toBe(200);
    const refunded = await post('refund', { reason: `Withdrawal ${withdrawal.id}` });
    expect(refunded.status).toBe(200);
    expect(await shop.dataSource.getRepository(Refund).findBy({ orderId: order.id })).toMatchObject([
      { status: 'succeeded', amount: 2 * line.price },
    ]);
    expect(await shop.dataSource.getRepository(OrderReturn).findOneByOrFail({ id: ret.id })).toMatchObject({
      status: 'refunded',
    });
  });

  it('finds the order from the footer by its reference and e-mail, and answers a wrong number or e-mail alike', async () => {
    const email = `bob${Date.now()}@example.com`;
    const order = await guestOrder(1, email);
    const guest = new ShopClient(shop.server);

    const home = await html(guest, '/').expect(200);
    expect(home.text).toContain('<a class="footer-withdrawal" href="/shop/withdrawal">Withdraw from contract</a>');
    const form = await html(guest, '/shop/withdrawal').expect(200);
    expect(form.text).toContain('within 14 days of delivery');
    expect(form.text).toContain('action="/shop/withdrawal"');

    const found = await guest.submitForm('/shop/withdrawal', {
      order: order.reference.toLowerCase(),
      email: email.toUpperCase(),
    });
    expect(found.status).toBe(303);
    expect(found.headers.location).toBe(`/shop/order/withdraw/${order.number}`);
    const byNumber = await guest.submitForm('/shop/withdrawal', { order: order.number, email });
    expect(byNumber.headers.location).toBe(`/shop/order/withdraw/${order.number}`);

    const wrongEmail = await guest.post('/shop/withdrawal', { order: order.reference, email: 'eve@example.com' });
    const wrongNumber = await guest.post('/shop/withdrawal', { order: 'ZZZZZZZZ', email });
    expect(wrongEmail.status).toBe(404);
    expect(wrongNumber.status).toBe(404);
    expect(wrongEmail.body).toEqual(wrongNumber.body);
    expect(wrongEmail.body.error.message).toBe('We found no order with this number and e-mail address.');

    // A browser goes back to the form, told the same.
    const refused = await guest.submitForm('/shop/withdrawal', { order: order.reference, email: 'eve@example.com' });
    expect(refused.status).toBe(303);
    expect(refused.headers.location).toBe('/shop/withdrawal');
    expect((await html(guest, '/shop/withdrawal').expect(200)).text).toContain(
      'We found no order with this number and e-mail address.',
    );
    // Nor does an unknown number in the order's link tell anything more.
    const unknown = await request(shop.server).get(`/shop/order/withdraw/${'f'.repeat(32)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe('We found no order with this number and e-mail address.');

    const forged = await request(shop.server).post('/shop/withdrawal').send({ order: order.reference, email });
    expect(forged.status).toBe(403);
  });

  it('has no deadline before delivery, ends the period at the end of the shop day, records a late withdrawal as late (mailed in Slovak), and refuses what is not left', async () => {
    const email = `cy${Date.now()}@example.com`;
    const order = await guestOrder(4, email, false, 'sk');
    const line = await lineOf(order.id);
    const guest = new ShopClient(shop.server);
    const base = `/shop/order/withdraw/${order.number}`;
    const withdrawOne = async () => {
      const answer = await guest.post(base, { qty: { [`line${line.id}`]: '1' } });
      expect(answer.status).toBe(200);
      return answer.body;
    };

    const empty = await guest.post(base, { qty: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.error.code).toBe('withdrawal_empty');
    const tooMany = await guest.post(base, { qty: { [`line${line.id}`]: '5' } });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.error).toEqual({
      code: 'withdrawal_line_exceeds_quantity',
      message: `"${line.name}": 5 asked, but only 4 can still be withdrawn from.`,
    });
    const strange = await guest.post(base, { qty: { [`line${line.id + 100_000}`]: '1' } });
    expect(strange.status).toBe(400);

    // Not delivered, even twenty days after the order: the period has not begun, nothing is late.
    await shop.dataSource
      .getRepository(Order)
      .update({ id: order.id }, { dateCreated: new Date(Date.now() - 20 * DAY_MS) });
    const before = await html(guest, base).expect(200);
    expect(before.text).toContain('The withdrawal period of 14 days begins when the order is delivered');
    expect(before.text).not.toContain('The withdrawal period ended on');
    expect(await withdrawOne()).toMatchObject({ repeated: false, late: false, deadline: null });
    const notBegun = await eventually(() =>
      withdrawalMails(email).find((candidate: CapturedMail) => mailText(candidate).includes('ešte nezačala')),
    );
    expect(mailHtml(notBegun)).toContain('Lehota na odstúpenie ešte nezačala plynúť: začína doručením objednávky.');
    const early = (await shop.dataSource.getRepository(Withdrawal).findBy({ orderId: order.id }))[0];
    expect(early).toMatchObject({ deadline: null, late: false });
    expect((await staff.get(`/admin/withdrawals/${early.id}`).expect(200)).text).toContain(
      'Period ends</dt><dd>not begun: received before delivery · on time',
    );

    // Delivered 14 days and a minute ago: 14 × 24 hours have passed, but the last day runs to its end, shop time.
    for (const status of ['shipped', 'completed'])
      expect((await staff.submitForm(`/admin/orders/${order.id}/status`, { status })).status).toBe(303);
    const deliveredAt = Date.now() - 14 * DAY_MS - 60_000;
    const history = shop.dataSource.getRepository(OrderHistory);
    await history.update({ orderId: order.id, toStatus: 'completed' }, { dateCreated: new Date(deliveredAt) });
    const { deadline, lastDay } = periodEnd(deliveredAt);
    expect(lastDay).toBe(shopNow(ZONE).date);
    expect((await html(guest, base).expect(200)).text).toContain(`The withdrawal period ends on ${lastDay}.`);
    const onTime = await withdrawOne();
    expect(onTime).toMatchObject({ repeated: false, late: false });
    expect(new Date(onTime.deadline).getTime()).toBe(deadline);

    // Delivered twenty days ago: recorded, marked late; the mail says so.
    await history.update(
      { orderId: order.id, toStatus: 'completed' },
      { dateCreated: new Date(Date.now() - 20 * DAY_MS) },
    );
    const page = await html(guest, base).expect(200);
    expect(page.text).toContain('The withdrawal period ended on');
    expect(page.text).toContain(`max="2" value="2"`);
    const late = await withdrawOne();
    expect(late).toMatchObject({ repeated: false, late: true });
    // Mailed in the language the order was placed in.
    const mail = await eventually(() =>
      withdrawalMails(email).find((candidate: CapturedMail) => mailText(candidate).includes('po uplynutí')),
    );
    expect(subjectOf(mail)).toMatch(new RegExp(`^Prijali sme vaše odstúpenie od objednávky ${order.reference} v `));
    expect(mailText(mail)).toContain('Dostali sme ho po uplynutí lehoty na odstúpenie');
    const staffPage = await staff.get(`/admin/withdrawals/${late.withdrawalId}`).expect(200);
    expect(staffPage.text).toContain('received late');
    expect((await staff.get('/admin/withdrawals').expect(200)).text).toContain('status-late');
    expect(await shop.dataSource.getRepository(Withdrawal).countBy({ orderId: order.id })).toBe(3);
  });

  it('records one withdrawal when four confirmations of the same lines arrive at once', async () => {
    const email = `dee${Date.now()}@example.com`;
    const order = await guestOrder(1, email);
    const line = await lineOf(order.id);
    const guests = [1, 2, 3, 4].map(() => new ShopClient(shop.server));
    await Promise.all(guests.map((guest) => guest.csrfToken()));
    const answers = await Promise.all(
      guests.map((guest) => guest.post(`/shop/order/withdraw/${order.number}`, { qty: { [`line${line.id}`]: '1' } })),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(answers.filter((answer) => !answer.body.repeated)).toHaveLength(1);
    expect(new Set(answers.map((answer) => answer.body.withdrawalId)).size).toBe(1);
    expect(await shop.dataSource.getRepository(Withdrawal).countBy({ orderId: order.id })).toBe(1);
    await jobsSettled(shop);
    const jobs = await shop.dataSource.getRepository(Job).findBy({ name: 'order.mail' });
    expect(jobs.filter(({ payload }) => payload.kind === 'withdrawal' && payload.orderId === order.id)).toHaveLength(1);
  });

  it(`answers 429 after ${GUEST_ORDER_LIMIT} lookups a minute from one address`, async () => {
    const guest = new ShopClient(shop.server);
    const token = await guest.csrfToken();
    const lookup = () =>
      guest.agent
        .post('/shop/withdrawal')
        .set('X-CSRF-Token', token)
        .set('X-Forwarded-For', '203.0.113.9')
        .send({ order: 'ZZZZZZZZ', email: 'eve@example.com' });
    for (let i = 0; i < GUEST_ORDER_LIMIT; i++) expect((await lookup()).status).toBe(404);
    const refused = await lookup();
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('too_many_requests');
  });
});
