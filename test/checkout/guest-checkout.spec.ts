import { Cart } from '../../src/commerce/carts/cart.entity';
import { OrderHistory } from '../../src/commerce/orders/order-history.entity';
import { OrderLine } from '../../src/commerce/orders/order-line.entity';
import { Order } from '../../src/commerce/orders/order.entity';
import { PaymentTransaction } from '../../src/commerce/payments/payment-transaction.entity';
import { Product } from '../../src/commerce/products/product.entity';
import { productBySku, variantBySku } from '../support/catalog';
import { ADDRESS, addToCart, fillCheckout, placeOrder, shippingValue } from '../support/checkout';
import { ShopClient } from '../support/shop-client';
import { CapturedMail, mailText, startSmtpCapture } from '../support/smtp-capture';
import { eventually, startTestApp, TestApp, usingMysql } from '../support/test-app';

/** A guest buys from add-to-cart to the success page and the confirmation e-mail. */
describe(`guest checkout (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
  let flatRate: string;
  beforeAll(async () => {
    smtp = await startSmtpCapture();
    shop = await startTestApp({ env: { SMTP_URL: smtp.url } });
    flatRate = await shippingValue(shop.dataSource, 'flat-rate');
  });
  afterAll(async () => {
    await shop.close();
    await smtp.close();
  });

  const mailTo = (email: string) => eventually(() => smtp.messages.find((mail) => mail.to.includes(email)));
  const orderByNumber = (number: string) => shop.dataSource.getRepository(Order).findOneByOrFail({ number });

  it('pays cash on delivery: the order is placed, stock taken, the cart closed and the shopper told', async () => {
    const client = new ShopClient(shop.server);
    const tent = await productBySku(shop.dataSource, 'DEMO-TENT-2P'); // 329.00, stock 14
    const tee = await productBySku(shop.dataSource, 'DEMO-TEE-LOGO');
    const teeVariant = await variantBySku(shop.dataSource, 'DEMO-TEE-LOGO-M-BLUE'); // 24.90
    await addToCart(client, tent.id, 1);
    await addToCart(client, tee.id, 2, { configuration: { size: 'M', color: 'blue' }, custom: { print: 'ADA' } });

    const methods = await client.get('/shop/checkout/get-shipping-methods?code=SK').expect(200);
    expect(methods.body).toEqual({
      success: true,
      shipping_methods: [
        {
          id: expect.any(Number),
          name: 'Courier',
          price: 0, // free from 100 EUR
          type: 'core',
          handle: 'flat-rate',
          value: flatRate,
          description: 'Delivered to your door in 1-3 working days',
          pickupPoints: false,
        },
        expect.objectContaining({ name: 'Pick up in store', handle: 'store-pickup', price: 0, pickupPoints: false }),
        // The demo's carriers, free over their thresholds too.
        expect.objectContaining({ type: 'carrier-a', handle: 'classic', price: 0, pickupPoints: false }),
        expect.objectContaining({ type: 'carrier-a', handle: 'parcelshop', price: 0, pickupPoints: true }),
        expect.objectContaining({ type: 'carrier-b', handle: 'pickup-point', price: 0, pickupPoints: true }),
      ],
    });
    const payments = await client.get(`/shop/checkout/get-payment-methods?code=SK&shipping-method=${flatRate}`);
    expect(payments.status).toBe(200);
    // The demo shop offers every bankpay method; the loan because this cart is over the bank's 100 EUR minimum.
    expect(payments.body.payment_methods.map((method: { code: string }) => method.code)).toEqual([
      'cod',
      'bank-transfer-manual',
      'bankpay',
      'bankpay-loan',
      'bankpay-bank',
      'bankpay-qr',
    ]);
    expect(payments.body.payment_methods[0]).toEqual({
      id: expect.any(Number),
      name: 'Cash on delivery',
      handle: 'cash-on-delivery',
      code: 'cod',
      description: expect.any(String),
      instructions: expect.any(String),
      type: 'offline',
      price: 1.5,
      logo: null,
    });

    const saved = await fillCheckout(client, {
      email: 'Ada@Example.com ',
      shippingMethod: flatRate,
      paymentMethod: 'cod',
      extra: { notes: 'Ring twice' },
    });
    // 329 + 2 × 24.90 = 378.80, free shipping, 1.50 cash-on-delivery fee; 20 % VAT included.
    expect(saved.body.cart).toMatchObject({
      itemCount: 3,
      subtotal: 378.8,
      shipping: 0,
      paymentFee: 1.5,
      total: 380.3,
      tax: 63.38,
      reverseCharge: false,
      currency: 'EUR',
    });

    const placed = await placeOrder(client);
    expect(placed.status).toBe(200);
    expect(placed.body).toEqual({
      success: true,
      orderNumber: expect.stringMatching(/^[0-9a-f]{32}$/),
      redirect: '/shop/checkout/success',
    });

    const order = await orderByNumber(placed.body.orderNumber);
    expect(order).toMatchObject({
      status: 'processing',
      email: 'ada@example.com',
      currency: 'EUR',
      subtotal: 37880,
      shippingTotal: 0,
      paymentFee: 150,
      tax: 6338,
      total: 38030,
      shippingMethod: flatRate,
      shippingName: 'Courier',
      paymentMethod: 'cod',
      paymentName: 'Cash on delivery',
      notes: 'Ring twice',
      billingAddress: ADDRESS,
      shippingAddress: ADDRESS,
      reverseCharge: false,
    });
    expect(order.reference).toMatch(/^[A-Z2-9]{8}$/);
    const lines = await shop.dataSource
      .getRepository(OrderLine)
      .find({ where: { orderId: order.id }, order: { id: 'ASC' } });
    expect(lines.map((line) => [line.sku, line.qty, line.price, line.total, line.custom])).toEqual([
      ['DEMO-TENT-2P', 1, 32900, 32900, null],
      ['DEMO-TEE-LOGO-M-BLUE', 2, 2490, 4980, { print: 'ADA' }],
    ]);
    expect((await productBySku(shop.dataSource, 'DEMO-TENT-2P')).stock).toBe(tent.stock - 1);
    expect((await variantBySku(shop.dataSource, teeVariant.sku)).stock).toBe(teeVariant.stock - 2);
    expect((await productBySku(shop.dataSource, 'DEMO-TEE-LOGO')).stock).toBe(tee.stock - 2);
    expect((await shop.dataSource.getRepository(Cart).findOneByOrFail({ id: order.cartId })).orderedAt).not.toBeNull();
    const history = await shop.dataSource
      .getRepository(OrderHistory)
      .find({ where: { orderId: order.id }, order: { id: 'ASC' } });
    expect(history.map((row) => [row.fromStatus, row.toStatus])).toEqual([
      [null, 'pending_payment'],
      ['pending_payment', 'processing'],
    ]);
    const [transaction] = await shop.dataSource.getRepository(PaymentTransaction).findBy({ orderId: order.id });
    expect(transaction).toMatchObject({ gateway: 'core', code: 'cod', amount: 38030, status: 'pending' });

    const success = await client.get('/shop/checkout/success').set('Accept', 'text/html').expect(200);
    expect(success.text).toContain(order.reference);
    expect(success.text).toContain(order.number);
    expect(success.text).toContain(`href="/shop/order/view/${order.number}"`);
    expect(success.text).toContain('Being prepared');
    expect(success.headers['cache-control']).toBe('private, no-store');

    const mail = await mailTo('ada@example.com');
    const text = mailText(mail);
    expect(mail.raw).toContain(`Subject: Your order ${order.reference} at Demo Outdoor & Coffee`);
    expect(text).toContain('1 × Ridgeline 2-Person Tent (DEMO-TENT-2P)  €329.00');
    expect(text).toContain('2 × Trail Logo T-Shirt (DEMO-TEE-LOGO-M-BLUE)  €49.80');
    expect(text).toContain('Total: €380.30');
    expect(text).toContain(`/shop/order/view/${order.number}`);

    // A double click, a reload: the same order again, and still one confirmation (counted below).
    const again = await placeOrder(client);
    expect(again.body).toEqual({ success: true, orderNumber: order.number, redirect: '/shop/checkout/success' });
    await client.get('/shop/checkout/success').set('Accept', 'text/html').expect(200);

    // The shopper's next add starts a new cart; the ordered one stays as it was.
    await addToCart(client, tent.id, 1);
    const next = await client.get('/shop/checkout/get-init-values').expect(200);
    expect(next.body.cart.itemCount).toBe(1);
    expect(next.body.email).toBeNull();
  });

  it('pays by bank transfer: the order waits for the money, with the bank details on the page and in the e-mail', async () => {
    const client = new ShopClient(shop.server);
    const kettle = await productBySku(shop.dataSource, 'DEMO-KETTLE-CAMP'); // 54.00
    await addToCart(client, kettle.id, 1);
    await fillCheckout(client, {
      email: 'grace@example.com',
      shippingMethod: flatRate,
      paymentMethod: 'bank-transfer-manual',
    });

    // A plain form post (no JavaScript): a 302 to the same place.
    const token = await client.csrfToken();
    const form = await client.agent
      .post('/shop/checkout/place-order')
      .type('form')
      .set('Accept', 'text/html')
      .send({ _csrf: token });
    expect(form.status).toBe(302);
    expect(form.headers.location).toBe('/shop/checkout/success');

    const order = await shop.dataSource.getRepository(Order).findOneByOrFail({ email: 'grace@example.com' });
    // 54.00 + 4.90 courier (below the 100 EUR threshold), no fee.
    expect(order).toMatchObject({ status: 'pending_payment', total: 5890, shippingTotal: 490, paymentFee: 0 });
    const page = await client.get('/shop/checkout/success').set('Accept', 'text/html').expect(200);
    expect(page.text).toContain('Awaiting payment');
    expect(page.text).toContain('SK31 1200 0000 1987 4263 7541');
    expect(page.text).toContain('€58.90');
    expect(page.text).toContain(order.reference);

    const text = mailText(await mailTo('grace@example.com'));
    expect(text).toContain('Please pay by bank transfer:');
    expect(text).toContain('IBAN: SK31 1200 0000 1987 4263 7541');
    expect(text).toContain('Amount: €58.90');
    expect(text).toContain(`Payment reference: ${order.reference}`);

    // The guest order view needs nothing but the number, and shows the same instructions.
    const view = await new ShopClient(shop.server).get(`/shop/order/view/${order.number}`).set('Accept', 'text/html');
    expect(view.status).toBe(200);
    expect(view.text).toContain(`Order ${order.reference}`);
    expect(view.text).toContain('SK31 1200 0000 1987 4263 7541');
    expect(view.headers['x-robots-tag']).toBe('noindex');
    // Paying again is for online methods: back to the view with a word.
    const pay = await client.get(`/shop/order/pay/${order.number}`).set('Accept', 'text/html');
    expect(pay.status).toBe(302);
    expect(pay.headers.location).toBe(`/shop/order/view/${order.number}`);
    const after = await client.get(pay.headers.location).set('Accept', 'text/html');
    expect(after.text).toContain('This order is paid by bank transfer: use the payment details below.');
  });

  it('sends each order one confirmation, however often it is placed again or its page reloaded', async () => {
    const seen = (mail: CapturedMail) => mail.to.includes('ada@example.com') || mail.to.includes('grace@example.com');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.messages.filter(seen)).toHaveLength(2);
    const orders = await shop.dataSource.getRepository(Order).count();
    expect(orders).toBe(2);
  });

  it('shows the success page only to the browser that placed the order', async () => {
    const stranger = new ShopClient(shop.server);
    const res = await stranger.get('/shop/checkout/success').set('Accept', 'text/html');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/shop/cart');
    expect((await stranger.get('/shop/checkout/failed').set('Accept', 'text/html')).headers.location).toBe(
      '/shop/cart',
    );
  });

  it('answers an unknown or malformed order number with the 404 page', async () => {
    const client = new ShopClient(shop.server);
    for (const number of [
      '0'.repeat(32),
      'not-a-number',
      (await shop.dataSource.getRepository(Order).findOneByOrFail({ email: 'grace@example.com' })).number.toUpperCase(),
    ]) {
      const res = await client.get(`/shop/order/view/${number}`).set('Accept', 'text/html');
      expect(res.status).toBe(404);
      expect(res.text).toContain('Page not found');
    }
    const json = await client.get(`/shop/order/view/${'0'.repeat(32)}`).expect(404);
    expect(json.body).toEqual({
      success: false,
      error: { code: 'not_found', message: 'We could not find an order with this number.' },
    });
  });

  it('keeps the product price of the moment of ordering on the order lines', async () => {
    const order = await shop.dataSource.getRepository(Order).findOneByOrFail({ email: 'grace@example.com' });
    await shop.dataSource.getRepository(Product).update({ sku: 'DEMO-KETTLE-CAMP' }, { price: 9900 });
    const [line] = await shop.dataSource.getRepository(OrderLine).findBy({ orderId: order.id });
    expect(line).toMatchObject({ price: 5400, total: 5400, name: 'Camp Pour-Over Kettle' });
  });
});
