import type { Response } from 'supertest';

/** A login refused by LoginThrottle (shop or CP): 429, the error body, and a `Retry-After` within the window. */
export function expectLoginThrottled(res: Response): void {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({
    success: false,
    error: {
      code: 'too_many_requests',
      message: expect.stringMatching(/^Too many failed logins\. Try again in (a minute|\d+ minutes)\.$/),
      retryAfter: expect.any(Number),
    },
  });
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(15 * 60);
  expect(res.body.error.retryAfter).toBe(retryAfter);
}
