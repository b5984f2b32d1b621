import { existsSync, readFileSync, rmSync } from 'node:fs';
import request from 'supertest';
import { OrderHistory } from '../../src/commerce/orders/order-history.entity';
import { Order } from '../../src/commerce/orders/order.entity';
import { ShippingMethod } from '../../src/commerce/shipping/shipping-method.entity';
import { ShippingMethodRegistry } from '../../src/commerce/shipping/shipping-method.registry';
import { SettingsService } from '../../src/config/settings.service';
import { CarrierAShipment } from '../../src/plugins/carrier-a/carrier-a-shipment.entity';
import { CarrierAShipments } from '../../src/plugins/carrier-a/carrier-a-shipments.service';
import { CarrierAConfigurationError } from '../../src/plugins/carrier-a/carrier-a.errors';
import { productBySku } from '../support/catalog';
import { addToCart, fillCheckout, placeOrder } from '../support/checkout';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp, usingMysql } from '../support/test-app';

const CONTROL = '/_sandbox/carrier-a/_control';

/** Parcels for orders: the payload the carrier receives, the shipment record, the label on disk, the order note. */
describe(`carrier A shipments (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let shipments: CarrierAShipments;
  let classic: string;
  beforeAll(async () => {
    shop = await startTestApp({ listen: true });
    shipments = shop.app.get(CarrierAShipments);
    const rows = shop.dataSource.getRepository(ShippingMethod);
    await rows.update({ type: 'carrier-a' }, { enabled: true });
    shop.app.get(ShippingMethodRegistry).forgetMethods();
    classic = `carrier-a:classic:${(await rows.findOneByOrFail({ type: 'carrier-a', handle: 'classic' })).id}`;
  });
  afterAll(() => shop.close());
  afterEach(() => request(shop.server).post(`${CONTROL}/reset`).expect(200));

  async function order(paymentMethod = 'cod'): Promise<Order> {
    const client = new ShopClient(shop.server);
    await addToCart(client, (await productBySku(shop.dataSource, 'DEMO-HEADLAMP')).id, 2);
    await fillCheckout(client, { shippingMethod: classic, paymentMethod });
    const placed = await placeOrder(client);
    expect(placed.status).toBe(200);
    return shop.dataSource.getRepository(Order).findOneByOrFail({ number: placed.body.orderNumber });
  }
  const sentParcels = async () => (await request(shop.server).get(`${CONTROL}/parcels`).expect(200)).body;

  it('registers an unpaid order as a CLASSIC parcel with cash on delivery, stores the label and notes the number', async () => {
    const placed = await order();
    const shipment = await shipments.createParcel(placed.id);

    const [sent] = await sentParcels();
    expect(sent.body).toEqual({
      reference: placed.number,
      sender: {
        name: expect.any(String),
        street: 'Hlavná 12',
        city: 'Bratislava',
        zipCode: '81101',
        countryCode: 'SK',
      },
      recipient: {
        name: 'Ada Lovelace',
        street: 'Hlavná 1',
        city: 'Bratislava',
        zipCode: '81101',
        countryCode: 'SK',
        phone: '+421 900 123 456',
        email: 'ada@example.com',
      },
      parcels: [{ weight: placed.weightGrams > 0 ? Math.round(placed.weightGrams / 100) / 10 : 1 }],
      service: { type: 'CLASSIC' },
      cod: { amount: placed.total / 100, currency: 'EUR', variableSymbol: String(placed.id) },
    });

    const stored = await shop.dataSource.getRepository(CarrierAShipment).findOneByOrFail({ orderId: placed.id });
    expect(stored).toMatchObject({
      id: shipment.id,
      parcelId: sent.id,
      parcelNumber: sent.parcelNumber,
      status: 'CREATED',
      service: 'CLASSIC',
      pickupPointId: null,
      codAmount: placed.total,
      payload: sent.body,
      response: { id: sent.id, parcelNumber: sent.parcelNumber, status: 'CREATED' },
    });
    expect(stored.labelFilePath).toContain(shop.config.dataDir);
    expect(readFileSync(stored.labelFilePath!).subarray(0, 5).toString()).toBe('%PDF-');
    const notes = await shop.dataSource.getRepository(OrderHistory).findBy({ orderId: placed.id, actor: 'carrier-a' });
    // The parcel also reported the order's shipment, which shipped it.
    expect(notes.map((note) => note.note)).toEqual([
      `Carrier A parcel ${sent.parcelNumber} created`,
      `Shipped: Carrier A ${sent.parcelNumber}`,
    ]);
  });

  it('sends a paid ParcelShop order without cash on delivery, at the default weight when the order has none', async () => {
    const placed = await order('bank-transfer-manual');
    const parcelShop = await shop.dataSource
      .getRepository(ShippingMethod)
      .findOneByOrFail({ type: 'carrier-a', handle: 'parcelshop' });
    await shop.dataSource.getRepository(Order).update(placed.id, {
      status: 'paid',
      weightGrams: 0,
      shippingMethod: `carrier-a:parcelshop:${parcelShop.id}`,
      pickupPoint: { id: 'SK12345', name: 'Corner Shop 1' },
    });
    await shop.app.get(SettingsService).save({ 'carrier-a.defaultWeight': 2500 });
    const shipment = await shipments.createParcel(placed.id);
    const [sent] = await sentParcels();
    expect(sent.body.service).toEqual({ type: 'PARCELSHOP', pickupPointId: 'SK12345' });
    expect(sent.body.parcels).toEqual([{ weight: 2.5 }]);
    expect(sent.body).not.toHaveProperty('cod');
    expect(shipment).toMatchObject({ service: 'PARCELSHOP', pickupPointId: 'SK12345', codAmount: null });
  });

  it('serves the stored label before asking the carrier, and fetches it again when the file is gone', async () => {
    const shipment = await shipments.createParcel((await order()).id);
    const labelRequests = async () =>
      (await request(shop.server).get(`${CONTROL}/stats`).expect(200)).body.requests['GET /v1/parcels/{id}/label'];
    expect(await labelRequests()).toBe(1);
    expect((await shipments.label(shipment)).subarray(0, 5).toString()).toBe('%PDF-');
    expect(await labelRequests()).toBe(1);
    rmSync(shipment.labelFilePath!);
    expect((await shipments.label(shipment)).subarray(0, 5).toString()).toBe('%PDF-');
    expect(await labelRequests()).toBe(2);
    expect(existsSync(shipment.labelFilePath!)).toBe(true);
  });

  it('refreshes the status from tracking and gives the timeline oldest first', async () => {
    const shipment = await shipments.createParcel((await order()).id);
    expect(await shipments.refreshTracking(shipment)).toEqual([
      { status: 'CREATED', description: 'Parcel data received', location: null, timestamp: expect.any(String) },
    ]);
    await request(shop.server).post(`${CONTROL}/parcels/${shipment.parcelId}/advance`).send({ steps: 2 }).expect(200);
    const timeline = await shipments.refreshTracking(shipment);
    expect(timeline.map((step) => step.status)).toEqual(['CREATED', 'PICKED_UP', 'IN_TRANSIT']);
    expect(timeline[2].location).toEqual(expect.any(String));
    const stored = await shop.dataSource.getRepository(CarrierAShipment).findOneByOrFail({ id: shipment.id });
    expect(stored.status).toBe('IN_TRANSIT');
  });

  it('raises a configuration error and stores nothing when the carrier fails', async () => {
    const placed = await order();
    await request(shop.server).post(`${CONTROL}/mode`).send({ mode: 'error' }).expect(200);
    await expect(shipments.createParcel(placed.id)).rejects.toThrow(CarrierAConfigurationError);
    await expect(shipments.createParcel(placed.id)).rejects.toThrow(/HTTP 503: Service temporarily unavailable/);
    expect(await shop.dataSource.getRepository(CarrierAShipment).countBy({ orderId: placed.id })).toBe(0);
    await expect(shipments.createParcel(999_999)).rejects.toThrow('there is no order 999999');
  });
});
