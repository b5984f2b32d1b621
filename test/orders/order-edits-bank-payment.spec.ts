import request from 'supertest';
import { OrderHistory } from '../../src/commerce/orders/order-history.entity';
import { OrderLine } from '../../src/commerce/orders/order-line.entity';
import { amountDue, Order } from '../../src/commerce/orders/order.entity';
import { PaymentTransaction } from '../../src/commerce/payments/payment-transaction.entity';
import { SettingsService } from '../../src/config/settings.service';
import { shippingValue } from '../support/checkout';
import { BANK_CONTROL, chooseAtBank, comeBackFromBank, placeBankOrder } from '../support/sandbox-bank';
import { ShopClient } from '../support/shop-client';
import { contentTypeOf, mailHtml, mailText, startSmtpCapture, subjectOf } from '../support/smtp-capture';
import { eventually, jobsSettled, startTestApp, TestApp, usingMysql } from '../support/test-app';

/**
 * Lines changed on an order whose bank payment is already open at the gateway: the bank holds the old amount, so
 * that payment is withdrawn there and the customer is mailed the order's pay link, which asks for the new amount.
 */
describe(`order edits with an open bank payment (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
  let admin: ShopClient;
  let flatRate: string;

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    shop = await startTestApp({ listen: true, env: { SMTP_URL: smtp.url } });
    flatRate = await shippingValue(shop.dataSource, 'flat-rate');
    admin = new ShopClient(shop.server);
    await admin.loginCp();
  });
  afterAll(async () => {
    await shop.close();
    await smtp.close();
  });

  const attempts = (orderId: number) =>
    shop.dataSource.getRepository(PaymentTransaction).find({ where: { orderId }, order: { id: 'ASC' } });

  it('withdraws the payment the bank holds and mails a link that pays the new amount', async () => {
    const { client, order } = await placeBankOrder(shop, flatRate, 'bankpay', 'DEMO-HEADLAMP', 1);
    const [first] = await attempts(order.id);
    expect(first).toMatchObject({ status: 'pending', amount: order.total });
    const [line] = await shop.dataSource.getRepository(OrderLine).findBy({ orderId: order.id });

    const edit = await admin.post(`/admin/orders/${order.id}/edit/lines`, { lines: [{ id: line.id, qty: 2 }] });
    expect(edit.status).toBe(200);
    const edited = await shop.dataSource.getRepository(Order).findOneByOrFail({ id: order.id });
    expect(edited.total).toBeGreaterThan(order.total);
    const history = await shop.dataSource.getRepository(OrderHistory).findBy({ orderId: order.id });
    expect(history.at(-1)!.note).toContain(
      `payment ${first.reference} withdrawn, new payment link sent to ${order.email}`,
    );

    // The old payment is withdrawn at the bank and fails; nothing else is open.
    await eventually(async () => (await attempts(order.id))[0].status === 'failed');
    const bank = await request(shop.server).get(`${BANK_CONTROL}/payments/${first.reference}`).expect(200);
    expect(bank.body.authorizationStatus).toBe('CANCELLED_BY_TPP');
    const mail = await eventually(() => smtp.messages.find((message) => subjectOf(message).includes(order.reference)));
    expect(subjectOf(mail)).toBe(
      `Please pay the new amount for your order ${order.reference} at Demo Outdoor & Coffee`,
    );
    expect(contentTypeOf(mail)).toMatch(/^multipart\/alternative;/);
    const text = mailText(mail);
    const payUrl = `${shop.config.baseUrl}/shop/order/pay/${order.number}`;
    expect(text).toContain(`We changed your order ${order.reference} at Demo Outdoor & Coffee: it now comes to €`);
    expect(text).toContain(`Please pay the new amount here:\n\n${payUrl}\n`);
    expect(text).toContain('2 × Beam 300 Headlamp (DEMO-HEADLAMP)');
    expect(mailHtml(mail)).toContain(`<a href="${payUrl}"`);
    expect(smtp.messages.filter((message) => subjectOf(message).includes(order.reference))).toHaveLength(1);

    // The link starts a payment of the new amount, and paying it pays the order.
    const pay = await client.get(`/shop/order/pay/${order.number}`).set('Accept', 'text/html');
    expect(pay.status).toBe(302);
    const [, second] = await attempts(order.id);
    expect(second).toMatchObject({ status: 'pending', amount: amountDue(edited) });
    expect(await comeBackFromBank(client, await chooseAtBank(shop, pay.headers.location, 'card-ok'))).toBe(
      '/shop/checkout/success',
    );
    const paid = await shop.dataSource.getRepository(Order).findOneByOrFail({ id: order.id });
    expect(paid.status).toBe('paid');
    expect((await attempts(order.id))[1]).toMatchObject({ status: 'success', paidAmount: amountDue(edited) });
  });

  it('withdraws the payment but mails no link while the pay-link mail is switched off, and says so', async () => {
    const settings = shop.app.get(SettingsService);
    await settings.save({ salesPaymentLinkMail: false });
    try {
      const { order } = await placeBankOrder(shop, flatRate, 'bankpay', 'DEMO-HEADLAMP', 1);
      const [first] = await attempts(order.id);
      const [line] = await shop.dataSource.getRepository(OrderLine).findBy({ orderId: order.id });
      const edit = await admin.post(`/admin/orders/${order.id}/edit/lines`, { lines: [{ id: line.id, qty: 2 }] });
      expect(edit.status).toBe(200);
      const history = await shop.dataSource.getRepository(OrderHistory).findBy({ orderId: order.id });
      expect(history.at(-1)!.note).toContain(`payment ${first.reference} withdrawn, no payment link mailed`);
      await eventually(async () => (await attempts(order.id))[0].status === 'failed');
      await jobsSettled(shop);
      expect(smtp.messages.filter((message) => subjectOf(message).includes(order.reference))).toEqual([]);
    } finally {
      await settings.save({ salesPaymentLinkMail: true });
    }
  });
});
