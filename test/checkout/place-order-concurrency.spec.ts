import { Cart } from '../../src/commerce/carts/cart.entity';
import { CouponUsage } from '../../src/commerce/coupons/coupon-usage.entity';
import { Coupon } from '../../src/commerce/coupons/coupon.entity';
import { CouponService } from '../../src/commerce/coupons/coupon.service';
import { DeliverySlotBooking } from '../../src/commerce/delivery/delivery-slot-booking.entity';
import { DeliverySlot } from '../../src/commerce/delivery/delivery-slot.entity';
import { shopNow } from '../../src/commerce/delivery/shop-calendar';
import { OrderLine } from '../../src/commerce/orders/order-line.entity';
import { Order } from '../../src/commerce/orders/order.entity';
import { PaymentTransaction } from '../../src/commerce/payments/payment-transaction.entity';
import { Product } from '../../src/commerce/products/product.entity';
import { productBySku } from '../support/catalog';
import { addToCart, fillCheckout, placeOrder, shippingValue } from '../support/checkout';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp, usingMysql } from '../support/test-app';

/**
 * Under concurrency: no oversell, a cart converts once, coupon limits and slot capacity hold.
 * Meant for MariaDB (real concurrent transactions); on SQLite the same requests run one after another.
 */
describe(`place-order under concurrency (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let flatRate: string;
  beforeAll(async () => {
    shop = await startTestApp();
    flatRate = await shippingValue(shop.dataSource, 'flat-rate');
  });
  afterAll(() => shop.close());

  const setStock = (sku: string, stock: number) => shop.dataSource.getRepository(Product).update({ sku }, { stock });
  const codes = (responses: Array<{ status: number; body: { error?: { code: string } } }>) =>
    responses.filter((res) => res.status !== 200).map((res) => `${res.status} ${res.body.error?.code}`);

  /** `count` shoppers, each with `product` in the cart and checkout filled in (cash on delivery). */
  async function shoppers(count: number, product: Product, prepare?: (client: ShopClient) => Promise<unknown>) {
    return Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const client = new ShopClient(shop.server);
        await addToCart(client, product.id, 1);
        await prepare?.(client);
        await fillCheckout(client, { email: `buyer${i}@example.com`, shippingMethod: flatRate, paymentMethod: 'cod' });
        return client;
      }),
    );
  }

  it('sells the last unit once when 20 carts order it at the same moment', async () => {
    await setStock('DEMO-CARABINER', 20);
    const carabiner = await productBySku(shop.dataSource, 'DEMO-CARABINER');
    const clients = await shoppers(20, carabiner);
    await setStock('DEMO-CARABINER', 1);

    const responses = await Promise.all(clients.map((client) => placeOrder(client)));

    expect(responses.filter((res) => res.status === 200)).toHaveLength(1);
    expect(codes(responses)).toEqual(Array(19).fill('409 out_of_stock'));
    expect(responses.find((res) => res.status === 409)!.body.error.message).toBe(
      'Aluminium Key Carabiner is out of stock.',
    );
    expect((await productBySku(shop.dataSource, 'DEMO-CARABINER')).stock).toBe(0);
    const lines = await shop.dataSource.getRepository(OrderLine).findBy({ productId: carabiner.id });
    expect(lines).toHaveLength(1);
    // The other 19 carts are still open: they can be changed, or ordered once there is stock again.
    const ordered = await shop.dataSource
      .getRepository(Cart)
      .createQueryBuilder('c')
      .where('c.email LIKE :email AND c.orderedAt IS NOT NULL', { email: 'buyer%' })
      .getCount();
    expect(ordered).toBe(1);
  });

  it('makes one order of one cart placed 10 times at once, and of its idempotency key', async () => {
    const bottle = await productBySku(shop.dataSource, 'DEMO-BOTTLE-STEEL');
    const [client] = await shoppers(1, bottle);

    const responses = await Promise.all(
      Array.from({ length: 10 }, () => placeOrder(client, {}, { 'Idempotency-Key': 'checkout-1' })),
    );

    expect(responses.map((res) => res.status)).toEqual(Array(10).fill(200));
    const numbers = new Set(responses.map((res) => res.body.orderNumber));
    expect(numbers.size).toBe(1);
    const [number] = numbers;
    const order = await shop.dataSource.getRepository(Order).findOneByOrFail({ number });
    expect(await shop.dataSource.getRepository(Order).countBy({ cartId: order.cartId })).toBe(1);
    expect(await shop.dataSource.getRepository(PaymentTransaction).countBy({ orderId: order.id })).toBe(1);
    expect((await productBySku(shop.dataSource, 'DEMO-BOTTLE-STEEL')).stock).toBe(bottle.stock - 1);

    // The key alone finds the order, from another browser without a cart.
    const stranger = new ShopClient(shop.server);
    const replay = await placeOrder(stranger, {}, { 'Idempotency-Key': 'checkout-1' });
    expect(replay.status).toBe(200);
    expect(replay.body.orderNumber).toBe(number);
  });

  it('uses a single-use coupon once when 10 checkouts redeem it at the same moment', async () => {
    const coupon = await shop.app
      .get(CouponService)
      .create({ code: 'ONCE-ONLY', type: 'percent', value: 10, usageLimit: 1 });
    await setStock('DEMO-HEADLAMP', 100);
    const headlamp = await productBySku(shop.dataSource, 'DEMO-HEADLAMP'); // 39.00
    const clients = await shoppers(10, headlamp, (client) =>
      client.post('/shop/cart/add-coupon', { coupon_code: 'once-only' }),
    );

    const responses = await Promise.all(clients.map((client) => placeOrder(client)));

    expect(responses.filter((res) => res.status === 200)).toHaveLength(1);
    expect(codes(responses)).toEqual(Array(9).fill('409 coupon_used_up'));
    expect((await shop.dataSource.getRepository(Coupon).findOneByOrFail({ id: coupon.id })).timesUsed).toBe(1);
    expect(await shop.dataSource.getRepository(CouponUsage).countBy({ couponId: coupon.id })).toBe(1);
    const orders = await shop.dataSource.getRepository(Order).findBy({ couponCode: 'ONCE-ONLY' });
    expect(orders).toHaveLength(1);
    expect(orders[0].discount).toBe(390); // 10 % of 39.00
    // The refused checkouts took nothing: their stock is back (the whole transaction rolled back).
    expect((await productBySku(shop.dataSource, 'DEMO-HEADLAMP')).stock).toBe(99);
  });

  it('books a delivery slot no more often than its capacity', async () => {
    const slot = await shop.dataSource.getRepository(DeliverySlot).findOneByOrFail({ label: '16:00–20:00' });
    await shop.dataSource.getRepository(DeliverySlot).update({ id: slot.id }, { capacity: 2 });
    const date = nextWorkday();
    const candle = await productBySku(shop.dataSource, 'DEMO-CANDLE-PINE');
    const clients = await shoppers(6, candle);
    for (const client of clients) {
      const saved = await client.post('/shop/checkout/save-shipping-method', {
        shippingMethod: flatRate,
        deliverySlotId: slot.id,
        deliveryDate: date,
      });
      expect(saved.status).toBe(200);
    }
    // Listings may show a capacity edit a minute late; the booking itself reads the capacity as it is.
    const responses = await Promise.all(clients.map((client) => placeOrder(client)));

    expect(responses.filter((res) => res.status === 200)).toHaveLength(2);
    expect(codes(responses)).toEqual(Array(4).fill('409 delivery_slot_unavailable'));
    const booking = await shop.dataSource.getRepository(DeliverySlotBooking).findOneByOrFail({ slotId: slot.id, date });
    expect(booking.taken).toBe(2);
    expect(await shop.dataSource.getRepository(Order).countBy({ deliverySlotId: slot.id, deliveryDate: date })).toBe(2);
  });
});

/** Tomorrow, or Monday when tomorrow is a Sunday (the demo slots run Monday to Saturday). */
function nextWorkday(): string {
  const today = Date.parse(`${shopNow('Europe/Bratislava').date}T00:00:00Z`);
  const tomorrow = new Date(today + 86_400_000);
  return new Date(tomorrow.getTime() + (tomorrow.getUTCDay() === 0 ? 86_400_000 : 0)).toISOString().slice(0, 10);
}
