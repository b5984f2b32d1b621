import { existsSync } from 'node:fs';
import request from 'supertest';
import { OrderStatusService } from '../../src/commerce/orders/order-status.service';
import { OrderStatus } from '../../src/commerce/orders/order-status.machine';
import { Order } from '../../src/commerce/orders/order.entity';
import { ShippingMethod } from '../../src/commerce/shipping/shipping-method.entity';
import { ShippingMethodRegistry } from '../../src/commerce/shipping/shipping-method.registry';
import { SettingsService } from '../../src/config/settings.service';
import { Job } from '../../src/jobs/job.entity';
import { CarrierAAutoShipment } from '../../src/plugins/carrier-a/carrier-a-auto-shipment.entity';
import { CarrierALabelMonth } from '../../src/plugins/carrier-a/carrier-a-label-month.entity';
import { labelMonth } from '../../src/plugins/carrier-a/carrier-a-label-months';
import { CarrierAShipment } from '../../src/plugins/carrier-a/carrier-a-shipment.entity';
import { CarrierAShipments } from '../../src/plugins/carrier-a/carrier-a-shipments.service';
import { productBySku } from '../support/catalog';
import { addToCart, fillCheckout, placeOrder, shippingValue } from '../support/checkout';
import { ShopClient } from '../support/shop-client';
import { createTestPlace, eventually, REFUSING_URL, startTestApp, TestApp, usingMysql } from '../support/test-app';

const CONTROL = '/_sandbox/carrier-a/_control';
const JOB = 'carrier-a.auto-shipment';

/** Spec "Other transitions": a parcel is created automatically, exactly once, on the configured status. */
describe(`carrier A automatic shipments (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;

  beforeAll(async () => {
    shop = await startTestApp({ listen: true, env: { JOB_MAX_ATTEMPTS: '3' } });
    await enableCarrierA(shop);
  });
  afterAll(() => shop.close());
  beforeEach(async () => {
    await request(shop.server).post(`${CONTROL}/reset`).expect(200);
    await shop.dataSource.getRepository(CarrierALabelMonth).clear();
    await shop.app.get(SettingsService).save({ 'carrier-a.autoCreateStatus': 'paid', 'carrier-a.labelLimit': 0 });
  });

  const parcelsAtCarrier = async (app = shop): Promise<unknown[]> =>
    (await request(app.server).get(`${CONTROL}/parcels`).expect(200)).body;
  const autoRow = (orderId: number) => shop.dataSource.getRepository(CarrierAAutoShipment).findOneBy({ orderId });
  const jobOf = (orderId: number) => shop.dataSource.getRepository(Job).findOneBy({ jobKey: `${JOB}:${orderId}` });
  const setStatus = (orderId: number, status: OrderStatus) =>
    shop.app.get(OrderStatusService).change(orderId, status, 'test');

  it('creates the parcel, stores the label and notes it when the order reaches the configured status', async () => {
    const order = await placeCarrierAOrder(shop);
    await setStatus(order.id, 'paid');

    const row = await eventually(async () => {
      const found = await autoRow(order.id);
      return found?.state === 'created' ? found : null;
    });
    const shipment = await shop.dataSource.getRepository(CarrierAShipment).findOneByOrFail({ id: row.shipmentId! });
    expect(shipment.orderId).toBe(order.id);
    expect(existsSync(shipment.labelFilePath!)).toBe(true);
    expect(await parcelsAtCarrier()).toHaveLength(1);
    expect((await jobOf(order.id))?.status).toBe('done');
    const labels = await shop.dataSource.getRepository(CarrierALabelMonth).findOneByOrFail({ month: labelMonth() });
    expect(labels.labels).toBe(1);
    const notes = await shop.dataSource.query('SELECT note FROM order_history WHERE orderId = ?', [order.id]);
    expect(notes.map((note: { note: string | null }) => note.note)).toContain(
      `Carrier A parcel ${shipment.parcelNumber} created`,
    );
  });

  it('does nothing on other statuses, for other carriers, or with automation off', async () => {
    const processing = await placeCarrierAOrder(shop);
    await setStatus(processing.id, 'processing');
    const otherCarrier = await placeCarrierAOrder(shop, 'core');
    await setStatus(otherCarrier.id, 'paid');
    await shop.app.get(SettingsService).save({ 'carrier-a.autoCreateStatus': '' });
    const automationOff = await placeCarrierAOrder(shop);
    await setStatus(automationOff.id, 'paid');

    for (const order of [processing, otherCarrier, automationOff]) expect(await jobOf(order.id)).toBeNull();
    expect(await parcelsAtCarrier()).toHaveLength(0);
  });

  it('makes one parcel when the same status change is repeated, also concurrently', async () => {
    // Orders ship at the parcel's first scan here, so the order stays paid and the change can come once more.
    const settings = shop.app.get(SettingsService);
    await settings.save({ shipmentsShipOrderOn: 'first-scan' });
    const order = await placeCarrierAOrder(shop);
    await Promise.all([setStatus(order.id, 'paid'), setStatus(order.id, 'paid'), setStatus(order.id, 'paid')]);
    await eventually(async () => (await autoRow(order.id))?.state === 'created');
    await setStatus(order.id, 'paid');
    await new Promise((resolve) => setTimeout(resolve, 300));
    await settings.save({ shipmentsShipOrderOn: 'parcel' });

    expect(await parcelsAtCarrier()).toHaveLength(1);
    expect(await shop.dataSource.getRepository(CarrierAShipment).countBy({ orderId: order.id })).toBe(1);
    expect(await shop.dataSource.getRepository(Job).countBy({ name: JOB, jobKey: `${JOB}:${order.id}` })).toBe(1);
  });

  it('retries after a carrier outage with backoff and still makes one parcel', async () => {
    await request(shop.server).post(`${CONTROL}/mode`).send({ mode: 'error' }).expect(200);
    const order = await placeCarrierAOrder(shop);
    await setStatus(order.id, 'paid');
    await eventually(async () => ((await jobOf(order.id))?.attempts ?? 0) >= 1 && (await autoRow(order.id))?.lastError);
    const waiting = await autoRow(order.id);
    expect(waiting).toMatchObject({ state: 'pending', shipmentId: null });
    expect(waiting!.lastError).toContain('HTTP 5');
    expect(await parcelsAtCarrier()).toHaveLength(0);
    // The failed call did not use up a label.
    expect((await shop.dataSource.getRepository(CarrierALabelMonth).findOneBy({ month: labelMonth() }))?.labels).toBe(
      0,
    );

    await request(shop.server).post(`${CONTROL}/mode`).send({ mode: 'normal' }).expect(200);
    await eventually(async () => (await autoRow(order.id))?.state === 'created');
    expect(await parcelsAtCarrier()).toHaveLength(1);
    const job = await jobOf(order.id);
    expect(job).toMatchObject({ status: 'done' });
    expect(job!.attempts).toBeGreaterThan(1);
  });

  it('retries when the carrier cannot be reached at all: the request never left', async () => {
    const settings = shop.app.get(SettingsService);
    await settings.save({ 'carrier-a.customUrl': REFUSING_URL });
    const order = await placeCarrierAOrder(shop);
    await setStatus(order.id, 'paid');
    await eventually(async () => (await autoRow(order.id))?.lastError);
    expect(await autoRow(order.id)).toMatchObject({ state: 'pending' });
    expect((await autoRow(order.id))!.lastError).toContain('unreachable');

    await settings.save({ 'carrier-a.customUrl': '' });
    await eventually(async () => (await autoRow(order.id))?.state === 'created');
    expect(await parcelsAtCarrier()).toHaveLength(1);
  });

  it('shows a carrier that stays down as a failed job and a failed automatic shipment', async () => {
    await request(shop.server).post(`${CONTROL}/mode`).send({ mode: 'error' }).expect(200);
    const order = await placeCarrierAOrder(shop);
    await setStatus(order.id, 'paid');
    await eventually(async () => (await jobOf(order.id))?.status === 'failed');
    expect(await jobOf(order.id)).toMatchObject({ attempts: 3 });
    expect(await autoRow(order.id)).toMatchObject({ state: 'failed', shipmentId: null });

    const staff = new ShopClient(shop.server);
    await staff.loginCp();
    expect((await staff.get('/admin/jobs?status=failed')).text).toContain(JOB);
    expect(await parcelsAtCarrier()).toHaveLength(0);
  });

  it('stops without retrying when the carrier may have made a parcel but its answer was lost', async () => {
    await request(shop.server).post(`${CONTROL}/mode`).send({ mode: 'timeout' }).expect(200);
    const order = await placeCarrierAOrder(shop);
    await setStatus(order.id, 'paid');
    await eventually(async () => (await jobOf(order.id))?.status === 'failed', 15_000);

    expect(await jobOf(order.id)).toMatchObject({ attempts: 1 });
    const row = await autoRow(order.id);
    expect(row).toMatchObject({ state: 'unconfirmed', shipmentId: null });
    expect(row!.lastError).toContain('may have created a parcel');
    // The label stays counted: it may exist.
    expect((await shop.dataSource.getRepository(CarrierALabelMonth).findOneBy({ month: labelMonth() }))?.labels).toBe(
      1,
    );
  });

  it('settles an attempt that crashed mid-call: the parcel found, or automation stopped', async () => {
    const crashedAfterParcel = await placeCarrierAOrder(shop);
    const crashedBeforeAnswer = await placeCarrierAOrder(shop);
    const shipment = await shop.app.get(CarrierAShipments).createParcel(crashedAfterParcel.id);
    const rows = shop.dataSource.getRepository(CarrierAAutoShipment);
    await rows.insert([
      { orderId: crashedAfterParcel.id, state: 'calling' },
      { orderId: crashedBeforeAnswer.id, state: 'calling' },
    ]);
    await setStatus(crashedAfterParcel.id, 'paid');
    await setStatus(crashedBeforeAnswer.id, 'paid');

    await eventually(async () => (await autoRow(crashedAfterParcel.id))?.state === 'created');
    expect((await autoRow(crashedAfterParcel.id))!.shipmentId).toBe(shipment.id);
    await eventually(async () => (await jobOf(crashedBeforeAnswer.id))?.status === 'failed');
    expect(await autoRow(crashedBeforeAnswer.id)).toMatchObject({ state: 'unconfirmed' });
    expect(await parcelsAtCarrier()).toHaveLength(1);
  });

  it('stops at the monthly label limit, counting labels staff created too', async () => {
    await shop.app.get(SettingsService).save({ 'carrier-a.labelLimit': 2 });
    const byStaff = await placeCarrierAOrder(shop);
    await shop.app.get(CarrierAShipments).createParcel(byStaff.id);
    const [first, second] = [await placeCarrierAOrder(shop), await placeCarrierAOrder(shop)];
    await setStatus(first.id, 'paid');
    await eventually(async () => (await autoRow(first.id))?.state === 'created');
    await setStatus(second.id, 'paid');
    await eventually(async () => (await autoRow(second.id))?.state === 'skipped');

    expect((await autoRow(second.id))!.lastError).toContain('limit of 2 labels');
    expect(await jobOf(second.id)).toMatchObject({ status: 'done' });
    expect(await parcelsAtCarrier()).toHaveLength(2);
  });

  it('never goes past the label limit when many orders reach the status at once', async () => {
    await shop.app.get(SettingsService).save({ 'carrier-a.labelLimit': 3 });
    const orders: Order[] = [];
    for (let i = 0; i < 6; i++) orders.push(await placeCarrierAOrder(shop));
    await Promise.all(orders.map((order) => setStatus(order.id, 'paid')));
    await eventually(async () => {
      const states = await Promise.all(orders.map(async (order) => (await autoRow(order.id))?.state));
      return states.every((state) => state === 'created' || state === 'skipped') ? states : null;
    });

    expect(await parcelsAtCarrier()).toHaveLength(3);
    const states = await Promise.all(orders.map(async (order) => (await autoRow(order.id))!.state));
    expect(states.filter((state) => state === 'skipped')).toHaveLength(3);
  });
});

// Several instances need MySQL/MariaDB (SQLite is the one-machine, one-process set-up).
if (usingMysql) {
  describe('carrier A automatic shipments with two app instances on MariaDB', () => {
    it('creates exactly one parcel per order when both instances work the queue', async () => {
      const place = await createTestPlace();
      const a = await startTestApp({ place, listen: true });
      const b = await startTestApp({ place, listen: true });
      try {
        await enableCarrierA(a);
        await a.app.get(SettingsService).save({ 'carrier-a.autoCreateStatus': 'paid' });
        await eventually(() => b.app.get(SettingsService).get('carrier-a.autoCreateStatus') === 'paid', 5000);
        const orders: Order[] = [];
        for (let i = 0; i < 8; i++) orders.push(await placeCarrierAOrder(i % 2 ? a : b));
        // Each instance changes half the statuses, and both workers pick jobs up.
        await Promise.all(
          orders.map((order, i) => (i % 2 ? a : b).app.get(OrderStatusService).change(order.id, 'paid', 'test')),
        );
        const rows = a.dataSource.getRepository(CarrierAAutoShipment);
        await eventually(async () => (await rows.countBy({ state: 'created' })) === orders.length, 20_000);

        const carrierCalls = [...(await parcels(a)), ...(await parcels(b))];
        expect(carrierCalls).toHaveLength(orders.length);
        const shipments = await a.dataSource.getRepository(CarrierAShipment).find();
        expect(new Set(shipments.map((shipment) => shipment.orderId)).size).toBe(orders.length);
        expect(shipments).toHaveLength(orders.length);
      } finally {
        await a.app.close();
        await b.app.close();
        await place.dispose();
      }
    });

    async function parcels(app: TestApp): Promise<unknown[]> {
      return (await request(app.server).get(`${CONTROL}/parcels`).expect(200)).body;
    }
  });
}

async function enableCarrierA(app: TestApp): Promise<void> {
  await app.dataSource.getRepository(ShippingMethod).update({ type: 'carrier-a' }, { enabled: true });
  app.app.get(ShippingMethodRegistry).forgetMethods();
}

/** An order waiting for a bank transfer, shipped with carrier A's home delivery (or, with `core`, flat rate). */
async function placeCarrierAOrder(app: TestApp, carrier: 'carrier-a' | 'core' = 'carrier-a'): Promise<Order> {
  const client = new ShopClient(app.server);
  await addToCart(client, (await productBySku(app.dataSource, 'DEMO-HEADLAMP')).id, 1);
  const shippingMethod =
    carrier === 'carrier-a'
      ? await shippingValue(app.dataSource, 'classic', 'carrier-a')
      : await shippingValue(app.dataSource, 'flat-rate');
  await fillCheckout(client, { shippingMethod, paymentMethod: 'bank-transfer-manual' });
  const placed = await placeOrder(client);
  expect(placed.status).toBe(200);
  return app.dataSource.getRepository(Order).findOneByOrFail({ number: placed.body.orderNumber });
}
