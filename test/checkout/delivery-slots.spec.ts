import request from 'supertest';
import { DeliverySlotBooking } from '../../src/commerce/delivery/delivery-slot-booking.entity';
import { DeliverySlot } from '../../src/commerce/delivery/delivery-slot.entity';
import { shopNow } from '../../src/commerce/delivery/shop-calendar';
import { OrderStatusService } from '../../src/commerce/orders/order-status.service';
import { Order } from '../../src/commerce/orders/order.entity';
import { SettingsService } from '../../src/config/settings.service';
import { productBySku } from '../support/catalog';
import { addToCart, fillCheckout, placeOrder, shippingValue } from '../support/checkout';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp } from '../support/test-app';

const DAY_MS = 86_400_000;
const PATH = '/shop/checkout/get-shipping-delivery-slots';

/** A calendar date `days` from today in the shop's time zone. */
function shopDate(days: number): string {
  const today = Date.parse(`${shopNow('Europe/Bratislava').date}T00:00:00Z`);
  return new Date(today + days * DAY_MS).toISOString().slice(0, 10);
}

/** The first date from tomorrow on with the given ISO weekday (1 = Monday … 7 = Sunday). */
function next(weekday: number): string {
  for (let days = 1; ; days++) {
    const date = shopDate(days);
    if ((new Date(`${date}T00:00:00Z`).getUTCDay() || 7) === weekday) return date;
  }
}

describe('delivery slots', () => {
  let shop: TestApp;
  let settings: SettingsService;
  let slots: DeliverySlot[];
  let flatRate: string;
  beforeAll(async () => {
    shop = await startTestApp();
    settings = shop.app.get(SettingsService);
    slots = await shop.dataSource.getRepository(DeliverySlot).find({ order: { sortOrder: 'ASC' } });
    flatRate = await shippingValue(shop.dataSource, 'flat-rate');
  });
  afterAll(() => shop.close());

  it('exists only while delivery times are on, answering like an unknown route otherwise', async () => {
    await settings.save({ salesDeliveryTimeEnabled: false });
    try {
      const off = await request(shop.server).get(`${PATH}?date=${next(1)}`);
      expect(off.status).toBe(404);
      expect(off.body).toEqual({
        success: false,
        error: { code: 'not_found', message: `Cannot GET ${PATH}?date=${next(1)}` },
      });
    } finally {
      await settings.save({ salesDeliveryTimeEnabled: true });
    }
    expect((await request(shop.server).get(`${PATH}?date=${next(1)}`)).status).toBe(200);
  });

  it('lists the slots of a working day with their capacity', async () => {
    const res = await request(shop.server)
      .get(`${PATH}?date=${next(2)}`)
      .expect(200);
    expect(res.body).toEqual({
      success: true,
      slots: [
        { id: slots[0].id, label: '08:00–12:00', available: true, capacity: 5, remaining: 5 },
        { id: slots[1].id, label: '12:00–16:00', available: true, capacity: 5, remaining: 5 },
        { id: slots[2].id, label: '16:00–20:00', available: true, capacity: 3, remaining: 3 },
      ],
    });
    // No slots run on Sundays in the demo shop.
    expect(
      (
        await request(shop.server)
          .get(`${PATH}?date=${next(7)}`)
          .expect(200)
      ).body,
    ).toEqual({ success: true, slots: [] });
  });

  it('shows past slots and full slots as not available', async () => {
    const yesterday = await request(shop.server)
      .get(`${PATH}?date=${shopDate(-1)}`)
      .expect(200);
    expect(yesterday.body.slots.every((slot: { available: boolean }) => !slot.available)).toBe(true);

    const today = shopDate(0);
    const running = (await request(shop.server).get(`${PATH}?date=${today}`).expect(200)).body.slots;
    const { minute } = shopNow('Europe/Bratislava');
    for (const slot of running) {
      const row = slots.find((candidate) => candidate.id === slot.id)!;
      expect(slot.available).toBe(row.startMinute > minute);
    }

    const date = next(3);
    await shop.dataSource.getRepository(DeliverySlotBooking).insert({ slotId: slots[2].id, date, taken: 3 });
    const full = await request(shop.server).get(`${PATH}?date=${date}`).expect(200);
    expect(full.body.slots[2]).toEqual({
      id: slots[2].id,
      label: '16:00–20:00',
      available: false,
      capacity: 3,
      remaining: 0,
    });
  });

  it.each([
    ['a missing date', '', { date: ['date must be a string'] }],
    ['a month 13', '?date=2026-13-01', { date: ['must be a date written YYYY-MM-DD'] }],
    ['30 February', '?date=2027-02-30', { date: ['must be a date written YYYY-MM-DD'] }],
    ['a word', '?date=tomorrow', { date: ['must be a date written YYYY-MM-DD'] }],
    ['digits only', '?date=20271201', { date: ['must be a date written YYYY-MM-DD'] }],
  ])('rejects %s with 400', async (_, query, fields) => {
    const res = await request(shop.server).get(`${PATH}${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'validation_failed', fields });
  });

  it('books no further ahead than 60 days', async () => {
    expect((await request(shop.server).get(`${PATH}?date=${shopDate(60)}`)).status).toBe(200);
    const far = await request(shop.server).get(`${PATH}?date=${shopDate(61)}`);
    expect(far.status).toBe(400);
    expect(far.body.error).toEqual({
      code: 'validation_failed',
      message: 'Delivery can be booked up to 60 days ahead.',
      fields: { date: ['must be at most 60 days ahead'] },
    });
  });

  describe('at checkout', () => {
    async function shopper() {
      const client = new ShopClient(shop.server);
      await addToCart(client, (await productBySku(shop.dataSource, 'DEMO-SHAKER-SET')).id, 2);
      await fillCheckout(client, { shippingMethod: flatRate, paymentMethod: 'cod' });
      return client;
    }
    const saveSlot = (client: ShopClient, body: object) =>
      client.post('/shop/checkout/save-shipping-method', { shippingMethod: flatRate, ...body });

    it('refuses a slot that is full, not running that day, half given, or not offered', async () => {
      const client = await shopper();
      const full = await saveSlot(client, { deliverySlotId: slots[2].id, deliveryDate: next(3) });
      expect(full.status).toBe(409);
      expect(full.body.error).toEqual({
        code: 'delivery_slot_unavailable',
        message: `The delivery slot 16:00–20:00 on ${next(3)} is no longer available. Choose another one.`,
      });
      const sunday = await saveSlot(client, { deliverySlotId: slots[0].id, deliveryDate: next(7) });
      expect(sunday.status).toBe(400);
      expect(sunday.body.error.fields).toEqual({ deliverySlotId: [`is not a delivery slot on ${next(7)}`] });
      const noDate = await saveSlot(client, { deliverySlotId: slots[0].id });
      expect(noDate.status).toBe(400);
      expect(noDate.body.error.fields).toEqual({ deliveryDate: ['is required with a delivery slot'] });
      const badDate = await saveSlot(client, { deliverySlotId: slots[0].id, deliveryDate: '2027-02-30' });
      expect(badDate.status).toBe(400);
      expect(badDate.body.error.fields).toEqual({ date: ['must be a date written YYYY-MM-DD'] });

      await settings.save({ salesDeliveryTimeEnabled: false });
      try {
        const off = await saveSlot(client, { deliverySlotId: slots[0].id, deliveryDate: next(1) });
        expect(off.status).toBe(400);
        expect(off.body.error.fields).toEqual({ deliverySlotId: ['delivery slots are not offered'] });
      } finally {
        await settings.save({ salesDeliveryTimeEnabled: true });
      }
    });

    it('takes the slot with the order, and gives it back (with the stock) when the order is canceled', async () => {
      const client = await shopper();
      const date = next(4);
      expect((await saveSlot(client, { deliverySlotId: slots[0].id, deliveryDate: date })).status).toBe(200);
      const init = await client.get('/shop/checkout/get-init-values').expect(200);
      expect(init.body.deliverySlot).toEqual({ id: slots[0].id, date });
      const shakers = await productBySku(shop.dataSource, 'DEMO-SHAKER-SET');

      const placed = await placeOrder(client);
      expect(placed.status).toBe(200);
      const order = await shop.dataSource.getRepository(Order).findOneByOrFail({ number: placed.body.orderNumber });
      expect(order).toMatchObject({
        deliverySlotId: slots[0].id,
        deliveryDate: date,
        deliverySlotLabel: '08:00–12:00',
      });
      const booking = () =>
        shop.dataSource.getRepository(DeliverySlotBooking).findOneByOrFail({ slotId: slots[0].id, date });
      expect((await booking()).taken).toBe(1);
      expect((await productBySku(shop.dataSource, 'DEMO-SHAKER-SET')).stock).toBe(shakers.stock - 2);
      const page = await client.get('/shop/checkout/success').set('Accept', 'text/html').expect(200);
      expect(page.text).toContain(`Delivery slot: ${date}, 08:00–12:00`);
      const listed = await request(shop.server).get(`${PATH}?date=${date}`).expect(200);
      expect(listed.body.slots[0]).toMatchObject({ remaining: 4, available: true });

      await shop.app.get(OrderStatusService).change(order.id, 'canceled', 'cp:admin@example.com', 'customer called');
      expect((await booking()).taken).toBe(0);
      expect((await productBySku(shop.dataSource, 'DEMO-SHAKER-SET')).stock).toBe(shakers.stock);
    });
  });
});
