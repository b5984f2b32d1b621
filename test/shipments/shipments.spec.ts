import request from 'supertest';
import { OrderHistory } from '../../src/commerce/orders/order-history.entity';
import { Order } from '../../src/commerce/orders/order.entity';
import { ShipmentTracking, TRACKING_BATCH } from '../../src/commerce/shipments/shipment-tracking.service';
import { Shipment } from '../../src/commerce/shipments/shipment.entity';
import { ShipmentsService } from '../../src/commerce/shipments/shipments.service';
import { ShippingMethod } from '../../src/commerce/shipping/shipping-method.entity';
import { ShippingMethodRegistry } from '../../src/commerce/shipping/shipping-method.registry';
import { SettingsService } from '../../src/config/settings.service';
import { CarrierAShipment } from '../../src/plugins/carrier-a/carrier-a-shipment.entity';
import { productBySku } from '../support/catalog';
import { addToCart, fillCheckout, placeOrder, shippingValue } from '../support/checkout';
import { registerCustomer } from '../support/customers';
import { ShopClient } from '../support/shop-client';
import { CapturedMail, mailText, startSmtpCapture, subjectOf } from '../support/smtp-capture';
import { eventually, jobsSettled, startTestApp, TestApp, usingMysql } from '../support/test-app';

const CONTROL = '/_sandbox/carrier-a/_control';
const TRACKING_CALL = 'GET /v1/parcels/{id}/tracking';

/**
 * Shipments in commerce: a carrier A parcel (made from the CP, against the sandbox carrier on loopback) or a manual
 * one staff record moves the order to shipped and mails the shopper once through the job queue; the tracking job
 * follows the parcel to delivery and completes the order; the shopper's order pages show the timeline; a parcel is
 * canceled with the carrier while it allows.
 */
describe(`shipments (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
  let staff: ShopClient;
  let settings: SettingsService;
  let tracking: ShipmentTracking;
  let carrierA: string;
  let flatRate: string;
  let shopper = 0;

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    shop = await startTestApp({ listen: true, env: { SMTP_URL: smtp.url } });
    const methods = shop.dataSource.getRepository(ShippingMethod);
    await methods.update({ type: 'carrier-a' }, { enabled: true });
    shop.app.get(ShippingMethodRegistry).forgetMethods();
    carrierA = await shippingValue(shop.dataSource, 'classic', 'carrier-a');
    flatRate = await shippingValue(shop.dataSource, 'flat-rate');
    settings = shop.app.get(SettingsService);
    tracking = shop.app.get(ShipmentTracking);
    staff = new ShopClient(shop.server);
    await staff.loginCp();
  });
  afterAll(async () => {
    await shop?.close();
    await smtp?.close();
  });
  afterEach(async () => {
    await jobsSettled(shop);
    await request(shop.server).post(`${CONTROL}/reset`).expect(200);
    await settings.save({ shipmentsShipOrderOn: 'parcel', shipmentsShippedMail: true });
  });

  /** An order placed through checkout with cash on delivery (so `processing`), by a shopper of its own. */
  async function placedOrder(shippingMethod = carrierA, client = new ShopClient(shop.server)): Promise<Order> {
    await addToCart(client, (await productBySku(shop.dataSource, 'DEMO-HEADLAMP')).id, 1);
    await fillCheckout(client, { email: `shipments${++shopper}@example.com`, shippingMethod, paymentMethod: 'cod' });
    const placed = await placeOrder(client);
    expect(placed.status).toBe(200);
    const order = await shop.dataSource.getRepository(Order).findOneByOrFail({ number: placed.body.orderNumber });
    expect(order.status).toBe('processing');
    return order;
  }

  /** "Create carrier A parcel" on the CP order page, confirmed (some orders get a second); the shipment it reported. */
  async function parcelFromCp(order: Order): Promise<Shipment> {
    const res = await staff.submitForm(`/admin/carrier-a/shipments/create/${order.id}`, { another: 'on' });
    expect(res.status).toBe(303);
    return shop.dataSource
      .getRepository(Shipment)
      .findOneOrFail({ where: { orderId: order.id }, order: { id: 'DESC' } });
  }

  const orderNow = (order: Order) => shop.dataSource.getRepository(Order).findOneByOrFail({ id: order.id });
  const shipmentNow = (shipment: Shipment) =>
    shop.dataSource.getRepository(Shipment).findOneByOrFail({ id: shipment.id });
  const moves = async (order: Order) =>
    (await shop.dataSource.getRepository(OrderHistory).find({ where: { orderId: order.id }, order: { id: 'ASC' } }))
      // What shipping did, after checkout's own moves.
      .filter((row) => row.toStatus !== null && row.fromStatus !== null && row.fromStatus !== 'pending_payment')
      .map((row) => `${row.fromStatus} → ${row.toStatus} (${row.actor}): ${row.note}`);
  const advance = (shipment: Shipment, steps: number) =>
    request(shop.server).post(`${CONTROL}/parcels/${shipment.externalId}/advance`).send({ steps }).expect(200);
  const trackingCalls = async () =>
    ((await request(shop.server).get(`${CONTROL}/stats`).expect(200)).body.requests[TRACKING_CALL] as number) ?? 0;
  /** The tracking job's run as if every parcel's next check had come: each call a day further on. */
  let daysOn = 0;
  const refreshLater = () => tracking.refreshDue(Date.now() + ++daysOn * 24 * 60 * 60 * 1000);

  /** The shipping e-mails that reached `order`'s shopper, once every queued job has run. */
  async function shippingMails(order: Order): Promise<CapturedMail[]> {
    await jobsSettled(shop);
    return smtp.messages.filter((mail) => mail.to.includes(order.email));
  }
  const confirmations = (mails: CapturedMail[]) =>
    mails.filter((mail) => /^Your order [A-Z0-9]+ at Demo Outdoor & Coffee$/.test(subjectOf(mail)));
  const shipped = (mails: CapturedMail[]) => mails.filter((mail) => / is on its way$/.test(subjectOf(mail)));

  it('ships the order when a carrier A parcel is made, and mails the tracking link once', async () => {
    const order = await placedOrder();
    const shipment = await parcelFromCp(order);
    const parcel = await shop.dataSource.getRepository(CarrierAShipment).findOneByOrFail({ orderId: order.id });
    expect(shipment).toMatchObject({
      carrier: 'carrier-a',
      carrierName: 'Carrier A',
      externalId: parcel.parcelId,
      trackingNumber: parcel.parcelNumber,
      trackingUrl: `https://tracking.carrier-a.example/${parcel.parcelNumber}`,
      status: 'created',
    });
    expect((await orderNow(order)).status).toBe('shipped');
    expect(await moves(order)).toEqual([`processing → shipped (carrier-a): Shipped: Carrier A ${parcel.parcelNumber}`]);

    await eventually(async () => shipped(await shippingMails(order)).length === 1);
    const [mail] = shipped(await shippingMails(order));
    expect(subjectOf(mail)).toBe(`Your order ${order.reference} at Demo Outdoor & Coffee is on its way`);
    const text = mailText(mail);
    expect(text).toContain(`Carrier A, parcel ${parcel.parcelNumber}: ${shipment.trackingUrl}`);
    expect(text).toContain(`Follow your order: ${shop.config.baseUrl}/shop/order/view/${order.number}`);

    // A second parcel for the same order (staff's resync) tells the shopper nothing new.
    const resync = await staff.submitForm(`/admin/carrier-a/shipments/resync/${parcel.id}`, {});
    expect(resync.status).toBe(303);
    expect(await shop.dataSource.getRepository(Shipment).countBy({ orderId: order.id })).toBe(2);
    expect(shipped(await shippingMails(order))).toHaveLength(1);
    expect(confirmations(await shippingMails(order))).toHaveLength(1);
  });

  it('writes the shipping e-mail in the language the shopper ordered in, and none when switched off', async () => {
    const client = new ShopClient(shop.server);
    expect((await client.submitForm('/shop/language/set', { language: 'sk' })).status).toBe(303);
    const order = await placedOrder(carrierA, client);
    expect(order.language).toBe('sk');
    await parcelFromCp(order);
    const slovak = async () => (await shippingMails(order)).filter((mail) => /je na ceste/.test(mailText(mail)));
    await eventually(async () => (await slovak()).length === 1);
    const text = mailText((await slovak())[0]);
    expect(text).toContain(
      `Dobrá správa: vaša objednávka ${order.reference} v obchode Demo Outdoor & Coffee je na ceste.`,
    );
    expect(text).toContain(`Sledujte svoju objednávku: ${shop.config.baseUrl}/shop/order/view/${order.number}`);

    await settings.save({ shipmentsShippedMail: false });
    const quiet = await placedOrder();
    await parcelFromCp(quiet);
    expect((await orderNow(quiet)).status).toBe('shipped');
    await eventually(async () => confirmations(await shippingMails(quiet)).length === 1);
    expect(shipped(await shippingMails(quiet))).toEqual([]);
  });

  it('follows a parcel to delivery with the tracking job and completes its order', async () => {
    const order = await placedOrder();
    const shipment = await parcelFromCp(order);
    // Not due yet: a parcel made a moment ago is first looked at half an hour later.
    expect(await tracking.refreshDue()).toBe(0);
    expect(await trackingCalls()).toBe(0);

    // The first check brings the parcel's first event; the next is half an hour on.
    const first = Date.now() + 31 * 60 * 1000;
    expect(await tracking.refreshDue(first)).toBe(1);
    expect(await shipmentNow(shipment)).toMatchObject({
      status: 'created',
      events: [expect.objectContaining({ code: 'CREATED', description: 'Parcel data received' })],
      trackingMisses: 0,
      trackingCheckAt: first + 30 * 60 * 1000,
    });
    // Nothing new: the next check is put off twice as far.
    const second = first + 31 * 60 * 1000;
    expect(await tracking.refreshDue(second)).toBe(0);
    expect(await shipmentNow(shipment)).toMatchObject({ trackingMisses: 1, trackingCheckAt: second + 60 * 60 * 1000 });

    // The periodic job's run picks up what is due, through carrier A's tracking API.
    await advance(shipment, 10);
    await shop.dataSource.getRepository(Shipment).update(shipment.id, { trackingCheckAt: Date.now() - 1 });
    await tracking.tick();
    await jobsSettled(shop);
    const delivered = await shipmentNow(shipment);
    expect(delivered).toMatchObject({ status: 'delivered', trackingCheckAt: null, trackingMisses: 0 });
    expect(delivered.deliveredAt).toEqual(expect.any(Number));
    expect(delivered.events.map((event) => event.code)).toEqual([
      'CREATED',
      'PICKED_UP',
      'IN_TRANSIT',
      'OUT_FOR_DELIVERY',
      'DELIVERED',
    ]);
    expect((await orderNow(order)).status).toBe('completed');
    expect((await moves(order)).at(-1)).toBe(
      `shipped → completed (carrier-a): Delivered: Carrier A ${shipment.trackingNumber}`,
    );
    // The plugin's own record follows too.
    expect(
      (await shop.dataSource.getRepository(CarrierAShipment).findOneByOrFail({ parcelId: shipment.externalId! }))
        .status,
    ).toBe('DELIVERED');
  });

  it("hears of a delivery when staff look at the parcel on carrier A's own page", async () => {
    const order = await placedOrder();
    const shipment = await parcelFromCp(order);
    await advance(shipment, 10);
    const parcel = await shop.dataSource.getRepository(CarrierAShipment).findOneByOrFail({ orderId: order.id });
    const page = await staff.get(`/admin/carrier-a/shipments/${parcel.id}`).set('Accept', 'text/html').expect(200);
    expect(page.text).toContain('Delivered');
    expect((await shipmentNow(shipment)).status).toBe('delivered');
    expect((await orderNow(order)).status).toBe('completed');
  });

  it('backs off a parcel the carrier cannot answer for, and checks a bounded batch per run', async () => {
    const order = await placedOrder();
    const shipment = await parcelFromCp(order);
    await request(shop.server).post(`${CONTROL}/mode`).send({ mode: 'error' }).expect(200);
    const now = Date.now() + 31 * 60 * 1000;
    expect(await tracking.refreshDue(now)).toBe(0);
    expect(await shipmentNow(shipment)).toMatchObject({
      status: 'created',
      trackingMisses: 1,
      trackingCheckAt: now + 60 * 60 * 1000,
    });
    await request(shop.server).post(`${CONTROL}/mode`).send({ mode: 'normal' }).expect(200);

    // Parcels the carrier does not know (a plugin's lost record) fail one by one, each put off on its own.
    const rows = shop.dataSource.getRepository(Shipment);
    await rows.save(
      Array.from({ length: TRACKING_BATCH + 5 }, (_, index) =>
        rows.create({
          orderId: order.id,
          carrier: 'carrier-a',
          carrierName: 'Carrier A',
          externalId: `unknown-${index}`,
          trackingNumber: `0${index}`,
          trackingUrl: null,
          status: 'in_transit',
          events: [],
          trackingCheckAt: 1000 + index,
          trackingMisses: 0,
          deliveredAt: null,
          actor: 'test',
        }),
      ),
    );
    await tracking.refreshDue();
    const stillDue = await rows.find({ where: { orderId: order.id, status: 'in_transit' }, order: { id: 'ASC' } });
    const waiting = stillDue.filter((row) => row.trackingCheckAt! < Date.now());
    expect(waiting.map((row) => row.externalId)).toEqual([
      'unknown-50',
      'unknown-51',
      'unknown-52',
      'unknown-53',
      'unknown-54',
    ]);
    await rows.delete({ orderId: order.id, status: 'in_transit' });
  });

  it('records a parcel reported several times at once only once, and completes its order once', async () => {
    const order = await placedOrder(flatRate);
    const shipments = shop.app.get(ShipmentsService);
    const report = {
      orderId: order.id,
      carrier: 'carrier-a',
      carrierName: 'Carrier A',
      externalId: `race-${order.id}`,
      trackingNumber: 'RACE1',
      trackingUrl: null,
    };
    const recorded = await Promise.all([1, 2, 3].map(() => shipments.reportParcel(report)));
    expect(new Set(recorded.map((shipment) => shipment.id)).size).toBe(1);
    expect(await shop.dataSource.getRepository(Shipment).countBy({ orderId: order.id })).toBe(1);
    expect(await moves(order)).toEqual(['processing → shipped (carrier-a): Shipped: Carrier A RACE1']);
    await eventually(async () => shipped(await shippingMails(order)).length === 1);
    // Without a tracking page of the carrier's, the e-mail links the order page.
    expect(mailText(shipped(await shippingMails(order))[0])).toContain(
      `Carrier A, parcel RACE1: ${shop.config.baseUrl}/shop/order/view/${order.number}`,
    );

    // Two tracking runs bring the same news at once: one of them records it.
    const delivered = {
      status: 'delivered' as const,
      events: [{ code: 'DELIVERED', description: 'Delivered', location: null, timestamp: null }],
    };
    const changed = await Promise.all([
      shipments.recordTracking(recorded[0].id, delivered),
      shipments.recordTracking(recorded[0].id, delivered),
    ]);
    expect(changed.sort()).toEqual([false, true]);
    expect(await moves(order)).toEqual([
      'processing → shipped (carrier-a): Shipped: Carrier A RACE1',
      'shipped → completed (carrier-a): Delivered: Carrier A RACE1',
    ]);
  });

  it('ships on the first scan when so set', async () => {
    await settings.save({ shipmentsShipOrderOn: 'first-scan' });
    const order = await placedOrder();
    const shipment = await parcelFromCp(order);
    expect((await orderNow(order)).status).toBe('processing');
    await refreshLater();
    expect((await orderNow(order)).status).toBe('processing');
    expect(shipped(await shippingMails(order))).toEqual([]);

    await advance(shipment, 1);
    expect(await refreshLater()).toBe(1);
    expect((await shipmentNow(shipment)).status).toBe('in_transit');
    expect((await orderNow(order)).status).toBe('shipped');
    expect(await moves(order)).toEqual([
      `processing → shipped (carrier-a): Shipped: Carrier A ${shipment.trackingNumber}`,
    ]);
    await eventually(async () => shipped(await shippingMails(order)).length === 1);
  });

  it('records a manual shipment from the CP order page: the order ships, the shopper is mailed, staff mark it delivered', async () => {
    const order = await placedOrder(flatRate);
    const orderPage = `/admin/orders/${order.id}`;
    const added = await staff.submitForm(`${orderPage}/shipments`, {
      carrierName: ' Slovak Post ',
      trackingNumber: 'RR123456789SK',
      trackingUrl: 'https://tandt.posta.example/RR123456789SK',
    });
    expect(added.status).toBe(303);
    expect(added.headers.location).toBe(orderPage);
    const shipment = await shop.dataSource.getRepository(Shipment).findOneByOrFail({ orderId: order.id });
    expect(shipment).toMatchObject({
      carrier: 'manual',
      carrierName: 'Slovak Post',
      externalId: null,
      status: 'in_transit',
      trackingCheckAt: null,
    });
    expect((await orderNow(order)).status).toBe('shipped');
    expect(await moves(order)).toEqual([
      'processing → shipped (cp:admin@example.com): Shipped: Slovak Post RR123456789SK',
    ]);
    await eventually(async () => shipped(await shippingMails(order)).length === 1);
    expect(mailText(shipped(await shippingMails(order))[0])).toContain(
      'Slovak Post, parcel RR123456789SK: https://tandt.posta.example/RR123456789SK',
    );

    const page = await staff.get(orderPage).set('Accept', 'text/html').expect(200);
    expect(page.text).toContain('Shipment Slovak Post RR123456789SK recorded.');
    expect(page.text).toContain(
      '<a href="https://tandt.posta.example/RR123456789SK" rel="noopener noreferrer" target="_blank">RR123456789SK</a>',
    );
    expect(page.text).toContain(`action="/admin/orders/${order.id}/shipments/${shipment.id}/delivered"`);

    const done = await staff.post(`${orderPage}/shipments/${shipment.id}/delivered`);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({
      success: true,
      message: 'Shipment Slovak Post RR123456789SK marked delivered.',
      shipment: { id: shipment.id, status: 'delivered' },
    });
    expect((await orderNow(order)).status).toBe('completed');
  });

  it("shows a manual shipment's own timeline on the guest order view: handed over, then delivered", async () => {
    const client = new ShopClient(shop.server);
    const order = await placedOrder(flatRate, client);
    const orderPage = `/admin/orders/${order.id}`;
    const added = await staff.submitForm(`${orderPage}/shipments`, {
      carrierName: 'Slovak Post',
      trackingNumber: 'RR1SK',
    });
    expect(added.status).toBe(303);
    const shipment = await shop.dataSource.getRepository(Shipment).findOneByOrFail({ orderId: order.id });
    expect(shipment.events).toEqual([
      { code: 'IN_TRANSIT', description: 'Handed to the carrier', location: null, timestamp: expect.any(String) },
    ]);
    expect((await staff.post(`${orderPage}/shipments/${shipment.id}/delivered`)).status).toBe(200);
    const delivered = await shop.dataSource.getRepository(Shipment).findOneByOrFail({ id: shipment.id });
    expect(delivered.events.map((event) => event.code)).toEqual(['IN_TRANSIT', 'DELIVERED']);
    expect(Date.parse(delivered.events[1].timestamp!)).toBeGreaterThanOrEqual(
      Date.parse(shipment.events[0].timestamp!),
    );

    const steps = async () => {
      const page = await client.get(`/shop/order/view/${order.number}`).set('Accept', 'text/html').expect(200);
      const timeline = /<ol class="tracking-timeline">([\s\S]*?)<\/ol>/.exec(page.text)![1];
      return [...timeline.matchAll(/<li><time datetime="([^"]+)">[^<]+<\/time> · ([^<]+)<\/li>/g)].map((step) => [
        step[1],
        step[2],
      ]);
    };
    expect(await steps()).toEqual([
      [delivered.events[1].timestamp, 'Delivered'],
      [delivered.events[0].timestamp, 'Handed to the carrier'],
    ]);
    expect((await client.submitForm('/shop/language/set', { language: 'sk' })).status).toBe(303);
    expect((await steps()).map(([, step]) => step)).toEqual(['Doručená', 'Odovzdaná dopravcovi']);
    const staffPage = await staff.get(orderPage).set('Accept', 'text/html').expect(200);
    expect(staffPage.text).toContain('Handed to the carrier</li>');

    // One recorded by mistake and canceled: its timeline says so, for staff; the shopper's pages leave it out.
    await staff.submitForm(`${orderPage}/shipments`, { carrierName: 'Slovak Post', trackingNumber: 'RR2SK' });
    const mistake = await shop.dataSource.getRepository(Shipment).findOneByOrFail({ trackingNumber: 'RR2SK' });
    expect((await staff.post(`${orderPage}/shipments/${mistake.id}/cancel`)).status).toBe(200);
    const canceled = await shop.dataSource.getRepository(Shipment).findOneByOrFail({ id: mistake.id });
    expect(canceled.events.map((event) => [event.code, event.description])).toEqual([
      ['IN_TRANSIT', 'Handed to the carrier'],
      ['CANCELED', 'Canceled'],
    ]);
    expect(await steps()).toHaveLength(2);
  });

  it('mails the tracking link of a shipment recorded after staff marked the order shipped', async () => {
    const order = await placedOrder(flatRate);
    await staff.post(`/admin/orders/${order.id}/status`, { status: 'shipped' });
    expect((await orderNow(order)).status).toBe('shipped');
    expect(shipped(await shippingMails(order))).toEqual([]);

    const added = await staff.post(`/admin/orders/${order.id}/shipments`, {
      carrierName: 'Post',
      trackingNumber: 'RR2',
    });
    expect(added.status).toBe(200);
    await eventually(async () => shipped(await shippingMails(order)).length === 1);
    expect(mailText(shipped(await shippingMails(order))[0])).toContain('Post, parcel RR2:');
  });

  it('refuses a manual shipment that is not one, and one for an order that cannot ship', async () => {
    const order = await placedOrder(flatRate);
    const bad = await staff.post(`/admin/orders/${order.id}/shipments`, {
      carrierName: '',
      trackingNumber: 'RR1',
      trackingUrl: 'javascript:alert(1)',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('validation_failed');
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['carrierName', 'trackingUrl']);

    await staff.post(`/admin/orders/${order.id}/status`, { status: 'canceled' });
    expect((await orderNow(order)).status).toBe('canceled');
    const refused = await staff.post(`/admin/orders/${order.id}/shipments`, {
      carrierName: 'Post',
      trackingNumber: 'RR1',
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toEqual({
      code: 'illegal_transition',
      message: 'An order in status canceled cannot become shipped.',
    });
    await staff.post('/admin/orders/999999/shipments', { carrierName: 'Post', trackingNumber: 'RR1' }).then((res) => {
      expect(res.status).toBe(404);
    });
    expect(await shop.dataSource.getRepository(Shipment).countBy({ orderId: order.id })).toBe(0);
  });

  it("shows the shipments and their tracking timeline on the shopper's order pages", async () => {
    const client = new ShopClient(shop.server);
    await registerCustomer(client);
    const order = await placedOrder(carrierA, client);
    const shipment = await parcelFromCp(order);
    await advance(shipment, 2);
    expect(await refreshLater()).toBe(1);

    const pages = [`/shop/order/view/${order.number}`, `/shop/account/my-order?number=${order.number}`];
    for (const path of pages) {
      const page = await client.get(path).set('Accept', 'text/html').expect(200);
      expect(page.text).toContain(`<code class="tracking-number">${shipment.trackingNumber}</code>`);
      expect(page.text).toContain(`<span class="shipment-status">On its way</span>`);
      expect(page.text).toContain(`<a class="tracking-link" href="${shipment.trackingUrl}"`);
      const timeline = /<ol class="tracking-timeline">([\s\S]*?)<\/ol>/.exec(page.text)![1];
      const steps = [...timeline.matchAll(/<li>.*? · ([^<]+)<\/li>/g)].map((step) => step[1]);
      expect(steps).toEqual([
        'Parcel in transit, Hub Bratislava',
        'Parcel picked up from the sender, Hub Bratislava',
        'Parcel data received',
      ]);
    }
  });

  it('cancels a parcel with the carrier before pick-up, taking the order back to processing, and not after', async () => {
    const order = await placedOrder();
    const shipment = await parcelFromCp(order);
    const canceled = await staff.post(`/admin/orders/${order.id}/shipments/${shipment.id}/cancel`);
    expect(canceled.status).toBe(200);
    expect(canceled.body.shipment).toEqual({ id: shipment.id, status: 'canceled' });
    const parcel = (await request(shop.server).get(`/_sandbox/carrier-a/_control/parcels`).expect(200)).body.find(
      (one: { id: string }) => one.id === shipment.externalId,
    );
    expect(parcel.canceledAt).toEqual(expect.any(Number));
    expect((await orderNow(order)).status).toBe('processing');
    expect((await moves(order)).at(-1)).toBe(
      `shipped → processing (cp:admin@example.com): Carrier A ${shipment.trackingNumber} canceled`,
    );
    // Canceled again (a double click) changes nothing, and the tracking job leaves it alone.
    const again = await staff.post(`/admin/orders/${order.id}/shipments/${shipment.id}/cancel`);
    expect(again.body.shipment).toEqual({ id: shipment.id, status: 'canceled' });
    expect((await moves(order)).filter((move) => move.includes('canceled'))).toHaveLength(1);
    expect((await shipmentNow(shipment)).trackingCheckAt).toBeNull();

    // Once picked up, the carrier refuses: staff are told, and nothing changes here.
    const second = await parcelFromCp(order);
    expect((await orderNow(order)).status).toBe('shipped');
    await advance(second, 1);
    await refreshLater();
    const refused = await staff.post(`/admin/orders/${order.id}/shipments/${second.id}/cancel`);
    expect(refused.status).toBe(502);
    expect(refused.body.error.code).toBe('upstream_failed');
    expect(refused.body.error.message).toContain('is PICKED_UP and cannot be canceled');
    expect((await shipmentNow(second)).status).toBe('in_transit');
    expect((await orderNow(order)).status).toBe('shipped');

    // A browser is sent back to the order page with the carrier's words.
    const form = await staff.submitForm(`/admin/orders/${order.id}/shipments/${second.id}/cancel`, {});
    expect(form.status).toBe(303);
    const page = await staff.get(form.headers.location as string).set('Accept', 'text/html');
    expect(page.text).toContain('is PICKED_UP and cannot be canceled');
  });
});
