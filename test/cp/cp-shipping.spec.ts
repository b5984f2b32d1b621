import request from 'supertest';
import { DeliverySlot } from '../../src/commerce/delivery/delivery-slot.entity';
import { shopDateTime, shopMoment, shopNow } from '../../src/commerce/delivery/shop-calendar';
import { ShippingMethod } from '../../src/commerce/shipping/shipping-method.entity';
import { shippingMethodId } from '../../src/commerce/shipping/shipping-quote';
import { productBySku } from '../support/catalog';
import { addToCart, fillCheckout, placeOrder } from '../support/checkout';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp } from '../support/test-app';

/** The next Monday in the shop's calendar (the demo slots run Monday to Saturday). */
function nextMonday(): string {
  const date = new Date(`${shopNow('Europe/Bratislava').date}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + ((8 - (date.getUTCDay() || 7)) % 7 || 7));
  return date.toISOString().slice(0, 10);
}

/** Staff change shipping methods and delivery slots in the CP; checkout offers the change at once. */
describe('CP shipping', () => {
  let shop: TestApp;
  let staff: ShopClient;
  beforeAll(async () => {
    shop = await startTestApp();
    staff = new ShopClient(shop.server);
    await staff.loginCp();
  });
  afterAll(() => shop.close());

  const method = (handle: string) => shop.dataSource.getRepository(ShippingMethod).findOneByOrFail({ handle });
  const offered = async (country: string, client?: ShopClient) =>
    (
      await (client ?? new ShopClient(shop.server))
        .get(`/shop/checkout/get-shipping-methods?code=${country}`)
        .expect(200)
    ).body.shipping_methods as Array<{ handle: string; price: number; name: string }>;
  /** A CP form post the way a browser sends it, from the form's page. */
  const submit = async (path: string, fields: Record<string, string | string[]>, from = path) => {
    const token = await staff.csrfToken();
    return staff.agent
      .post(path)
      .type('form')
      .set('Accept', 'text/html')
      .set('Referer', `${shop.config.baseUrl}${from}`)
      .send({ ...fields, _csrf: token });
  };
  const courierForm = {
    name: 'Courier',
    description: 'Door to door',
    price: '4.90',
    freeShippingThreshold: '100',
    sortOrder: '1',
    enabled: 'on',
  };

  it('needs a CP login', async () => {
    const res = await request(shop.server).get('/admin/shipping').expect(302);
    expect(res.headers.location).toBe('/admin/login?next=%2Fadmin%2Fshipping');
    const post = await new ShopClient(shop.server).post('/admin/shipping/methods/1', courierForm);
    expect(post.status).toBe(401);
  });

  it('lists the shipping methods and delivery slots', async () => {
    const page = await staff.get('/admin/shipping').set('Accept', 'text/html').expect(200);
    expect(page.text).toContain('<a href="/admin/shipping">Shipping</a>');
    const courier = await method('flat-rate');
    expect(page.text).toContain(`<code>core:flat-rate:${courier.id}</code>`);
    expect(page.text).toContain('€4.90');
    expect(page.text).toContain('€100.00');
    expect(page.text).toContain('08:00–12:00');
    expect(page.text).toContain('Mon Tue Wed Thu Fri Sat');
  });

  it('changes the courier price and free-shipping threshold, which checkout offers at once', async () => {
    const courier = await method('flat-rate');
    const form = await staff.get(`/admin/shipping/methods/${courier.id}`).set('Accept', 'text/html').expect(200);
    expect(form.text).toContain('name="price" value="4.90"');
    expect(form.text).toContain('name="freeShippingThreshold" value="100.00"');
    const shopper = new ShopClient(shop.server);
    await addToCart(shopper, (await productBySku(shop.dataSource, 'DEMO-TENT-2P')).id, 1); // 329.00
    expect((await offered('SK', shopper))[0]).toMatchObject({ handle: 'flat-rate', price: 0 });

    const saved = await submit(`/admin/shipping/methods/${courier.id}`, {
      ...courierForm,
      price: '5,90',
      freeShippingThreshold: '',
      countries: 'sk cz',
      maxWeightGrams: '30000',
    });
    expect(saved.status).toBe(303);
    expect(saved.headers.location).toBe('/admin/shipping');
    expect(await method('flat-rate')).toMatchObject({
      price: 590,
      freeShippingThreshold: null,
      countries: ['SK', 'CZ'],
      maxWeightGrams: 30000,
      enabled: true,
    });
    expect((await offered('SK', shopper))[0]).toMatchObject({ handle: 'flat-rate', price: 5.9 });
    expect((await offered('AT')).map((entry) => entry.handle)).toEqual(['store-pickup', 'classic', 'parcelshop']);
  });

  it('switches a method off', async () => {
    const pickup = await method('store-pickup');
    await submit(`/admin/shipping/methods/${pickup.id}`, { name: 'Pick up in store', price: '0' });
    expect((await method('store-pickup')).enabled).toBe(false);
    expect((await offered('SK')).map((entry) => entry.handle)).not.toContain('store-pickup');
  });

  it('creates a new table-rate method, once per handle', async () => {
    const created = await submit(
      '/admin/shipping/methods',
      {
        handle: 'express',
        name: 'Express courier',
        price: '9.90',
        countries: 'SK',
        enabled: 'on',
        sortOrder: '0',
      },
      '/admin/shipping/methods/new',
    );
    expect(created.status).toBe(303);
    const express = await method('express');
    expect(express).toMatchObject({ type: 'core', price: 990, countries: ['SK'], freeShippingThreshold: null });
    expect((await offered('SK'))[0]).toMatchObject({ handle: 'express', name: 'Express courier', price: 9.9 });

    const again = await staff.post('/admin/shipping/methods', { handle: 'express', name: 'Express 2', price: '1' });
    expect(again.status).toBe(409);
    expect(again.body.error).toEqual({
      code: 'shipping_method_exists',
      message: 'A shipping method core:express already exists. Choose another handle.',
    });
  });

  it('offers a method only within its visibility window, typed in the shop time zone, and place-order checks it', async () => {
    const zone = 'Europe/Bratislava';
    const at = (offsetMs: number) => shopDateTime(zone, Date.now() + offsetMs);
    const hour = 60 * 60 * 1000;
    const window = { handle: 'winter', name: 'Winter delivery', price: '3.00', enabled: 'on', sortOrder: '0' };
    const later = { visibleFrom: at(24 * hour), visibleUntil: at(48 * hour) };
    await submit('/admin/shipping/methods', { ...window, ...later }, '/admin/shipping/methods/new');
    const winter = await method('winter');
    expect(winter).toMatchObject({
      visibleFrom: shopMoment(zone, later.visibleFrom),
      visibleUntil: shopMoment(zone, later.visibleUntil),
    });
    const form = await staff.get(`/admin/shipping/methods/${winter.id}`).set('Accept', 'text/html').expect(200);
    expect(form.text).toContain(`name="visibleFrom" value="${later.visibleFrom}" type="datetime-local"`);
    expect(form.text).toContain('Visible from (Europe/Bratislava)');
    expect((await staff.get('/admin/shipping').set('Accept', 'text/html')).text).toContain(
      `from ${later.visibleFrom.replace('T', ' ')} until ${later.visibleUntil.replace('T', ' ')}`,
    );
    expect((await offered('SK')).map((entry) => entry.handle)).not.toContain('winter');

    const path = `/admin/shipping/methods/${winter.id}`;
    await submit(path, { ...window, visibleFrom: at(-hour), visibleUntil: at(hour) });
    expect((await offered('SK')).map((entry) => entry.handle)).toContain('winter');
    // A shopper chooses it, then its window closes before they place the order.
    const shopper = new ShopClient(shop.server);
    await addToCart(shopper, (await productBySku(shop.dataSource, 'DEMO-STICKER-LOGO')).id, 1);
    await fillCheckout(shopper, { shippingMethod: shippingMethodId(winter), paymentMethod: 'cod' });
    await submit(path, { ...window, visibleUntil: at(-60_000) });
    expect((await offered('SK')).map((entry) => entry.handle)).not.toContain('winter');
    const refused = await placeOrder(shopper);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('shipping_method_unavailable');

    for (const [fields, message] of [
      [{ visibleFrom: 'tomorrow' }, 'visible from must be a date and time like 2026-12-24T18:00, or empty'],
      [{ visibleFrom: at(hour), visibleUntil: at(-hour) }, 'visible until must be later than visible from'],
    ] as const) {
      await submit(path, { ...window, ...fields });
      const page = await staff.get(path).set('Accept', 'text/html').expect(200);
      expect(page.text).toContain(message);
    }
    expect((await method('winter')).visibleFrom).toBeNull();
  });

  it('refuses bad input with a message on the form and changes nothing', async () => {
    const courier = await method('flat-rate');
    const path = `/admin/shipping/methods/${courier.id}`;
    for (const [fields, message] of [
      [{ price: '-1' }, 'price must be an amount ≥ 0 with at most 2 decimals, like 12.50'],
      [{ freeShippingThreshold: 'soon' }, 'free-shipping threshold must be an amount'],
      [{ countries: 'SK, Slovakia' }, 'countries has codes that are not ISO countries: SLOVAKIA'],
      [{ maxWeightGrams: '2.5kg' }, 'weight limit must be whole grams, or empty'],
      [{ name: '  ' }, 'name is required'],
    ] as const) {
      const res = await submit(path, { ...courierForm, ...fields });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe(path);
      const page = await staff.get(path).set('Accept', 'text/html').expect(200);
      expect(page.text).toContain('The shipping method was not saved');
      expect(page.text).toContain(message);
    }
    expect(await method('flat-rate')).toMatchObject({ price: courier.price, name: 'Courier' });
    const badHandle = await staff.post('/admin/shipping/methods', { handle: 'Express Courier', name: 'x', price: '1' });
    expect(badHandle.status).toBe(400);
    expect(badHandle.body.error.fields).toEqual({
      handle: ['must be lowercase letters, digits and dashes, like express-courier'],
    });
    await staff.get('/admin/shipping/methods/999999').expect(404);
  });

  it('creates and edits delivery slots, which checkout lists at once', async () => {
    const monday = nextMonday();
    const created = await submit(
      '/admin/shipping/slots',
      {
        label: 'Evening',
        start: '20:00',
        end: '22:00',
        capacity: '2',
        weekdays: ['1', '2'],
      },
      '/admin/shipping/slots/new',
    );
    expect(created.status).toBe(303);
    const slot = await shop.dataSource.getRepository(DeliverySlot).findOneByOrFail({ label: 'Evening' });
    expect(slot).toMatchObject({ startMinute: 1200, endMinute: 1320, capacity: 2, weekdays: [1, 2], enabled: false });

    await submit(`/admin/shipping/slots/${slot.id}`, {
      label: 'Evening',
      start: '19:30',
      end: '22:00',
      capacity: '4',
      weekdays: ['1'],
      enabled: 'on',
    });
    const form = await staff.get(`/admin/shipping/slots/${slot.id}`).set('Accept', 'text/html').expect(200);
    expect(form.text).toContain('name="start" value="19:30"');
    expect(form.text).toMatch(/value="1" checked> Mon/);
    const listed = await request(shop.server)
      .get(`/shop/checkout/get-shipping-delivery-slots?date=${monday}`)
      .expect(200);
    expect(listed.body.slots).toContainEqual({
      id: slot.id,
      label: 'Evening',
      available: true,
      capacity: 4,
      remaining: 4,
    });

    const problems: Array<[Record<string, string | string[]>, string]> = [
      [{ start: '22:00', end: '20:00' }, 'end must be after the start'],
      [{ start: '8am' }, 'start must be a time like 08:00'],
      [{ capacity: '0' }, 'capacity must be a whole number of orders ≥ 1'],
      [{ weekdays: ['8'] }, 'weekdays must be days 1 (Monday) to 7 (Sunday)'],
    ];
    for (const [fields, message] of problems) {
      const res = await submit(`/admin/shipping/slots/${slot.id}`, {
        label: 'Evening',
        start: '19:30',
        end: '22:00',
        capacity: '4',
        ...fields,
      });
      expect(res.status).toBe(303);
      const page = await staff.get(`/admin/shipping/slots/${slot.id}`).set('Accept', 'text/html').expect(200);
      expect(page.text).toContain('The delivery slot was not saved');
      expect(page.text).toContain(message);
    }
    expect(await shop.dataSource.getRepository(DeliverySlot).findOneByOrFail({ id: slot.id })).toMatchObject({
      startMinute: 1170,
      capacity: 4,
    });
  });
});
