import request from 'supertest';
import { startTestApp, TestApp, usingMysql } from '../support/test-app';

const API = '/_sandbox/carrier-a/v1';
const CONTROL = '/_sandbox/carrier-a/_control';
const AUTH = `Basic ${Buffer.from('sandbox:sandbox').toString('base64')}`;

type Json = Record<string, unknown>;

/** Keeps a body as bytes, for PDFs and for garbage that claims to be JSON. */
function bytes(res: request.Response, done: (error: Error | null, body: Buffer) => void): void {
  const stream = res as unknown as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
}

const PARTY = {
  name: 'Jana Novakova',
  street: 'Main Street 1',
  city: 'Bratislava',
  zipCode: '81101',
  countryCode: 'SK',
};

function parcelBody(extra: Json = {}): Json {
  return {
    reference: 'ORD-1001',
    sender: { ...PARTY, name: 'Demo Shop' },
    recipient: { ...PARTY, email: 'jana@example.com' },
    parcels: [{ weight: 1.2 }],
    service: { type: 'CLASSIC' },
    ...extra,
  };
}

/** The sandbox carrier A API over HTTP: Basic auth, parcels, labels, tracking, ParcelShops and the switches. */
describe(`carrier A sandbox (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  beforeAll(async () => {
    shop = await startTestApp();
  });
  afterAll(() => shop.close());
  afterEach(() => request(shop.server).post(`${CONTROL}/reset`).expect(200));

  const get = (path: string) => request(shop.server).get(`${API}${path}`).set('Authorization', AUTH);
  const create = (body: unknown) =>
    request(shop.server)
      .post(`${API}/parcels`)
      .set('Authorization', AUTH)
      .send(body as object);

  it('refuses requests without the sandbox credentials with 401 and the carrier error shape', async () => {
    const missing = await request(shop.server).get(`${API}/parcelshops?countryCode=SK`).expect(401);
    expect(missing.body).toEqual({ errors: [{ message: 'Invalid username or password' }] });
    const wrong = `Basic ${Buffer.from('sandbox:nope').toString('base64')}`;
    await request(shop.server).get(`${API}/parcelshops?countryCode=SK`).set('Authorization', wrong).expect(401);
  });

  it('creates a parcel, shows it, and advances its tracking through the control switch', async () => {
    const created = await create(parcelBody()).expect(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      parcelNumber: expect.stringMatching(/^\d{14}$/),
      status: 'CREATED',
    });
    const { id, parcelNumber } = created.body;

    const parcel = await get(`/parcels/${id}`).expect(200);
    expect(parcel.body).toEqual({
      id,
      parcelNumber,
      status: 'CREATED',
      reference: 'ORD-1001',
      recipient: { ...PARTY, email: 'jana@example.com' },
      weight: 1.2,
      dateCreated: expect.any(String),
    });

    const tracking = await get(`/parcels/${id}/tracking`).expect(200);
    expect(tracking.body).toEqual({
      parcelNumber,
      status: 'CREATED',
      events: [{ code: 'CREATED', description: 'Parcel data received', timestamp: expect.any(String) }],
    });
    const advanced = await request(shop.server).post(`${CONTROL}/parcels/${id}/advance`).send({ steps: 2 }).expect(200);
    expect(advanced.body.status).toBe('IN_TRANSIT');
    const later = await get(`/parcels/${id}/tracking`).expect(200);
    expect(later.body.events.map((event: Json) => event.code)).toEqual(['CREATED', 'PICKED_UP', 'IN_TRANSIT']);
    await request(shop.server).post(`${CONTROL}/parcels/${id}/advance`).send({ steps: 10 }).expect(200);
    expect((await get(`/parcels/${id}`).expect(200)).body.status).toBe('DELIVERED');
  });

  it('ends a ParcelShop parcel at the ParcelShop and keeps the cash-on-delivery amount', async () => {
    const body = parcelBody({
      service: { type: 'PARCELSHOP', pickupPointId: 'SK12345' },
      cod: { amount: 25.9, currency: 'EUR', variableSymbol: '1001' },
    });
    const { id } = (await create(body).expect(201)).body;
    const advanced = await request(shop.server).post(`${CONTROL}/parcels/${id}/advance`).send({ steps: 9 }).expect(200);
    expect(advanced.body.status).toBe('DELIVERED_TO_PARCELSHOP');
    const [stored] = (await request(shop.server).get(`${CONTROL}/parcels`).expect(200)).body;
    expect(stored).toMatchObject({ id, cod: { amount: 25.9, currency: 'EUR', variableSymbol: '1001' } });
  });

  it('rejects an invalid parcel with 400 and one message per problem', async () => {
    const answer = await create(
      parcelBody({
        recipient: { ...PARTY, city: '', countryCode: 'Slovakia' },
        parcels: [{ weight: 40 }],
        service: {},
      }),
    ).expect(400);
    expect(answer.body.errors).toEqual([
      { message: 'recipient.city: required' },
      { message: 'recipient.countryCode: must be an ISO 3166-1 alpha-2 code' },
      { message: 'parcels[0].weight: must be between 0.1 and 31.5 kg' },
      { message: 'service.type: must be one of CLASSIC, PARCELSHOP' },
    ]);
    expect((await create([1]).expect(400)).body.errors).toHaveLength(1);
    const parcelShop = await create(parcelBody({ service: { type: 'PARCELSHOP' } })).expect(400);
    expect(parcelShop.body.errors).toEqual([{ message: 'service.pickupPointId: required for PARCELSHOP' }]);
  });

  it('serves the label as a real PDF and answers 404 for unknown parcels', async () => {
    const { id } = (await create(parcelBody()).expect(201)).body;
    const label = await get(`/parcels/${id}/label?format=pdf`).buffer(true).parse(bytes).expect(200);
    expect(label.headers['content-type']).toMatch(/^application\/pdf/);
    const pdf = label.body as Buffer;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.subarray(-8).toString()).toContain('%%EOF');
    await get(`/parcels/${id}/label?format=zpl`).expect(400);
    const missing = await get('/parcels/nope/tracking').expect(404);
    expect(missing.body).toEqual({ errors: [{ message: 'Parcel nope not found' }] });
  });

  it('lists the same handful of ParcelShops for a country and ZIP on every call, up to the limit', async () => {
    const first = (await get('/parcelshops?countryCode=SK&zipCode=81101').expect(200)).body.items;
    expect(first.length).toBeGreaterThanOrEqual(3);
    expect(first[0]).toEqual({
      id: expect.stringMatching(/^SK\d{5}$/),
      company: expect.any(String),
      street: expect.any(String),
      houseNumber: expect.any(String),
      city: expect.any(String),
      postcode: '81101',
      countryCode: 'SK',
      latitude: expect.any(Number),
      longitude: expect.any(Number),
      hours: expect.arrayContaining([
        {
          dayName: 'Monday',
          openMorning: '08:00',
          closeMorning: '12:00',
          openAfternoon: '13:00',
          closeAfternoon: '18:00',
        },
      ]),
    });
    expect((await get('/parcelshops?countryCode=SK&zipCode=81101').expect(200)).body.items).toEqual(first);
    const other = (await get('/parcelshops?countryCode=CZ&zipCode=11000').expect(200)).body.items;
    expect(other[0].id).not.toBe(first[0].id);
    expect((await get('/parcelshops?countryCode=SK&limit=1').expect(200)).body.items).toHaveLength(1);
    await get('/parcelshops?countryCode=sk').expect(400);
    await get('/parcelshops?countryCode=SK&limit=0').expect(400);
  });

  it('fails on demand (503, garbage, timeout), counts every request and resets', async () => {
    await request(shop.server).post(`${CONTROL}/mode`).send({ mode: 'error' }).expect(200);
    const down = await get('/parcelshops?countryCode=SK').expect(503);
    expect(down.body).toEqual({ detail: 'Service temporarily unavailable' });
    await request(shop.server).post(`${CONTROL}/mode`).send({ mode: 'garbage' }).expect(200);
    const garbage = await get('/parcelshops?countryCode=SK').buffer(true).parse(bytes).expect(200);
    expect(() => JSON.parse((garbage.body as Buffer).toString())).toThrow();
    await request(shop.server).post(`${CONTROL}/mode`).send({ mode: 'timeout' }).expect(200);
    await expect(get('/parcelshops?countryCode=SK').timeout(300)).rejects.toThrow(/Timeout/);
    await request(shop.server).post(`${CONTROL}/mode`).send({ mode: 'sleepy' }).expect(400);

    const stats = await request(shop.server).get(`${CONTROL}/stats`).expect(200);
    expect(stats.body).toEqual({ requests: { 'GET /v1/parcelshops': 3 } });
    await request(shop.server).post(`${CONTROL}/reset`).expect(200);
    expect((await request(shop.server).get(`${CONTROL}/stats`).expect(200)).body).toEqual({ requests: {} });
    await get('/parcelshops?countryCode=SK').expect(200);
  });
});
