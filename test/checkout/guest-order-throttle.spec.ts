import request from 'supertest';
import { GUEST_ORDER_LIMIT } from '../../src/shop/checkout/guest-order.controller';
import { startTestApp, TestApp } from '../support/test-app';

/** Guest order pages answer to the order number alone, so guessing numbers is throttled per IP. */
describe('guest order pages throttling', () => {
  let shop: TestApp;
  beforeAll(async () => (shop = await startTestApp()));
  afterAll(() => shop.close());

  it(`answers 429 with Retry-After after ${GUEST_ORDER_LIMIT} lookups a minute from one address`, async () => {
    const lookup = (i: number) => request(shop.server).get(`/shop/order/view/${i.toString(16).padStart(32, '0')}`);
    for (let i = 0; i < GUEST_ORDER_LIMIT; i++) expect((await lookup(i)).status).toBe(404);

    const refused = await lookup(GUEST_ORDER_LIMIT);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      success: false,
      error: {
        code: 'too_many_requests',
        message: expect.stringMatching(/^Too many requests\. Try again in \d+ seconds\.$/),
        retryAfter: expect.any(Number),
      },
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not held up (the proxy's X-Forwarded-For is trusted from loopback).
    const other = await request(shop.server)
      .get(`/shop/order/view/${'a'.repeat(32)}`)
      .set('X-Forwarded-For', '203.0.113.7');
    expect(other.status).toBe(404);
  });
});
