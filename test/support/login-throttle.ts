import type { Response } from 'supertest';
import { LOGIN_FAILURE_WINDOW_MS } from '../../src/common/throttling/login-throttle.service';
import { expectThrottled } from './customers';

/** A login refused by LoginThrottle (shop or CP): 429, the error body, and a `Retry-After` within the window. */
export function expectLoginThrottled(res: Response): void {
  expectThrottled(res, /^Too many failed logins\. Try again in (a minute|\d+ minutes)\.$/, LOGIN_FAILURE_WINDOW_MS);
}
