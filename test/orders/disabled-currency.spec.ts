import { formatMoney } from '../../src/common/money-format';
import { OrderHistory } from '../../src/commerce/orders/order-history.entity';
import { OrderLine } from '../../src/commerce/orders/order-line.entity';
import { Order } from '../../src/commerce/orders/order.entity';
import { Refund } from '../../src/commerce/refunds/refund.entity';
import { Currency } from '../../src/commerce/stores/currency.entity';
import { CurrencyService } from '../../src/commerce/stores/currency.service';
import { productBySku } from '../support/catalog';
import { addToCart, fillCheckout, placeOrder, shippingValue } from '../support/checkout';
import { ShopClient } from '../support/shop-client';
import { mailText, startSmtpCapture, subjectOf } from '../support/smtp-capture';
import { jobsSettled, startTestApp, TestApp, usingMysql } from '../support/test-app';

/** Forints have no minor unit: 1000 HUF is stored as 1000, where €10.00 is stored as 1000. */
const HUF = { code: 'HUF', decimals: 0 };
const huf = (minor: number) => formatMoney(minor, HUF);

/**
 * An order keeps the currency it was paid in after the shop stops selling in it: its amounts are read, shown,
 * mailed and refunded with that currency's decimals, never the base currency's.
 */
describe(`an order in a currency no longer sold (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
  let staff: ShopClient;
  let unpaid: Order;
  let order: Order;

  const reload = (id: number) => shop.dataSource.getRepository(Order).findOneByOrFail({ id });
  const lastNote = async (orderId: number) =>
    (await shop.dataSource.getRepository(OrderHistory).find({ where: { orderId }, order: { id: 'DESC' } }))[0].note;
  async function hufOrder(paymentMethod: string): Promise<Order> {
    const client = new ShopClient(shop.server);
    expect((await client.post('/shop/currency/set', { currency: 'HUF' })).status).toBe(200);
    await addToCart(client, (await productBySku(shop.dataSource, 'DEMO-HEADLAMP')).id, 1);
    await fillCheckout(client, { shippingMethod: await shippingValue(shop.dataSource, 'flat-rate'), paymentMethod });
    const placed = await placeOrder(client);
    expect(placed.status).toBe(200);
    const placedOrder = await shop.dataSource.getRepository(Order).findOneByOrFail({ number: placed.body.orderNumber });
    expect(placedOrder.currency).toBe('HUF');
    return placedOrder;
  }
  const setHufEnabled = async (enabled: boolean) => {
    await shop.dataSource.getRepository(Currency).update({ code: 'HUF' }, { enabled });
    shop.app.get(CurrencyService).forget();
  };

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    shop = await startTestApp({ listen: true, env: { SMTP_URL: smtp.url } });
    staff = new ShopClient(shop.server);
    await staff.loginCp();
    // Two orders of one headlamp paid in forints (one waiting for a bank transfer, one cash on delivery), then the
    // shop stops selling in forints.
    unpaid = await hufOrder('bank-transfer-manual');
    order = await hufOrder('cod');
    await setHufEnabled(false);
  });
  afterAll(async () => {
    await shop?.close();
    await smtp?.close();
  });

  it('refuses to price its lines again and leaves its totals as they were', async () => {
    // Repricing needs today's forint prices, which the shop no longer has: the order keeps what it was sold for.
    const [line] = await shop.dataSource.getRepository(OrderLine).findBy({ orderId: unpaid.id });
    const edited = await staff.post(`/admin/orders/${unpaid.id}/edit/lines`, { lines: [{ id: line.id, qty: 2 }] });
    expect(edited.status).toBe(409);
    expect(edited.body.error.code).toBe('order_currency_unavailable');
    expect(await reload(unpaid.id)).toMatchObject({ total: unpaid.total, subtotal: unpaid.subtotal });
    const page = await staff.get(`/admin/orders/${unpaid.id}`).expect(200);
    expect(page.text).toContain(huf(unpaid.total));
  });

  it('shows its money in forints on the CP page and refunds 1000 HUF typed as "1000", mailing that amount', async () => {
    for (const status of ['shipped', 'completed'])
      expect((await staff.submitForm(`/admin/orders/${order.id}/status`, { status })).status).toBe(303);
    const page = await staff.get(`/admin/orders/${order.id}`).expect(200);
    expect(page.text).toContain(`<dt>Paid</dt><dd>${huf(order.total)}</dd>`);
    const key = /name="idempotencyKey" value="([^"]+)"/.exec(page.text)![1];

    const posted = await staff.submitForm(`/admin/orders/${order.id}/refunds`, {
      idempotencyKey: key,
      amount: '1000',
      reason: 'Goodwill',
      reference: 'HU-TRANSFER-7',
    });
    expect(posted.status).toBe(303);
    expect(await shop.dataSource.getRepository(Refund).findBy({ orderId: order.id })).toMatchObject([
      { method: 'manual', status: 'succeeded', amount: 1000, currency: 'HUF' },
    ]);
    expect(await lastNote(order.id)).toContain(`Refunded ${huf(1000)} `);
    const shown = await staff.get(`/admin/orders/${order.id}`).expect(200);
    expect(shown.text).toContain(`Refunded ${huf(1000)}.`);
    expect(shown.text).toContain(`<dt>Balance</dt><dd>${huf(order.total - 1000)}</dd>`);

    await jobsSettled(shop);
    const mails = smtp.messages.filter(
      (mail) => mail.to.includes(order.email) && subjectOf(mail).startsWith('A refund for your order'),
    );
    expect(mails).toHaveLength(1);
    expect(mailText(mails[0])).toContain(`We have refunded ${huf(1000)} for your order ${order.reference}`);
  });
});
