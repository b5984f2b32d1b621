import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { OrderHistory } from '../../src/commerce/orders/order-history.entity';
import { Order } from '../../src/commerce/orders/order.entity';
import { ShippingMethod } from '../../src/commerce/shipping/shipping-method.entity';
import { ShippingMethodRegistry } from '../../src/commerce/shipping/shipping-method.registry';
import { CpUsersService } from '../../src/commerce/staff/cp-users.service';
import { CarrierAAutoShipment } from '../../src/plugins/carrier-a/carrier-a-auto-shipment.entity';
import { CarrierAParcelClaim } from '../../src/plugins/carrier-a/carrier-a-parcel-claim.entity';
import { CarrierAShipment } from '../../src/plugins/carrier-a/carrier-a-shipment.entity';
import { CarrierAClient } from '../../src/plugins/carrier-a/carrier-a.client';
import { productBySku } from '../support/catalog';
import { addToCart, ADDRESS, fillCheckout, placeOrder } from '../support/checkout';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp, usingMysql } from '../support/test-app';

const CONTROL = '/_sandbox/carrier-a/_control';
const SHIPMENTS = '/admin/carrier-a/shipments';
const LABEL_CALL = 'GET /v1/parcels/{id}/label';

/** A binary body as a Buffer, whatever its content type. */
const bytes = (res: request.Response, done: (error: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
};

/**
 * Carrier A's CP shipment screens against the sandbox carrier on loopback: who may open them, creating a
 * parcel for an order, the list with its filters and CSV export, the detail, the label (stored, served from
 * disk, deleted and fetched again), tracking refresh, resync, and what staff see when the carrier is down.
 */
describe(`carrier A CP shipments (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let staff: ShopClient;
  let classic: string;
  beforeAll(async () => {
    shop = await startTestApp({ listen: true });
    const methods = shop.dataSource.getRepository(ShippingMethod);
    await methods.update({ type: 'carrier-a' }, { enabled: true });
    shop.app.get(ShippingMethodRegistry).forgetMethods();
    classic = `carrier-a:classic:${(await methods.findOneByOrFail({ type: 'carrier-a', handle: 'classic' })).id}`;
    staff = new ShopClient(shop.server);
    await staff.loginCp();
  });
  afterAll(() => shop.close());
  afterEach(() => sandbox().post(`${CONTROL}/reset`).expect(200));

  const sandbox = () => request(shop.server);
  const sentParcels = async () => (await sandbox().get(`${CONTROL}/parcels`).expect(200)).body as Array<{ id: string }>;
  const labelCalls = async () =>
    ((await sandbox().get(`${CONTROL}/stats`).expect(200)).body.requests[LABEL_CALL] as number | undefined) ?? 0;
  const carrierMode = (mode: string) => sandbox().post(`${CONTROL}/mode`).send({ mode }).expect(200);
  const rows = () => shop.dataSource.getRepository(CarrierAShipment);
  const page = (path: string, client = staff) => client.get(path).set('Accept', 'text/html');

  /** An order placed through checkout with carrier A Classic and cash on delivery. */
  async function placedOrder(name = { firstName: 'Ada', lastName: 'Lovelace' }): Promise<Order> {
    const client = new ShopClient(shop.server);
    await addToCart(client, (await productBySku(shop.dataSource, 'DEMO-HEADLAMP')).id, 2);
    await fillCheckout(client, { shippingMethod: classic, paymentMethod: 'cod', address: { ...ADDRESS, ...name } });
    const placed = await placeOrder(client);
    expect(placed.status).toBe(200);
    return shop.dataSource.getRepository(Order).findOneByOrFail({ number: placed.body.orderNumber });
  }

  /** A form post that must redirect; the page it redirects to (with its flash messages). */
  async function submit(path: string, client = staff, fields: Record<string, string> = {}) {
    const res = await client.submitForm(path, fields);
    expect(res.status).toBe(303);
    const location = res.headers.location as string;
    return { location, next: await page(location, client) };
  }

  /** "Create carrier A parcel" on the order page, confirmed (some orders here get several); the new shipment. */
  async function createFromCp(order: Order): Promise<CarrierAShipment> {
    const { location, next } = await submit(`${SHIPMENTS}/create/${order.id}`, staff, { another: 'on' });
    const shipment = await rows().findOneOrFail({ where: { orderId: order.id }, order: { id: 'DESC' } });
    expect(location).toBe(`${SHIPMENTS}/${shipment.id}`);
    expect(next.status).toBe(200);
    expect(next.text).toContain(
      `<p class="flash flash-success" role="status">Carrier A parcel ${shipment.parcelNumber} created for order ${order.reference}.</p>`,
    );
    return shipment;
  }

  /** The shipment ids a list page links to, in the order shown. */
  const listedIds = (html: string) =>
    [...html.matchAll(/href="\/admin\/carrier-a\/shipments\/(\d+)"/g)].map((match) => Number(match[1]));

  describe('access', () => {
    it('sends a visitor without a CP session to the CP login', async () => {
      const list = await sandbox().get(`${SHIPMENTS}?status=CREATED`).expect(302);
      expect(list.headers.location).toBe('/admin/login?next=%2Fadmin%2Fcarrier-a%2Fshipments%3Fstatus%3DCREATED');
      const label = await sandbox().get(`${SHIPMENTS}/1/label`).expect(302);
      expect(label.headers.location).toBe('/admin/login?next=%2Fadmin%2Fcarrier-a%2Fshipments%2F1%2Flabel');
    });

    it('answers 403 to a CP user without accessPlugin-carrier-a, and lets one with it work', async () => {
      const users = shop.app.get(CpUsersService);
      // Both may open orders; only the shipper may use carrier A.
      await users.create({ email: 'clerk@example.com', password: 'clerk-password-1', permissions: ['accessOrders'] });
      await users.create({
        email: 'shipper@example.com',
        password: 'shipper-password',
        permissions: ['accessOrders', 'accessPlugin-carrier-a'],
      });
      const order = await placedOrder();
      const clerk = new ShopClient(shop.server);
      await clerk.loginCp('clerk@example.com', 'clerk-password-1');
      const forbidden = await clerk.get(SHIPMENTS).expect(403);
      expect(forbidden.body.error).toEqual({
        code: 'forbidden',
        message: 'You need the accessPlugin-carrier-a permission to open this page.',
      });
      expect((await page(SHIPMENTS, clerk)).status).toBe(403);
      expect((await page(`${SHIPMENTS}?format=csv`, clerk)).status).toBe(403);
      expect((await clerk.post(`${SHIPMENTS}/create/${order.id}`)).status).toBe(403);
      expect(await sentParcels()).toEqual([]);
      // The order page offers carrier A only to staff who may use it.
      const clerkOrderPage = await page(`/admin/orders/${order.id}`, clerk).expect(200);
      expect(clerkOrderPage.text).toContain(`Order ${order.reference}`);
      // Neither on the order page nor in the CP header (the shipping method's name is the order's).
      expect(clerkOrderPage.text).not.toContain('<h2>Carrier A</h2>');
      expect(clerkOrderPage.text).not.toContain('>Carrier A<');
      expect(clerkOrderPage.text).not.toContain('/admin/carrier-a/');
      expect(clerkOrderPage.text).toContain('<a href="/admin/orders">Orders</a>');

      const shipper = new ShopClient(shop.server);
      await shipper.loginCp('shipper@example.com', 'shipper-password');
      const shipperOrderPage = await page(`/admin/orders/${order.id}`, shipper).expect(200);
      expect(shipperOrderPage.text).toContain('<h2>Carrier A</h2>');
      expect(shipperOrderPage.text).toContain(
        // Handlebars escapes the `=` of the query (&#x3D;), which the browser reads as `=`.
        `<a href="/admin/carrier-a/shipments?q&#x3D;${order.reference}">This order&#x27;s carrier A parcels</a>`,
      );
      await submit(`${SHIPMENTS}/create/${order.id}`, shipper);
      expect(await sentParcels()).toHaveLength(1);
      expect((await page(SHIPMENTS, shipper)).status).toBe(200);
    });
  });

  it('creates a parcel for an order from the order page, and shows it in detail', async () => {
    const order = await placedOrder();
    const orderPage = await page(`/admin/orders/${order.id}`).expect(200);
    expect(orderPage.text).toContain(`<form method="post" action="/admin/carrier-a/shipments/create/${order.id}">`);

    expect(await sentParcels()).toEqual([]);
    const shipment = await createFromCp(order);
    const sentNow = await sentParcels();
    expect(sentNow).toHaveLength(1);
    const [sent] = sentNow;
    expect(shipment).toMatchObject({
      parcelId: sent.id,
      status: 'CREATED',
      service: 'CLASSIC',
      codAmount: order.total,
      labelFilePath: expect.stringContaining(shop.config.dataDir),
    });
    const notes = await shop.dataSource.getRepository(OrderHistory).findBy({ orderId: order.id, actor: 'carrier-a' });
    expect(notes.map((note) => note.note)).toEqual([
      `Carrier A parcel ${shipment.parcelNumber} created`,
      `Shipped: Carrier A ${shipment.parcelNumber}`,
    ]);

    const detail = await page(`${SHIPMENTS}/${shipment.id}`).expect(200);
    expect(detail.text).toContain(`<h1>Carrier A parcel ${shipment.parcelNumber}</h1>`);
    expect(detail.text).toContain(`<a href="/admin/orders/${order.id}">${order.reference}</a>`);
    expect(detail.text).toContain(`<dd>${(order.total / 100).toFixed(2)} EUR</dd>`);
    expect(detail.text).toMatch(/Ada Lovelace<br>\s*Hlavná 1<br>\s*811 01 Bratislava<br>\s*SK/);
    // The payload as sent and the carrier's answer, as escaped pretty JSON.
    expect(detail.text).toContain(`&quot;reference&quot;: &quot;${order.number}&quot;`);
    expect(detail.text).toContain(`&quot;parcelNumber&quot;: &quot;${shipment.parcelNumber}&quot;`);
    expect(detail.text).toContain('<strong>CREATED</strong> Parcel data received');
    expect(detail.text).toContain(`action="/admin/carrier-a/shipments/refresh/${shipment.id}"`);
    expect(detail.text).toContain(`action="/admin/carrier-a/shipments/resync/${shipment.id}"`);
    expect(detail.text).toContain(`action="/admin/carrier-a/shipments/delete-label/${shipment.id}"`);
  });

  it('answers 404 for an unknown order or shipment', async () => {
    const create = await staff.submitForm(`${SHIPMENTS}/create/999999`, {});
    expect(create.status).toBe(404);
    expect(create.text).toContain('There is no order 999999.');
    expect((await page(`${SHIPMENTS}/999999`)).status).toBe(404);
    const label = await staff.get(`${SHIPMENTS}/999999/label`).expect(404);
    expect(label.body.error).toEqual({ code: 'not_found', message: 'There is no carrier A shipment 999999.' });
    expect((await staff.submitForm(`${SHIPMENTS}/refresh/999999`, {})).status).toBe(404);
    expect(await sentParcels()).toEqual([]);
  });

  describe('list and export', () => {
    let ada: Order;
    let grace: Order;
    let first: CarrierAShipment;
    let second: CarrierAShipment;
    let third: CarrierAShipment;
    beforeAll(async () => {
      await rows().clear();
      ada = await placedOrder();
      grace = await placedOrder({ firstName: 'Grace', lastName: 'Hopper' });
      first = await createFromCp(ada);
      second = await createFromCp(grace);
      third = await createFromCp(ada);
      await rows().update(second.id, { status: 'IN_TRANSIT', labelFilePath: null });
    });

    it('lists newest first, filters by status and searches orders, parcels and recipients', async () => {
      const all = await page(SHIPMENTS).expect(200);
      expect(listedIds(all.text)).toEqual([third.id, second.id, first.id]);
      expect(all.text).toContain('3 shipments');
      expect(all.text).toContain('<a href="?format&#x3D;csv" download>');

      const inTransit = await page(`${SHIPMENTS}?status=IN_TRANSIT`).expect(200);
      expect(listedIds(inTransit.text)).toEqual([second.id]);
      expect(inTransit.text).toContain('<option value="IN_TRANSIT" selected>');
      expect(listedIds((await page(`${SHIPMENTS}?status=DELIVERED`)).text)).toEqual([]);
      expect(listedIds((await page(`${SHIPMENTS}?status=&q=`)).text)).toHaveLength(3);

      const search = async (q: string) => listedIds((await page(`${SHIPMENTS}?q=${encodeURIComponent(q)}`)).text);
      expect(await search(ada.reference.toLowerCase())).toEqual([third.id, first.id]);
      expect(await search(grace.number)).toEqual([second.id]);
      expect(await search(first.parcelNumber)).toEqual([first.id]);
      expect(await search('hopper')).toEqual([second.id]);
      expect(await search('Ada Love')).toEqual([third.id, first.id]);
      expect(await search('%')).toEqual([]);
      const both = await page(`${SHIPMENTS}?status=CREATED&q=${encodeURIComponent(ada.reference)}`);
      expect(listedIds(both.text)).toEqual([third.id, first.id]);
      expect(both.text).toContain(`href="?status&#x3D;CREATED&amp;q&#x3D;${ada.reference}&amp;format&#x3D;csv"`);

      const refused = await staff.get(`${SHIPMENTS}?status=LOST`).expect(400);
      expect(refused.body.error.fields).toEqual({ status: [expect.stringContaining('status must be one of')] });
    });

    it('exports the filtered list as CSV', async () => {
      const res = await staff.get(`${SHIPMENTS}?format=csv`).expect(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toMatch(
        /^attachment; filename="carrier-a-shipments-\d{4}-\d\d-\d\d\.csv"$/,
      );
      expect(res.text.startsWith('\uFEFF')).toBe(true);
      const lines = res.text.slice(1).split('\r\n');
      expect(lines.pop()).toBe('');
      expect(lines[0]).toBe(
        '"ID","Created (UTC)","Order reference","Order number","Parcel number","Status","Service","Pickup point","COD amount","COD currency","Label stored"',
      );
      const cod = (ada.total / 100).toFixed(2);
      expect(lines.slice(1)).toEqual([
        expect.stringMatching(
          new RegExp(
            `^"${third.id}","\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d","${ada.reference}","${ada.number}","${third.parcelNumber}","CREATED","CLASSIC","","${cod}","EUR","yes"$`,
          ),
        ),
        expect.stringContaining(`"${second.id}",`),
        expect.stringContaining(`"${first.id}",`),
      ]);
      expect(lines[2]).toContain(`"${grace.reference}","${grace.number}","${second.parcelNumber}","IN_TRANSIT"`);
      expect(lines[2]).toMatch(/,"no"$/);

      const filtered = await staff.get(`${SHIPMENTS}?format=csv&status=IN_TRANSIT`).expect(200);
      expect(filtered.text.slice(1).split('\r\n').filter(Boolean)).toEqual([lines[0], lines[2]]);
      const searched = await staff.get(`${SHIPMENTS}?format=csv&q=hopper`).expect(200);
      expect(searched.text.slice(1).split('\r\n').filter(Boolean)).toEqual([lines[0], lines[2]]);
    });

    it('quotes every cell and defuses cells a spreadsheet would run as formulas', async () => {
      await rows().update(first.id, { pickupPointId: '=HYPERLINK("http://evil.example","x")', status: '@SUM(A1)' });
      await rows().update(third.id, { pickupPointId: '+1, "two"', status: '-2' });
      const res = await staff.get(`${SHIPMENTS}?format=csv`).expect(200);
      const lines = res.text.slice(1).split('\r\n');
      expect(lines[1]).toContain(`"'-2","CLASSIC","'+1, ""two""",`);
      expect(lines[3]).toContain(`"'@SUM(A1)","CLASSIC","'=HYPERLINK(""http://evil.example"",""x"")",`);
    });

    it('exports every record, however many read batches that takes', async () => {
      const bulk = Array.from({ length: 1000 }, (_, n) => ({
        orderId: grace.id,
        parcelId: `bulk-${n}`,
        parcelNumber: `9${String(n).padStart(13, '0')}`,
        status: 'DELIVERED',
        service: 'CLASSIC',
        payload: {},
        response: {},
      }));
      for (let at = 0; at < bulk.length; at += 100) await rows().insert(bulk.slice(at, at + 100));
      const res = await staff.get(`${SHIPMENTS}?format=csv`).expect(200);
      const ids = res.text
        .slice(1)
        .split('\r\n')
        .slice(1, -1)
        .map((line) => Number(line.split(',')[0].replace(/"/g, '')));
      expect(ids).toHaveLength(1003);
      expect(new Set(ids).size).toBe(1003);
      expect(ids).toEqual([...ids].sort((a, b) => b - a));

      // The list shows them 50 to a page.
      const firstPage = await page(SHIPMENTS).expect(200);
      expect(listedIds(firstPage.text)).toEqual(ids.slice(0, 50));
      expect(firstPage.text).toContain('<a rel="next" href="/admin/carrier-a/shipments?page&#x3D;2">');
      const lastPage = await page(`${SHIPMENTS}?page=21`).expect(200);
      expect(listedIds(lastPage.text)).toEqual(ids.slice(1000));
      expect(lastPage.text).toContain('<a rel="prev" href="/admin/carrier-a/shipments?page&#x3D;20">');
      await rows().delete({ status: 'DELIVERED' });
    });
  });

  it('shows the label inline or as a download, from disk after the first fetch', async () => {
    const shipment = await createFromCp(await placedOrder());
    expect(await labelCalls()).toBe(1);

    const inline = await staff.get(`${SHIPMENTS}/${shipment.id}/label`).buffer(true).parse(bytes).expect(200);
    expect(inline.headers['content-type']).toBe('application/pdf');
    expect(inline.headers['content-disposition']).toBe(`inline; filename="carrier-a-${shipment.parcelNumber}.pdf"`);
    expect(inline.headers['content-security-policy']).toBe("frame-ancestors 'self'");
    expect((inline.body as Buffer).subarray(0, 5).toString()).toBe('%PDF-');

    const download = await staff
      .get(`${SHIPMENTS}/${shipment.id}/label?download=1`)
      .buffer(true)
      .parse(bytes)
      .expect(200);
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="carrier-a-${shipment.parcelNumber}.pdf"`,
    );
    expect((download.body as Buffer).equals(inline.body as Buffer)).toBe(true);
    expect(await labelCalls()).toBe(1);
  });

  it('deletes the stored label, keeps the parcel, and fetches the label again on the next view', async () => {
    const shipment = await createFromCp(await placedOrder());
    const path = shipment.labelFilePath!;
    expect(existsSync(path)).toBe(true);
    // Without "I am sure" ticked nothing is deleted.
    const unconfirmed = await submit(`${SHIPMENTS}/delete-label/${shipment.id}`);
    expect(unconfirmed.next.text).toContain(
      'Deleting the stored label was not done: tick &quot;I am sure&quot; to confirm it.',
    );
    expect(existsSync(path)).toBe(true);

    const { location, next } = await submit(`${SHIPMENTS}/delete-label/${shipment.id}`, staff, { confirm: 'yes' });
    expect(location).toBe(`${SHIPMENTS}/${shipment.id}`);
    expect(next.text).toContain('The stored label was deleted; the parcel is kept');
    expect(next.text).not.toContain(`action="/admin/carrier-a/shipments/delete-label/${shipment.id}"`);
    expect(existsSync(path)).toBe(false);
    expect(await rows().findOneByOrFail({ id: shipment.id })).toMatchObject({
      labelFilePath: null,
      parcelNumber: shipment.parcelNumber,
    });
    const again = await submit(`${SHIPMENTS}/delete-label/${shipment.id}`, staff, { confirm: 'yes' });
    expect(again.next.text).toContain('There is no stored label to delete.');

    const label = await staff.get(`${SHIPMENTS}/${shipment.id}/label`).buffer(true).parse(bytes).expect(200);
    expect((label.body as Buffer).subarray(0, 5).toString()).toBe('%PDF-');
    expect(await labelCalls()).toBe(2);
    expect((await rows().findOneByOrFail({ id: shipment.id })).labelFilePath).toBe(path);
    expect(existsSync(path)).toBe(true);
  });

  it('refreshes the tracking status from the carrier', async () => {
    const shipment = await createFromCp(await placedOrder());
    await sandbox().post(`${CONTROL}/parcels/${shipment.parcelId}/advance`).send({ steps: 2 }).expect(200);

    const { location, next } = await submit(`${SHIPMENTS}/refresh/${shipment.id}`);
    expect(location).toBe(`${SHIPMENTS}/${shipment.id}`);
    expect(next.text).toContain(
      '<p class="flash flash-success" role="status">Tracking refreshed: the parcel is IN_TRANSIT.</p>',
    );
    expect((await rows().findOneByOrFail({ id: shipment.id })).status).toBe('IN_TRANSIT');
    expect(next.text).toMatch(
      /<strong>CREATED<\/strong>[\s\S]*<strong>PICKED_UP<\/strong>[\s\S]*<strong>IN_TRANSIT<\/strong>/,
    );
    expect(next.text).toContain('Parcel in transit · Hub Bratislava');
  });

  it('resyncs: a new parcel and label for the same order, the earlier one kept', async () => {
    const order = await placedOrder();
    const shipment = await createFromCp(order);
    const { location, next } = await submit(`${SHIPMENTS}/resync/${shipment.id}`);

    const both = await rows().find({ where: { orderId: order.id }, order: { id: 'ASC' } });
    expect(both).toHaveLength(2);
    const [, created] = both;
    expect(location).toBe(`${SHIPMENTS}/${created.id}`);
    expect(created.parcelNumber).not.toBe(shipment.parcelNumber);
    expect(created.labelFilePath).toEqual(expect.any(String));
    expect(existsSync(created.labelFilePath!)).toBe(true);
    expect(await sentParcels()).toHaveLength(2);
    expect(next.text).toContain(
      `New carrier A parcel ${created.parcelNumber} created; parcel ${shipment.parcelNumber} is still registered with the carrier.`,
    );
  });

  it('refuses a resync for a canceled or refunded order', async () => {
    const order = await placedOrder();
    const shipment = await createFromCp(order);
    for (const status of ['canceled', 'refunded'] as const) {
      await shop.dataSource.getRepository(Order).update(order.id, { status });
      const { location, next } = await submit(`${SHIPMENTS}/resync/${shipment.id}`);
      expect(location).toBe(`${SHIPMENTS}/${shipment.id}`);
      expect(next.text).toContain(`Order ${order.reference} is ${status}: no parcel is created for it.`);
      const json = await staff.post(`${SHIPMENTS}/resync/${shipment.id}`);
      expect(json.status).toBe(409);
      expect(json.body.error.code).toBe('carrier_a_parcel_refused');
    }
    expect(await rows().countBy({ orderId: order.id })).toBe(1);
    expect(await sentParcels()).toHaveLength(1);
  });

  it('makes one parcel of two quick posts for an order without one', async () => {
    const order = await placedOrder();
    // Two sessions (two staff members, or two browsers): one session's posts already wait for each other.
    const colleague = new ShopClient(shop.server);
    await colleague.loginCp();
    // The first post is held at the carrier until the second has its answer (or reached the carrier too).
    const client = shop.app.get(CarrierAClient);
    const carrierCall = client.createParcel.bind(client);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const arrived: Array<() => void> = [];
    const arrivals = [0, 1].map((n) => new Promise<void>((resolve) => (arrived[n] = resolve)));
    let calls = 0;
    const spy = jest.spyOn(client, 'createParcel').mockImplementation(async (payload) => {
      arrived[calls++]?.();
      await held;
      return carrierCall(payload);
    });
    try {
      const first = staff.submitForm(`${SHIPMENTS}/create/${order.id}`, {});
      await arrivals[0];
      // A script's post: the refusal is its answer.
      const second = colleague.post(`${SHIPMENTS}/create/${order.id}`);
      await Promise.race([second, arrivals[1]]);
      release();
      const [created, refused] = await Promise.all([first, second]);
      expect(calls).toBe(1);
      const [shipment, ...more] = await rows().findBy({ orderId: order.id });
      expect(more).toHaveLength(0);
      expect(await sentParcels()).toHaveLength(1);
      expect(created.status).toBe(303);
      expect(created.headers.location).toBe(`${SHIPMENTS}/${shipment.id}`);
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('carrier_a_parcel_refused');
      expect(refused.body.error.message).toBe(
        `A carrier A parcel for order ${order.reference} is being created right now.`,
      );
      expect(await shop.dataSource.getRepository(CarrierAParcelClaim).countBy({ orderId: order.id })).toBe(0);
    } finally {
      release();
      spy.mockRestore();
    }
  });

  it('counts an automatic parcel on its way or unconfirmed as one the order has', async () => {
    for (const state of ['calling', 'unconfirmed'] as const) {
      const order = await placedOrder();
      await shop.dataSource.getRepository(CarrierAAutoShipment).save({ orderId: order.id, state });
      const orderPage = await page(`/admin/orders/${order.id}`).expect(200);
      expect(orderPage.text).toContain('<button type="submit">Create another carrier A parcel</button>');
      const { location, next } = await submit(`${SHIPMENTS}/create/${order.id}`);
      expect(location).toBe(`/admin/orders/${order.id}`);
      expect(next.text).toContain(
        `Order ${order.reference} already has a carrier A parcel: tick the confirmation to create another one.`,
      );
      expect(await rows().countBy({ orderId: order.id })).toBe(0);
    }
    expect(await sentParcels()).toHaveLength(0);
  });

  describe('with a carrier that answers parcel numbers no file may be named after', () => {
    /** Every file under DATA_DIR but the database's own and the order mails, as paths relative to it. */
    const dataFiles = () =>
      readdirSync(shop.config.dataDir, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile() && !/\.sqlite(-\w+)?$/.test(entry.name))
        .map((entry) => join(entry.parentPath, entry.name).slice(shop.config.dataDir.length))
        // Mails (the shipping e-mail) are written to mail.partial/ and then moved into mail/.
        .filter((path) => !/^\/mail(\.partial)?\//.test(path))
        .sort();
    const notesOf = async (orderId: number) =>
      (await shop.dataSource.getRepository(OrderHistory).findBy({ orderId, actor: 'carrier-a' })).map((n) => n.note);

    it('records the parcel, stores its label nowhere, and says why on the order and at the label', async () => {
      const odd = ['../../../x', '../../x', '..\\x', '/tmp/x', 'C:\\x', 'a/b', '..', ' '];
      // What `../../../x` named before: a file beside the labels folder, which must keep its content.
      const beside = join(shop.config.dataDir, 'x.pdf');
      writeFileSync(beside, 'not a label');
      const before = dataFiles();
      await sandbox().post(`${CONTROL}/parcel-numbers`).send({ parcelNumbers: odd }).expect(200);

      for (const parcelNumber of odd) {
        const order = await placedOrder();
        const { location } = await submit(`${SHIPMENTS}/create/${order.id}`);
        const shipment = await rows().findOneByOrFail({ orderId: order.id });
        expect(location).toBe(`${SHIPMENTS}/${shipment.id}`);
        expect(shipment).toMatchObject({ parcelNumber, labelFilePath: null });
        const why =
          `the label was not stored: the carrier's parcel number ${JSON.stringify(parcelNumber)} cannot name a file ` +
          '(only letters, digits, - and _, at most 32)';
        expect(await notesOf(order.id)).toEqual([
          `Carrier A parcel ${parcelNumber} created; ${why}`,
          `Shipped: Carrier A ${parcelNumber}`,
        ]);

        const label = await staff.get(`${SHIPMENTS}/${shipment.id}/label`).expect(502);
        expect(label.body.error).toEqual({ code: 'upstream_failed', message: `Carrier A: ${why}` });
        const deleted = await submit(`${SHIPMENTS}/delete-label/${shipment.id}`, staff, { confirm: 'yes' });
        expect(deleted.next.text).toContain('There is no stored label to delete.');
      }
      expect(dataFiles()).toEqual(before);
      expect(readFileSync(beside, 'utf8')).toBe('not a label');

      // A number longer than the record holds is no answer the shop can keep: the create fails, clearly.
      await sandbox()
        .post(`${CONTROL}/parcel-numbers`)
        .send({ parcelNumbers: ['1'.repeat(33)] })
        .expect(200);
      const order = await placedOrder();
      const { location, next } = await submit(`${SHIPMENTS}/create/${order.id}`);
      expect(location).toBe(`/admin/orders/${order.id}`);
      expect(next.text).toContain('Carrier A: create parcel failed: unexpected answer (HTTP 201)');
      expect(await rows().countBy({ orderId: order.id })).toBe(0);
    });

    it('neither deletes nor serves a stored path that leads out of the label folder', async () => {
      const shipment = await createFromCp(await placedOrder());
      const ownPath = shipment.labelFilePath!;
      const outside = join(shop.config.dataDir, 'keep.pdf');
      writeFileSync(outside, '%PDF- kept');
      await rows().update(shipment.id, { labelFilePath: join(shop.config.dataDir, 'labels', '..', 'keep.pdf') });

      const deleted = await submit(`${SHIPMENTS}/delete-label/${shipment.id}`, staff, { confirm: 'yes' });
      expect(deleted.next.text).toContain('There is no stored label to delete.');
      expect(readFileSync(outside, 'utf8')).toBe('%PDF- kept');
      expect((await rows().findOneByOrFail({ id: shipment.id })).labelFilePath).toBeNull();

      await rows().update(shipment.id, { labelFilePath: outside });
      const label = await staff.get(`${SHIPMENTS}/${shipment.id}/label`).buffer(true).parse(bytes).expect(200);
      expect((label.body as Buffer).toString()).not.toBe('%PDF- kept');
      expect(await labelCalls()).toBe(2);
      expect((await rows().findOneByOrFail({ id: shipment.id })).labelFilePath).toBe(ownPath);
      expect(readFileSync(outside, 'utf8')).toBe('%PDF- kept');
    });
  });

  describe('with the carrier down', () => {
    it('answers a create with an error flash on the order page and stores nothing', async () => {
      const order = await placedOrder();
      await carrierMode('error');
      const { location, next } = await submit(`${SHIPMENTS}/create/${order.id}`);
      expect(location).toBe(`/admin/orders/${order.id}`);
      expect(next.text).toContain(
        '<p class="flash flash-error" role="alert">Carrier A: create parcel failed: HTTP 503: Service temporarily unavailable</p>',
      );
      expect(await rows().countBy({ orderId: order.id })).toBe(0);
      const json = await staff.post(`${SHIPMENTS}/create/${order.id}`);
      expect(json.status).toBe(502);
      expect(json.body.error.code).toBe('upstream_failed');
    });

    it('keeps the detail readable, refuses refresh and resync with a flash, and answers 502 for a missing label', async () => {
      const shipment = await createFromCp(await placedOrder());
      await submit(`${SHIPMENTS}/delete-label/${shipment.id}`, staff, { confirm: 'yes' });
      await carrierMode('error');

      const detail = await page(`${SHIPMENTS}/${shipment.id}`).expect(200);
      expect(detail.text).toContain('The carrier could not be asked for the tracking just now');
      expect(detail.text).toContain('<span class="status status-CREATED">CREATED</span>');

      const refresh = await submit(`${SHIPMENTS}/refresh/${shipment.id}`);
      expect(refresh.location).toBe(`${SHIPMENTS}/${shipment.id}`);
      expect(refresh.next.text).toContain(
        `<p class="flash flash-error" role="alert">Carrier A: tracking ${shipment.parcelId} failed: HTTP 503`,
      );
      const resync = await submit(`${SHIPMENTS}/resync/${shipment.id}`);
      expect(resync.location).toBe(`${SHIPMENTS}/${shipment.id}`);
      expect(resync.next.text).toContain('Carrier A: create parcel failed: HTTP 503');
      expect(await rows().countBy({ orderId: shipment.orderId })).toBe(1);

      const labelPage = await page(`${SHIPMENTS}/${shipment.id}/label`).expect(502);
      expect(labelPage.text).toContain('failed: HTTP 503');
      const label = await staff.get(`${SHIPMENTS}/${shipment.id}/label`).expect(502);
      expect(label.body.error).toMatchObject({ code: 'upstream_failed', message: expect.stringContaining('label') });
    });
  });
});
