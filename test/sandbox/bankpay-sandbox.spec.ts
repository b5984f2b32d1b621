import { createPublicKey, verify } from 'node:crypto';
import request from 'supertest';
import { cardPayTimestamp, signCardPayRequest, signCardPayReturn } from '../../src/sandbox/bankpay/card-pay-signing';
import { sandboxMerchantKey } from '../../src/common/sandbox-merchant-key';
import { eventually, startTestApp, TestApp, usingMysql } from '../support/test-app';

const BANK = '/_sandbox/bankpay';
const TOKEN_PATH = `${BANK}/auth/oauth/v2/token`;
const CLIENT = { client_id: 'sandbox-client', client_secret: 'sandbox-secret', grant_type: 'client_credentials' };
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const RETURN_URL = 'https://shop.example/shop/checkout/process-payment?order=abc123';
/** The sandbox bank's key for merchant `demo`: this install's own (set once the app is up). */
let demoKey = '';

type Json = Record<string, unknown>;

/** A valid create-payment body; `set` replaces (or with undefined removes) fields by dotted path. */
function paymentBody(set: Record<string, unknown> = {}): Json {
  const body: Json = {
    basePayment: {
      instructedAmount: { amountValue: 12.5, currency: 'EUR' },
      endToEnd: { variableSymbol: '2024001' },
    },
    userData: { firstName: 'Jana', lastName: 'Novakova', email: 'jana@example.com', phone: '+421900123456' },
    cardDetail: { cardHolder: 'Jana Novakova' },
    bankTransfer: { remittanceInformationUnstructured: 'Order 2024001' },
  };
  return withFields(body, set);
}

/** A valid loan application for 150 EUR in two items. */
function applicationBody(set: Record<string, unknown> = {}): Json {
  const body: Json = {
    order: {
      orderNo: 'ORD-1001',
      orderItems: [
        {
          quantity: 1,
          totalItemPrice: 100,
          itemDetail: { itemDetailSK: { itemName: 'Tent', itemDescription: '2 person' } },
        },
        { quantity: 2, totalItemPrice: 50, itemDetail: { itemDetailSK: { itemName: 'Headlamp' } } },
      ],
      preferredLoanDuration: 12,
    },
    applicant: { firstName: 'Jana', lastName: 'Novakova', email: 'jana@example.com' },
    externalApplicantId: 'customer-7',
    instructedAmount: { amountValue: 150, currency: 'EUR' },
  };
  return withFields(body, set);
}

function withFields(body: Json, set: Record<string, unknown>): Json {
  const copy = structuredClone(body);
  for (const [path, value] of Object.entries(set)) {
    const keys = path.split('.');
    const parent = keys.slice(0, -1).reduce((node, key) => node[key] as Json, copy);
    if (value === undefined) delete parent[keys.at(-1)!];
    else parent[keys.at(-1)!] = value;
  }
  return copy;
}

/** The query of a redirect's Location as a plain object. */
function queryOf(location: string): Record<string, string> {
  return Object.fromEntries(new URL(location).searchParams);
}

/** A signed CardPay request for the demo merchant. */
function cardPayRequest(set: Record<string, string | undefined> = {}): Record<string, string> {
  const params: Record<string, string | undefined> = {
    MID: 'demo',
    AMT: '20.78',
    CURR: '978',
    VS: '78945210',
    RURL: 'https://shop.example/shop/checkout/card-return',
    IPC: '188.200.192.180',
    NAME: 'Peter Novak',
    REM: 'peter@example.com',
    TIMESTAMP: cardPayTimestamp(),
    LANG: 'sk',
  };
  const signed = { ...params, HMAC: signCardPayRequest(demoKey, params) };
  return Object.fromEntries(
    Object.entries({ ...signed, ...set }).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

/** Reads any response body as text, even one that claims JSON and is not (superagent hands over the stream). */
function rawText(res: request.Response, done: (error: Error | null, body: string) => void): void {
  const stream = res as unknown as NodeJS.ReadableStream;
  let text = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => (text += chunk));
  stream.on('end', () => done(null, text));
}

describe(`bankpay sandbox (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  const http = () => request(shop.server);

  beforeAll(async () => {
    shop = await startTestApp();
    demoKey = sandboxMerchantKey(shop.config.sessionSecret);
  });
  afterAll(() => shop.close());
  afterEach(async () => {
    await http().post(`${BANK}/_control/reset`).expect(200);
  });

  const tokenRequest = (fields: Record<string, string>) => http().post(TOKEN_PATH).type('form').send(fields);

  async function token(scope: 'BANKPAYPLUS' | 'PAY_LATER' = 'BANKPAYPLUS'): Promise<string> {
    const res = await tokenRequest({ ...CLIENT, scope });
    expect(res.status).toBe(200);
    return res.body.access_token as string;
  }

  /** POST /v1/payments with valid headers; `headers` replaces (or with undefined removes) them. */
  async function createPayment(body: Json = paymentBody(), headers: Record<string, string | undefined> = {}) {
    const req = http()
      .post(`${BANK}/v1/payments`)
      .set('Authorization', `Bearer ${await token()}`);
    const all: Record<string, string | undefined> = {
      'X-Request-ID': '7e5f4c2a-1111-4222-8333-444455556666',
      'Redirect-URI': RETURN_URL,
      'Preferred-Method': 'CARD_PAY',
      'IP-Address': '188.200.192.180',
      'Accept-Language': 'sk',
      ...headers,
    };
    for (const [name, value] of Object.entries(all)) if (value !== undefined) req.set(name, value);
    return req.send(body);
  }

  async function paymentId(method = 'CARD_PAY'): Promise<string> {
    const res = await createPayment(paymentBody(), { 'Preferred-Method': method });
    expect(res.status).toBe(201);
    return res.body.paymentId as string;
  }

  async function paymentStatus(id: string) {
    return http()
      .get(`${BANK}/v1/payments/${id}/status`)
      .set('Authorization', `Bearer ${await token()}`);
  }

  const choose = (id: string, outcome: string) => http().post(`${BANK}/pay/${id}`).type('form').send({ outcome });

  const control = (path: string, body: Json) => http().post(`${BANK}/_control${path}`).send(body);

  describe('CardPay signatures', () => {
    it('match the bank’s published reference values', () => {
      const key = '78'.repeat(64);
      const params = {
        MID: '9999',
        AMT: '20.78',
        CURR: '978',
        VS: '78945210',
        RURL: 'https://www.obchodnik.sk/potvrdenie_platby.php',
        IPC: '188.200.192.180',
        NAME: 'Peter Novak',
        REM: 'online_platby@obchodnik.sk',
        TIMESTAMP: '01112014100000',
      };
      expect(signCardPayRequest(key, params)).toBe('4d56aa232d22fbd5756954c5728e111858f65bb10f978f5fd8a55cc2d04eca3a');
      const back = {
        AMT: '20.78',
        CURR: '978',
        VS: '78945210',
        RES: 'OK',
        AC: '832',
        TID: '45678',
        TIMESTAMP: '01112014100000',
      };
      expect(signCardPayReturn(key, back)).toBe('9fbf5a7d1a914d7806a545565b971fa480feb48e402f7a8df80dcea0fdea6049');
    });

    it('write timestamps as ddmmYYYYHHMMSS in UTC', () => {
      expect(cardPayTimestamp(new Date(Date.UTC(2014, 10, 1, 10, 0, 0)))).toBe('01112014100000');
      expect(cardPayTimestamp(new Date(Date.UTC(2025, 0, 9, 23, 5, 7)))).toBe('09012025230507');
    });
  });

  describe('OAuth token', () => {
    it('issues a bearer token for the sandbox client and counts the request by scope', async () => {
      const res = await tokenRequest({ ...CLIENT, scope: 'PAY_LATER' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        access_token: expect.stringMatching(/^[0-9a-f]{64}$/),
        token_type: 'Bearer',
        expires_in: 3600,
        scope: 'PAY_LATER',
      });
      await token('BANKPAYPLUS');
      const stats = await http().get(`${BANK}/_control/stats`);
      expect(stats.body.tokenRequests).toEqual({ BANKPAYPLUS: 1, PAY_LATER: 1 });
    });

    it.each([
      ['a wrong secret', 'invalid_client', { ...CLIENT, client_secret: 'guess', scope: 'BANKPAYPLUS' }],
      ['an unknown client', 'invalid_client', { ...CLIENT, client_id: 'someone', scope: 'BANKPAYPLUS' }],
      ['another grant', 'unsupported_grant_type', { ...CLIENT, grant_type: 'password', scope: 'BANKPAYPLUS' }],
      ['an unknown scope', 'invalid_scope', { ...CLIENT, scope: 'EVERYTHING' }],
      ['no scope', 'invalid_scope', { ...CLIENT }],
    ])('refuses %s with 400 %s', async (_case, error, fields) => {
      const res = await tokenRequest(fields);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error, error_description: expect.any(String) });
    });
  });

  describe('bearer check', () => {
    const methods = (bearer?: string) => {
      const req = http().get(`${BANK}/v1/payments/methods`).set('X-Request-ID', 'req-1');
      return bearer ? req.set('Authorization', `Bearer ${bearer}`) : req;
    };

    it('answers 401 TOKEN_UNKNOWN without a token or with one the bank never issued, echoing the request id', async () => {
      for (const res of [await methods(), await methods('f'.repeat(64))]) {
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ errorCode: 'TOKEN_UNKNOWN' });
        expect(res.headers['x-request-id']).toBe('req-1');
      }
    });

    it('answers 401 TOKEN_EXPIRED once the token’s lifetime is over', async () => {
      await control('/settings', { tokenLifetimeSeconds: 0 }).expect(200, {
        tokenLifetimeSeconds: 0,
        settleAfterMs: 120000,
        refuseRefunds: false,
      });
      const res = await tokenRequest({ ...CLIENT, scope: 'BANKPAYPLUS' });
      expect(res.body.expires_in).toBe(0);
      const answer = await methods(res.body.access_token);
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ errorCode: 'TOKEN_EXPIRED' });
    });

    it('answers 403 TOKEN_INVALID to a token of the wrong scope', async () => {
      const payLater = await token('PAY_LATER');
      const payments = await methods(payLater);
      expect(payments.status).toBe(403);
      expect(payments.body).toEqual({ errorCode: 'TOKEN_INVALID' });

      const applications = await http()
        .post(`${BANK}/v1/applications`)
        .set('Authorization', `Bearer ${await token('BANKPAYPLUS')}`)
        .set('Redirect-URI', RETURN_URL)
        .send(applicationBody());
      expect(applications.status).toBe(403);
      expect(applications.body).toEqual({ errorCode: 'TOKEN_INVALID' });
    });
  });

  describe('create payment', () => {
    it('answers 201 with the pay page and the methods, and stores the request', async () => {
      const res = await createPayment();
      expect(res.status).toBe(201);
      expect(res.headers['x-request-id']).toBe('7e5f4c2a-1111-4222-8333-444455556666');
      const origin = new URL(res.request.url).origin;
      expect(res.body).toEqual({
        paymentId: expect.stringMatching(UUID_V4),
        tatraPayPlusUrl: `${origin}${BANK}/pay/${res.body.paymentId}`,
        availablePaymentMethods: [
          { paymentMethod: 'CARD_PAY', isAvailable: true },
          { paymentMethod: 'BANK_TRANSFER', isAvailable: true },
          { paymentMethod: 'QR_PAY', isAvailable: true },
          { paymentMethod: 'PAY_LATER', isAvailable: false, reasonCodeMethodAvailability: 'NO_CONTRACT' },
        ],
      });

      const stored = await http().get(`${BANK}/_control/payments/${res.body.paymentId}`);
      expect(stored.body).toEqual({
        id: res.body.paymentId,
        amountValue: 12.5,
        currency: 'EUR',
        variableSymbol: '2024001',
        preferredMethod: 'CARD_PAY',
        redirectUri: RETURN_URL,
        ipAddress: '188.200.192.180',
        acceptLanguage: 'sk',
        requestId: '7e5f4c2a-1111-4222-8333-444455556666',
        body: paymentBody(),
        authorizationStatus: 'NEW',
        selectedPaymentMethod: null,
        status: null,
        createdAt: expect.any(String),
        authorizedAt: null,
        refunds: [],
      });
      expect((await paymentStatus(res.body.paymentId)).body).toEqual({ authorizationStatus: 'NEW' });
    });

    it('takes an IPv6 address and a card payment without a card holder or remittance', async () => {
      const body = paymentBody({ cardDetail: undefined, bankTransfer: undefined });
      const res = await createPayment(body, { 'IP-Address': '2001:db8::1' });
      expect(res.status).toBe(201);
    });

    it.each<[string, Json, Record<string, string | undefined>, string]>([
      ['no Redirect-URI', paymentBody(), { 'Redirect-URI': undefined }, 'Redirect-URI header: required'],
      ['a relative Redirect-URI', paymentBody(), { 'Redirect-URI': '/shop/back' }, 'Redirect-URI header: must be'],
      ['an unknown Preferred-Method', paymentBody(), { 'Preferred-Method': 'CASH' }, 'Preferred-Method header'],
      ['no IP-Address', paymentBody(), { 'IP-Address': undefined }, 'IP-Address header: required'],
      ['a bad IP-Address', paymentBody(), { 'IP-Address': '300.1.1.1' }, 'IP-Address header: must be'],
      [
        'a zero amount',
        paymentBody({ 'basePayment.instructedAmount.amountValue': 0 }),
        {},
        'amountValue: must be greater than 0',
      ],
      [
        'three decimals',
        paymentBody({ 'basePayment.instructedAmount.amountValue': 12.345 }),
        {},
        'amountValue: must have at most 2 decimals',
      ],
      [
        'an amount as text',
        paymentBody({ 'basePayment.instructedAmount.amountValue': '12.50' }),
        {},
        'amountValue: must be a number',
      ],
      [
        'a lowercase currency',
        paymentBody({ 'basePayment.instructedAmount.currency': 'eur' }),
        {},
        'currency: must be 3 uppercase letters',
      ],
      [
        'an 11-digit symbol',
        paymentBody({ 'basePayment.endToEnd.variableSymbol': '12345678901' }),
        {},
        'variableSymbol: must be a string of 1–10 digits',
      ],
      [
        'a numeric symbol',
        paymentBody({ 'basePayment.endToEnd.variableSymbol': 2024001 }),
        {},
        'variableSymbol: must be a string',
      ],
      ['an empty first name', paymentBody({ 'userData.firstName': '' }), {}, 'userData.firstName: must not be empty'],
      [
        'a 31-character last name',
        paymentBody({ 'userData.lastName': 'x'.repeat(31) }),
        {},
        'userData.lastName: must be at most 30 characters',
      ],
      ['no e-mail', paymentBody({ 'userData.email': undefined }), {}, 'userData.email: must be a string'],
      ['no payer', paymentBody({ userData: undefined }), {}, 'userData: must be an object'],
      [
        'a card holder with diacritics',
        paymentBody({ 'cardDetail.cardHolder': 'Jana Nováková' }),
        {},
        'cardDetail.cardHolder: must be ASCII only',
      ],
      [
        'a one-letter card holder',
        paymentBody({ 'cardDetail.cardHolder': 'J' }),
        {},
        'cardDetail.cardHolder: must be at least 2 characters',
      ],
      [
        'a bank transfer without remittance',
        paymentBody({ bankTransfer: undefined }),
        { 'Preferred-Method': 'BANK_TRANSFER' },
        'bankTransfer.remittanceInformationUnstructured: must be a string',
      ],
      [
        'a QR payment without remittance',
        paymentBody({ bankTransfer: undefined }),
        { 'Preferred-Method': 'QR_PAY' },
        'remittanceInformationUnstructured: must be a string',
      ],
      [
        'a remittance with &',
        paymentBody({ 'bankTransfer.remittanceInformationUnstructured': 'A & B' }),
        { 'Preferred-Method': 'QR_PAY' },
        'remittanceInformationUnstructured: must be made of',
      ],
      [
        'a 101-character remittance',
        paymentBody({ 'bankTransfer.remittanceInformationUnstructured': 'x'.repeat(101) }),
        { 'Preferred-Method': 'BANK_TRANSFER' },
        'remittanceInformationUnstructured: must be at most 100 characters',
      ],
    ])('answers 400 ILLEGAL_ARGUMENT to %s', async (_case, body, headers, description) => {
      const res = await createPayment(body, headers);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        errorCode: 'ILLEGAL_ARGUMENT',
        errorDescription: expect.stringContaining(description),
      });
      expect((await http().get(`${BANK}/_control/payments`)).body).toEqual([]);
    });

    it('answers 400 ILLEGAL_ARGUMENT to a body that is not an object', async () => {
      const res = await createPayment([] as unknown as Json);
      expect(res.body).toEqual({
        errorCode: 'ILLEGAL_ARGUMENT',
        errorDescription: 'request body: must be a JSON object',
      });
    });

    it('answers 400 PAYMENT_NOT_FOUND for the status of an unknown payment', async () => {
      const res = await paymentStatus('0b6c1f6e-0000-4000-8000-000000000000');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ errorCode: 'PAYMENT_NOT_FOUND', errorDescription: expect.any(String) });
    });
  });

  describe('pay page', () => {
    it('shows the payment with a button per outcome, without scripts or inline styles', async () => {
      const id = await paymentId('BANK_TRANSFER');
      const res = await http().get(`${BANK}/pay/${id}`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toContain('<h1>Sandbox bank</h1>');
      expect(res.text).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
      expect(res.text).toContain('<dd>12.50 EUR</dd>');
      expect(res.text).toContain('<dd>2024001</dd>');
      expect(res.text).toContain('<dd>BANK_TRANSFER</dd>');
      expect(res.text).toContain(`<form method="post" action="${BANK}/pay/${id}">`);
      for (const [value, label] of [
        ['card-ok', 'Pay by card'],
        ['card-declined', 'Card declined'],
        ['bank-transfer', 'Pay by bank transfer'],
        ['qr', 'Pay by QR code'],
        ['cancel', 'Cancel payment'],
      ]) {
        expect(res.text).toContain(`<button type="submit" name="outcome" value="${value}">${label}</button>`);
      }
      expect(res.text).not.toMatch(/<script|<style|style=/i);
      // The form's redirect goes back to the shop, so the page's CSP must allow posting towards it.
      expect(res.headers['content-security-policy']).toContain("form-action 'self' https://shop.example");
    });

    it('answers 404 for an unknown payment', async () => {
      const res = await http().get(`${BANK}/pay/0b6c1f6e-0000-4000-8000-000000000000`);
      expect(res.status).toBe(404);
      expect(res.text).toContain('The bank has no payment 0b6c1f6e-0000-4000-8000-000000000000.');
    });

    const card = (status: 'OK' | 'FAIL') => ({
      status,
      currency: 'EUR',
      amount: 12.5,
      maskedCardNumber: '440577******5558',
      ...(status === 'FAIL' ? { reasonCode: '05' } : {}),
    });

    it.each<[string, string, Json]>([
      [
        'card-ok',
        'CARD_PAY',
        { authorizationStatus: 'AUTH_DONE', selectedPaymentMethod: 'CARD_PAY', status: card('OK') },
      ],
      [
        'card-declined',
        'CARD_PAY',
        { authorizationStatus: 'AUTH_FAILED', selectedPaymentMethod: 'CARD_PAY', status: card('FAIL') },
      ],
      [
        'bank-transfer',
        'BANK_TRANSFER',
        { authorizationStatus: 'AUTH_DONE', selectedPaymentMethod: 'BANK_TRANSFER', status: 'ACSP' },
      ],
      ['qr', 'QR_PAY', { authorizationStatus: 'AUTH_DONE', selectedPaymentMethod: 'QR_PAY', status: 'ACSP' }],
    ])('%s sends the shopper back with the method and sets the status', async (outcome, method, status) => {
      const id = await paymentId(method === 'CARD_PAY' ? 'CARD_PAY' : 'BANK_TRANSFER');
      const res = await choose(id, outcome);
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe(`${RETURN_URL}&paymentId=${id}&paymentMethod=${method}`);
      expect((await paymentStatus(id)).body).toEqual(status);
      const stored = await http().get(`${BANK}/_control/payments/${id}`);
      expect(Date.parse(stored.body.authorizedAt)).toBeGreaterThan(Date.now() - 60_000);
    });

    it('cancel sends the shopper back with an error and closes the payment', async () => {
      const id = await paymentId();
      const res = await choose(id, 'cancel');
      expect(res.status).toBe(303);
      expect(res.headers.location.startsWith(`${RETURN_URL}&`)).toBe(true);
      expect(queryOf(res.headers.location)).toEqual({
        order: 'abc123',
        paymentId: id,
        error: 'CANCELLED_BY_USER',
        errorId: expect.stringMatching(UUID_V4),
      });
      expect((await paymentStatus(id)).body).toEqual({ authorizationStatus: 'CANCELLED_BY_USER' });
    });

    it('uses ? when the Redirect-URI has no query', async () => {
      const res = await createPayment(paymentBody(), { 'Redirect-URI': 'http://localhost:3000/back' });
      const back = await choose(res.body.paymentId, 'qr');
      expect(back.headers.location).toBe(
        `http://localhost:3000/back?paymentId=${res.body.paymentId}&paymentMethod=QR_PAY`,
      );
    });

    it('answers 409 once the payment is processed, and 400 to an unknown outcome', async () => {
      const id = await paymentId();
      const unknown = await choose(id, 'steal');
      expect(unknown.status).toBe(400);
      expect(unknown.text).toContain('the bank accepts card-ok, card-declined, bank-transfer, qr, cancel');
      await choose(id, 'card-ok').expect(303);
      for (const res of [await http().get(`${BANK}/pay/${id}`), await choose(id, 'cancel')]) {
        expect(res.status).toBe(409);
        expect(res.text).toContain('This payment has already been processed');
      }
      expect((await paymentStatus(id)).body.authorizationStatus).toBe('AUTH_DONE');
    });

    it('settles a bank transfer (ACSC) and a QR payment (ACCC) after settleAfterMs', async () => {
      // Long enough that a loaded machine still sees both payments unsettled first; each settles on
      // its own clock, so both are awaited.
      await control('/settings', { settleAfterMs: 2000 }).expect(200);
      const transfer = await paymentId('BANK_TRANSFER');
      const qr = await paymentId('QR_PAY');
      await choose(transfer, 'bank-transfer').expect(303);
      await choose(qr, 'qr').expect(303);
      expect((await paymentStatus(transfer)).body.status).toBe('ACSP');
      expect((await paymentStatus(qr)).body.status).toBe('ACSP');
      await eventually(async () => (await paymentStatus(transfer)).body.status === 'ACSC', 8000);
      await eventually(async () => (await paymentStatus(qr)).body.status === 'ACCC', 8000);
    });
  });

  describe('cancel payment', () => {
    const cancel = async (id: string) =>
      http()
        .delete(`${BANK}/v1/payments/${id}`)
        .set('Authorization', `Bearer ${await token()}`);

    it('cancels a NEW payment once, and no payment the shopper has acted on', async () => {
      const id = await paymentId();
      const res = await cancel(id);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({});
      expect((await paymentStatus(id)).body).toEqual({ authorizationStatus: 'CANCELLED_BY_TPP' });
      const again = await cancel(id);
      expect(again.status).toBe(400);
      expect(again.body).toMatchObject({ errorCode: 'PAYMENT_CANNOT_BE_CANCELLED' });

      const paid = await paymentId();
      await choose(paid, 'card-ok').expect(303);
      expect((await cancel(paid)).body).toMatchObject({ errorCode: 'PAYMENT_CANNOT_BE_CANCELLED' });
      expect((await http().get(`${BANK}/pay/${id}`)).status).toBe(409);
    });

    it('answers 400 PAYMENT_NOT_FOUND for an unknown payment', async () => {
      const res = await cancel('nope');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ errorCode: 'PAYMENT_NOT_FOUND' });
    });
  });

  describe('refund payment', () => {
    const refund = async (id: string, body: Json) =>
      http()
        .post(`${BANK}/v1/payments/${id}/refunds`)
        .set('Authorization', `Bearer ${await token()}`)
        .send(body);
    const amount = (amountValue: number) => ({ amountValue, currency: 'EUR' });

    it('refunds a paid card payment in parts up to its amount, once per merchant refund id', async () => {
      const id = await paymentId();
      await choose(id, 'card-ok').expect(303);
      const first = await refund(id, { merchantRefundId: 'r-1', amount: amount(10) });
      expect(first.status).toBe(201);
      expect(first.body).toEqual({ refundId: expect.stringMatching(UUID_V4), status: 'ACCEPTED' });
      const repeated = await refund(id, { merchantRefundId: 'r-1', amount: amount(10) });
      expect(repeated.body).toEqual(first.body);
      const tooMuch = await refund(id, { merchantRefundId: 'r-2', amount: amount(2.51) });
      expect(tooMuch.status).toBe(400);
      expect(tooMuch.body).toMatchObject({ errorCode: 'REFUND_AMOUNT_EXCEEDED' });
      expect((await refund(id, { merchantRefundId: 'r-3', amount: amount(2.5) })).status).toBe(201);
      const stored = await http().get(`${BANK}/_control/payments/${id}`).expect(200);
      expect(stored.body.refunds).toMatchObject([
        { merchantRefundId: 'r-1', amountValue: 10 },
        { merchantRefundId: 'r-3', amountValue: 2.5 },
      ]);
    });

    it('refuses payments that are not paid by card, and every refund while the issuer refuses them', async () => {
      const unpaid = await paymentId();
      const notPaid = await refund(unpaid, { merchantRefundId: 'r-1', amount: amount(1) });
      expect(notPaid.status).toBe(400);
      expect(notPaid.body).toMatchObject({ errorCode: 'PAYMENT_NOT_REFUNDABLE' });
      const transfer = await paymentId('BANK_TRANSFER');
      await choose(transfer, 'bank-transfer').expect(303);
      expect((await refund(transfer, { merchantRefundId: 'r-2', amount: amount(1) })).body).toMatchObject({
        errorCode: 'PAYMENT_NOT_REFUNDABLE',
      });
      const paid = await paymentId();
      await choose(paid, 'card-ok').expect(303);
      await control('/settings', { refuseRefunds: true }).expect(200);
      const refused = await refund(paid, { merchantRefundId: 'r-3', amount: amount(1) });
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        errorCode: 'REFUND_REFUSED',
        errorDescription: 'The card issuer refused the refund.',
      });
      const malformed = await refund(paid, { merchantRefundId: 'r-4', amount: { amountValue: 1, currency: 'eur' } });
      expect(malformed.body).toMatchObject({ errorCode: 'ILLEGAL_ARGUMENT' });
      expect((await refund('nope', { merchantRefundId: 'r-5', amount: amount(1) })).body).toMatchObject({
        errorCode: 'PAYMENT_NOT_FOUND',
      });
    });
  });

  describe('methods and loan precalculation', () => {
    it('lists the payment methods', async () => {
      const res = await http()
        .get(`${BANK}/v1/payments/methods`)
        .set('Authorization', `Bearer ${await token()}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        paymentMethods: [
          {
            paymentMethod: 'CARD_PAY',
            supportedCurrency: ['EUR', 'CZK', 'HUF', 'USD'],
            isPrecalculationAllowed: false,
          },
          { paymentMethod: 'BANK_TRANSFER', supportedCurrency: ['EUR'], isPrecalculationAllowed: false },
          { paymentMethod: 'QR_PAY', supportedCurrency: ['EUR'], isPrecalculationAllowed: false },
          {
            paymentMethod: 'PAY_LATER',
            amountRangeRule: { minAmount: 100, maxAmount: 40000 },
            supportedCurrency: ['EUR'],
            supportedCountry: ['SK'],
            isPrecalculationAllowed: true,
          },
        ],
      });
    });

    const precalculate = async (body: Json, scope: 'BANKPAYPLUS' | 'PAY_LATER' = 'PAY_LATER') =>
      http()
        .put(`${BANK}/v1/payments/loans/precalculation`)
        .set('Authorization', `Bearer ${await token(scope)}`)
        .send(body);

    it('offers annuity loans for 6 to 60 months, 12 preferred by default', async () => {
      const res = await precalculate({ loanAmount: 1000, currency: 'EUR' });
      expect(res.status).toBe(200);
      expect(res.body.map((offer: Json) => offer.loanDuration)).toEqual([6, 12, 24, 36, 48, 60]);
      expect(res.body.filter((offer: Json) => offer.mainPreference)).toHaveLength(1);
      expect(res.body[1]).toEqual({
        loanInterestRate: 9.9,
        installmentAmount: 87.87,
        loanDuration: 12,
        preference: true,
        mainPreference: true,
        rpmn: 10.36,
        totalAmount: 1054.44,
        loanFee: 0,
      });
    });

    it('lends the amount less the down payment and prefers the asked duration, with either scope', async () => {
      const res = await precalculate({ loanAmount: 1000, downPayment: 200, preferredLoanDuration: 24 }, 'BANKPAYPLUS');
      expect(res.status).toBe(200);
      const preferred = res.body.filter((offer: Json) => offer.preference);
      expect(preferred).toEqual([
        expect.objectContaining({
          loanDuration: 24,
          installmentAmount: 36.88,
          totalAmount: 885.12,
          mainPreference: true,
        }),
      ]);
      expect(res.body[0]).toMatchObject({ loanDuration: 6, installmentAmount: 137.21, preference: false });
    });

    it.each<[string, Json, Json]>([
      ['below 100', { loanAmount: 99.99 }, { errorCode: 'LOAN_AMNT_LOW' }],
      ['above 40000', { loanAmount: 40000.01 }, { errorCode: 'LOAN_AMNT_HIGH' }],
      [
        'a loan amount as text',
        { loanAmount: '1000' },
        { errorCode: 'ILLEGAL_ARGUMENT', errorDescription: 'loanAmount: must be a number' },
      ],
      [
        'another currency',
        { loanAmount: 1000, currency: 'CZK' },
        { errorCode: 'ILLEGAL_ARGUMENT', errorDescription: 'currency: must be EUR' },
      ],
      ['a duration not offered', { loanAmount: 1000, preferredLoanDuration: 18 }, { errorCode: 'ILLEGAL_ARGUMENT' }],
    ])('answers 400 to %s', async (_case, body, error) => {
      const res = await precalculate(body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject(error);
    });
  });

  describe('loan applications', () => {
    const apply = async (body: Json = applicationBody(), redirect: string | null = RETURN_URL) => {
      const req = http()
        .post(`${BANK}/v1/applications`)
        .set('Authorization', `Bearer ${await token('PAY_LATER')}`)
        .set('X-Request-ID', 'app-req-1');
      if (redirect) req.set('Redirect-URI', redirect);
      return req.send(body);
    };
    const applicationStatus = async (id: string) =>
      http()
        .get(`${BANK}/v1/applications/${id}/status`)
        .set('Authorization', `Bearer ${await token('PAY_LATER')}`);

    it('creates an application with a loan page and stores it', async () => {
      const res = await apply();
      expect(res.status).toBe(201);
      const origin = new URL(res.request.url).origin;
      expect(res.body).toEqual({
        applicationId: expect.stringMatching(UUID_V4),
        redirectUrl: `${origin}${BANK}/loan/${res.body.applicationId}`,
      });
      expect((await applicationStatus(res.body.applicationId)).body).toEqual({ status: 'NEW' });
      const stored = await http().get(`${BANK}/_control/applications`);
      expect(stored.body).toEqual([
        {
          id: res.body.applicationId,
          status: 'NEW',
          orderNo: 'ORD-1001',
          amountValue: 150,
          currency: 'EUR',
          redirectUri: RETURN_URL,
          requestId: 'app-req-1',
          body: applicationBody(),
          createdAt: expect.any(String),
        },
      ]);
    });

    it.each<[string, Json, Json]>([
      [
        'an amount that is not the items’ sum',
        applicationBody({ 'instructedAmount.amountValue': 150.01 }),
        { errorCode: 'TOT_AMNT_MISMATCH' },
      ],
      [
        'a loan below 100',
        applicationBody({
          'order.orderItems': [{ quantity: 1, totalItemPrice: 99, itemDetail: { itemDetailSK: { itemName: 'Mug' } } }],
          'instructedAmount.amountValue': 99,
        }),
        { errorCode: 'LOAN_AMNT_LOW' },
      ],
      [
        'a loan above 40000',
        applicationBody({
          'order.orderItems': [
            { quantity: 1, totalItemPrice: 40001, itemDetail: { itemDetailSK: { itemName: 'Car' } } },
          ],
          'instructedAmount.amountValue': 40001,
        }),
        { errorCode: 'LOAN_AMNT_HIGH' },
      ],
      [
        'no items',
        applicationBody({ 'order.orderItems': [] }),
        { errorCode: 'ILLEGAL_ARGUMENT', errorDescription: 'order.orderItems: must be a non-empty array' },
      ],
      [
        'an item without a name',
        applicationBody({ 'order.orderItems.1.itemDetail.itemDetailSK.itemName': undefined }),
        {
          errorCode: 'ILLEGAL_ARGUMENT',
          errorDescription: 'order.orderItems.1.itemDetail.itemDetailSK.itemName: must be a string',
        },
      ],
      [
        'no applicant e-mail',
        applicationBody({ 'applicant.email': 'jana' }),
        { errorCode: 'ILLEGAL_ARGUMENT', errorDescription: 'applicant.email: must be an e-mail address' },
      ],
      [
        'no externalApplicantId',
        applicationBody({ externalApplicantId: undefined }),
        { errorCode: 'ILLEGAL_ARGUMENT' },
      ],
    ])('answers 400 to %s', async (_case, body, error) => {
      const res = await apply(body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject(error);
    });

    it('requires the Redirect-URI header', async () => {
      const res = await apply(applicationBody(), null);
      expect(res.body).toMatchObject({
        errorCode: 'ILLEGAL_ARGUMENT',
        errorDescription: expect.stringContaining('Redirect-URI'),
      });
    });

    it('answers 400 APPLICATION_NOT_FOUND for an unknown application', async () => {
      const res = await applicationStatus('nope');
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ errorCode: 'APPLICATION_NOT_FOUND' });
    });

    it('lets the shopper sign the loan on the loan page, once', async () => {
      const { applicationId } = (await apply()).body;
      const page = await http().get(`${BANK}/loan/${applicationId}`);
      expect(page.status).toBe(200);
      expect(page.text).toContain('<dd>150.00 EUR</dd>');
      expect(page.text).toContain('<dd>ORD-1001</dd>');
      expect(page.text).toContain('<button type="submit" name="outcome" value="disbursed">Sign the loan</button>');
      expect(page.text).toContain('<button type="submit" name="outcome" value="cancel">Cancel</button>');

      const signed = await http().post(`${BANK}/loan/${applicationId}`).type('form').send({ outcome: 'disbursed' });
      expect(signed.status).toBe(303);
      expect(signed.headers.location).toBe(`${RETURN_URL}&order_number=ORD-1001&applicationId=${applicationId}`);
      expect((await applicationStatus(applicationId)).body).toEqual({ status: 'LOAN_DISBURSED' });
      expect((await http().get(`${BANK}/loan/${applicationId}`)).status).toBe(409);
      expect((await http().get(`${BANK}/loan/nope`)).status).toBe(404);
    });

    it('lets the shopper cancel the application', async () => {
      const { applicationId } = (await apply()).body;
      await http().post(`${BANK}/loan/${applicationId}`).type('form').send({ outcome: 'cancel' }).expect(303);
      expect((await applicationStatus(applicationId)).body).toEqual({ status: 'CANCELED' });
    });
  });

  describe('CardPay', () => {
    it('shows a signed request with the parameters carried in hidden fields, escaped', async () => {
      const params = cardPayRequest();
      const named = cardPayRequest({ NAME: 'Peter <b>Novak</b> & "Co"' });
      named.HMAC = signCardPayRequest(demoKey, named);
      for (const query of [params, named]) {
        const res = await http().get(`${BANK}/cardpay`).query(query);
        expect(res.status).toBe(200);
        expect(res.text).toContain('<dd>20.78 EUR</dd>');
        expect(res.text).toContain(`<form method="post" action="${BANK}/cardpay">`);
        expect(res.text).toContain(`<input type="hidden" name="HMAC" value="${query.HMAC}">`);
        expect(res.text).toContain('<button type="submit" name="result" value="OK">Pay</button>');
        expect(res.text).toContain('<button type="submit" name="result" value="FAIL">Decline</button>');
        expect(res.text).toContain('<button type="submit" name="result" value="TOUT">Time out</button>');
        expect(res.text).not.toMatch(/<script|<style|style=/i);
      }
      const escaped = await http().get(`${BANK}/cardpay`).query(named);
      expect(escaped.text).toContain('<dd>Peter &lt;b&gt;Novak&lt;/b&gt; &amp; &quot;Co&quot;</dd>');
      expect(escaped.text).not.toContain('<b>Novak');
    });

    it.each<[string, Record<string, string | undefined>, string]>([
      ['a tampered amount', { AMT: '1.00' }, 'HMAC does not verify'],
      ['an unknown merchant', { MID: '1234' }, 'MID 1234 is not a merchant the sandbox bank knows'],
      ['no HMAC', { HMAC: undefined }, 'HMAC is missing'],
      ['an amount with a comma', { AMT: '20,78' }, 'AMT must be an amount like 12.50'],
      ['an alphabetic currency', { CURR: 'EUR' }, 'CURR must be one of 978, 203, 348, 840'],
      ['a long variable symbol', { VS: '12345678901' }, 'VS must be 1–10 digits'],
      ['a return URL that is not http', { RURL: 'javascript:alert(1)' }, 'RURL must be an absolute http(s) URL'],
    ])('answers 400 to %s, saying what is wrong', async (_case, set, problem) => {
      const res = await http().get(`${BANK}/cardpay`).query(cardPayRequest(set));
      expect(res.status).toBe(400);
      expect(res.text).toContain(problem);
    });

    it('sends the shopper back to RURL with a return that verifies by HMAC and ECDSA', async () => {
      const params = cardPayRequest();
      const res = await http()
        .post(`${BANK}/cardpay`)
        .type('form')
        .send({ ...params, result: 'OK' });
      expect(res.status).toBe(303);
      expect(res.headers.location.startsWith(`${params.RURL}?AMT=20.78&CURR=978&VS=78945210&RES=OK&AC=`)).toBe(true);
      const back = queryOf(res.headers.location);
      expect(Object.keys(back)).toEqual([
        'AMT',
        'CURR',
        'VS',
        'RES',
        'AC',
        'TID',
        'TIMESTAMP',
        'HMAC',
        'ECDSA_KEY',
        'ECDSA',
      ]);
      expect(back.AC).toMatch(/^\d{6}$/);
      expect(back.TID).toMatch(/^\d+$/);
      expect(back.TIMESTAMP).toMatch(/^\d{14}$/);
      expect(back.HMAC).toBe(signCardPayReturn(demoKey, back));
      expect(back.ECDSA_KEY).toBe('1');

      const keys = await http().get(`${BANK}/cardpay/keys`);
      expect(keys.body).toEqual({ keys: [{ id: '1', pem: expect.stringMatching(/^-----BEGIN PUBLIC KEY-----/) }] });
      const publicKey = createPublicKey(keys.body.keys[0].pem);
      const returnString = back.AMT + back.CURR + back.VS + back.RES + back.AC + back.TID + back.TIMESTAMP;
      const signed = Buffer.from(returnString + back.HMAC);
      expect(verify('sha256', signed, publicKey, Buffer.from(back.ECDSA, 'hex'))).toBe(true);
      expect(
        verify('sha256', Buffer.from(`${returnString}0${back.HMAC}`), publicKey, Buffer.from(back.ECDSA, 'hex')),
      ).toBe(false);
    });

    it.each(['FAIL', 'TOUT'])('returns %s without an approval code', async (result) => {
      const params = cardPayRequest();
      const res = await http()
        .post(`${BANK}/cardpay`)
        .type('form')
        .send({ ...params, result });
      const back = queryOf(res.headers.location);
      expect(back).toMatchObject({ RES: result, AMT: '20.78' });
      expect(back).not.toHaveProperty('AC');
      expect(back.HMAC).toBe(signCardPayReturn(demoKey, back));
    });

    it('verifies the request again on the post, and wants a known result', async () => {
      const tampered = await http()
        .post(`${BANK}/cardpay`)
        .type('form')
        .send({ ...cardPayRequest(), VS: '1', result: 'OK' });
      expect(tampered.status).toBe(400);
      expect(tampered.text).toContain('HMAC does not verify');
      const unknown = await http()
        .post(`${BANK}/cardpay`)
        .type('form')
        .send({ ...cardPayRequest(), result: 'MAYBE' });
      expect(unknown.status).toBe(400);
    });
  });

  describe('fault modes', () => {
    const methods = async () => {
      const issued = await token();
      return http()
        .get(`${BANK}/v1/payments/methods`)
        .set('Authorization', `Bearer ${issued}`)
        .set('X-Request-ID', 'r-9');
    };

    it('timeout keeps the switched paths silent past a 1000 ms client timeout, and only those', async () => {
      const mode = await control('/mode', { mode: 'timeout', paths: ['/v1/payments'] });
      expect(mode.body).toEqual({ mode: 'timeout', paths: ['/v1/payments'] });
      const issued = await token(); // /auth is not switched
      const started = Date.now();
      await expect(
        http().get(`${BANK}/v1/payments/methods`).set('Authorization', `Bearer ${issued}`).timeout(1000),
      ).rejects.toMatchObject({ timeout: 1000 });
      expect(Date.now() - started).toBeGreaterThanOrEqual(990);
      // Pages and the control endpoints never time out.
      expect((await http().get(`${BANK}/_control/stats`)).status).toBe(200);
      expect((await http().get(`${BANK}/pay/nope`)).status).toBe(404);
    });

    it('timeout answers normally after 6 s to a caller that waits', async () => {
      await control('/mode', { mode: 'timeout' }).expect(200, { mode: 'timeout', paths: ['/auth', '/v1'] });
      const started = Date.now();
      const res = await tokenRequest({ ...CLIENT, scope: 'BANKPAYPLUS' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(5500);
      expect(res.status).toBe(200);
    });

    it('error answers 503 with an empty body', async () => {
      await control('/mode', { mode: 'error', paths: ['/v1'] }).expect(200);
      const res = await methods();
      expect(res.status).toBe(503);
      expect(res.text).toBe('');
      expect(res.headers['x-request-id']).toBe('r-9');
      await control('/mode', { mode: 'error' }).expect(200);
      expect((await tokenRequest({ ...CLIENT, scope: 'BANKPAYPLUS' })).status).toBe(503);
    });

    it('garbage answers 200 with truncated JSON', async () => {
      await control('/mode', { mode: 'garbage', paths: ['/v1/payments'] }).expect(200);
      const issued = await token();
      const res = await http()
        .get(`${BANK}/v1/payments/methods`)
        .set('Authorization', `Bearer ${issued}`)
        .buffer(true)
        .parse(rawText);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toBe('{"paymentId": ');
    });

    it('normal brings the bank back', async () => {
      await control('/mode', { mode: 'error' }).expect(200);
      await control('/mode', { mode: 'normal' }).expect(200, { mode: 'normal', paths: ['/auth', '/v1'] });
      expect((await methods()).status).toBe(200);
    });

    it('refuses an unknown mode or bad paths', async () => {
      expect((await control('/mode', { mode: 'slow' })).body).toMatchObject({ errorCode: 'ILLEGAL_ARGUMENT' });
      expect((await control('/mode', { mode: 'error', paths: ['v1'] })).body).toMatchObject({
        errorCode: 'ILLEGAL_ARGUMENT',
      });
    });
  });

  describe('control', () => {
    it('forces statuses: a forced status wins over the derived one', async () => {
      await control('/settings', { settleAfterMs: 0 }).expect(200);
      const id = await paymentId('BANK_TRANSFER');
      await choose(id, 'bank-transfer').expect(303);
      expect((await paymentStatus(id)).body.status).toBe('ACSC');
      const forced = await control(`/payments/${id}`, { status: 'RJCT' });
      expect(forced.status).toBe(200);
      expect(forced.body).toMatchObject({ id, status: 'RJCT', authorizationStatus: 'AUTH_DONE' });
      expect((await paymentStatus(id)).body).toEqual({
        authorizationStatus: 'AUTH_DONE',
        selectedPaymentMethod: 'BANK_TRANSFER',
        status: 'RJCT',
      });

      const card = await paymentId();
      await control(`/payments/${card}`, {
        authorizationStatus: 'PAY_METHOD_SELECTED',
        selectedPaymentMethod: 'CARD_PAY',
        status: { status: 'INIT', currency: 'EUR' },
      }).expect(200);
      expect((await paymentStatus(card)).body).toEqual({
        authorizationStatus: 'PAY_METHOD_SELECTED',
        selectedPaymentMethod: 'CARD_PAY',
        status: { status: 'INIT', currency: 'EUR' },
      });
      // Still payable: the pay page opens.
      expect((await http().get(`${BANK}/pay/${card}`)).status).toBe(200);
      await control(`/payments/${card}`, { authorizationStatus: 'EXPIRED', status: null }).expect(200);
      expect((await paymentStatus(card)).body).toEqual({
        authorizationStatus: 'EXPIRED',
        selectedPaymentMethod: 'CARD_PAY',
      });
    });

    it('forces an application status', async () => {
      const created = await http()
        .post(`${BANK}/v1/applications`)
        .set('Authorization', `Bearer ${await token('PAY_LATER')}`)
        .set('Redirect-URI', RETURN_URL)
        .send(applicationBody());
      const id = created.body.applicationId;
      await control(`/applications/${id}`, { status: 'LOAN_APPLICATION_IN_PROGRESS' }).expect(200);
      const status = await http()
        .get(`${BANK}/v1/applications/${id}/status`)
        .set('Authorization', `Bearer ${await token('PAY_LATER')}`);
      expect(status.body).toEqual({ status: 'LOAN_APPLICATION_IN_PROGRESS' });
      expect((await http().get(`${BANK}/_control/applications/${id}`)).body.status).toBe(
        'LOAN_APPLICATION_IN_PROGRESS',
      );
    });

    it('answers 404 JSON for unknown records', async () => {
      for (const res of [
        await control('/payments/nope', { status: 'ACSC' }),
        await http().get(`${BANK}/_control/payments/nope`),
        await control('/applications/nope', { status: 'EXPIRED' }),
        await http().get(`${BANK}/_control/applications/nope`),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({
          errorCode: expect.stringMatching(/_NOT_FOUND$/),
          errorDescription: expect.any(String),
        });
      }
    });

    it('lists payments oldest first', async () => {
      const first = await paymentId();
      const second = await paymentId('QR_PAY');
      const list = await http().get(`${BANK}/_control/payments`);
      expect(list.body.map((payment: Json) => [payment.id, payment.preferredMethod])).toEqual([
        [first, 'CARD_PAY'],
        [second, 'QR_PAY'],
      ]);
    });

    it('counts requests by route, faulted ones included', async () => {
      const id = await paymentId();
      await paymentStatus(id);
      await paymentStatus('unknown-id');
      await http().get(`${BANK}/v1/payments/methods`);
      await control('/mode', { mode: 'error', paths: ['/v1/payments/methods'] }).expect(200);
      await http().get(`${BANK}/v1/payments/methods`);
      const stats = await http().get(`${BANK}/_control/stats`);
      expect(stats.body).toEqual({
        tokenRequests: { BANKPAYPLUS: 3, PAY_LATER: 0 },
        requests: {
          'POST /auth/oauth/v2/token': 3,
          'POST /v1/payments': 1,
          'GET /v1/payments/{id}/status': 2,
          'GET /v1/payments/methods': 2,
        },
      });
    });

    it('reset forgets payments, applications, tokens, stats, mode and settings', async () => {
      const issued = await token();
      await paymentId();
      await control('/settings', { tokenLifetimeSeconds: 5, settleAfterMs: 1 }).expect(200);
      await control('/mode', { mode: 'error', paths: ['/v1/applications'] }).expect(200);
      await control('/reset', {}).expect(200, {});

      expect((await http().get(`${BANK}/_control/payments`)).body).toEqual([]);
      expect((await http().get(`${BANK}/_control/applications`)).body).toEqual([]);
      expect((await http().get(`${BANK}/_control/stats`)).body).toEqual({
        tokenRequests: { BANKPAYPLUS: 0, PAY_LATER: 0 },
        requests: {},
      });
      const stale = await http().get(`${BANK}/v1/payments/methods`).set('Authorization', `Bearer ${issued}`);
      expect(stale.body).toEqual({ errorCode: 'TOKEN_UNKNOWN' });
      const fresh = await tokenRequest({ ...CLIENT, scope: 'PAY_LATER' });
      expect(fresh.body.expires_in).toBe(3600);
      const status = await http()
        .get(`${BANK}/v1/applications/nope/status`)
        .set('Authorization', `Bearer ${fresh.body.access_token}`);
      expect(status.body).toMatchObject({ errorCode: 'APPLICATION_NOT_FOUND' });
    });
  });
});
