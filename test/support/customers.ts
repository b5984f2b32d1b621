import { Controller, Get, Module, Req, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import type { Response } from 'supertest';
import { RequiresFeature } from '../../src/common/decorators/requires-feature.decorator';
import { CustomerCoreModule } from '../../src/shop/customer/auth/customer-core.module';
import { CustomerGuard } from '../../src/shop/customer/auth/customer.guard';
import { ShopClient } from './shop-client';
import { CapturedMail, mailText } from './smtp-capture';
import { eventually } from './test-app';

export const CUSTOMER_PASSWORD = 'correct horse battery';

let counter = 0;

/** Registers a new customer through `/shop/register` (which logs the client in) and returns their e-mail. */
export async function registerCustomer(
  client: ShopClient,
  details: Partial<{ email: string; password: string; firstName: string; lastName: string }> = {},
) {
  const email = details.email ?? `shopper${Date.now()}${++counter}@example.com`;
  const res = await client.post('/shop/register', {
    email,
    password: details.password ?? CUSTOMER_PASSWORD,
    firstName: details.firstName ?? 'Ada',
    lastName: details.lastName ?? 'Lovelace',
  });
  if (res.status !== 200) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  return email;
}

/**
 * The path (`/shop/customer/verify-email?token=…`) of the latest address-confirmation link mailed to `email`,
 * once the e-mail has arrived.
 */
export async function verificationPath(messages: CapturedMail[], email: string): Promise<string> {
  const link = /(\/shop\/customer\/verify-email\?token=[0-9a-f]{64})\s/;
  const text = await eventually(() =>
    messages
      .filter((mail) => mail.to.includes(email))
      .map(mailText)
      .reverse()
      .find((body) => link.test(body)),
  );
  return link.exec(text)![1];
}

/** The link token and one-time code of the latest password-reset e-mail to `email`, once it has arrived. */
export async function resetTokenAndCode(messages: CapturedMail[], email: string) {
  const text = await eventually(() =>
    messages
      .filter((mail) => mail.to.includes(email))
      .map(mailText)
      .reverse()
      .find((body) => body.includes('/shop/create-new-password?token=')),
  );
  const token = /\/shop\/create-new-password\?token=([0-9a-f]{64})\s/.exec(text)?.[1];
  const code = /one-time code: (\d{6})\b/.exec(text)?.[1];
  if (!token || !code) throw new Error(`no link or code in:\n${text}`);
  return { token, code };
}

/**
 * Follows a mailed confirmation link as its reader does (an address confirmation from `verificationPath`, a
 * newsletter subscription): opens `path`, which shows a button, and presses it (a form POST with the page's
 * CSRF token); returns the outcome page.
 */
export async function confirmLink(client: ShopClient, path: string): Promise<Response> {
  const page = await client.get(path).set('Accept', 'text/html');
  const form = /<form method="post" action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/.exec(page.text);
  if (page.status !== 200 || !form) throw new Error(`no confirmation button: ${page.status} ${page.text}`);
  const fields = Object.fromEntries(
    [...form[2].matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map(([, name, value]) => [
      name,
      value,
    ]),
  );
  return client.agent.post(form[1]).type('form').set('Accept', 'text/html').send(fields);
}

/** A route behind the account guard, standing in for the account pages: who is logged in, if anyone. */
@Controller('test/whoami')
class WhoAmIController {
  @Get()
  @RequiresFeature('customerAccountsEnabled')
  @UseGuards(CustomerGuard)
  whoAmI(@Req() req: Request) {
    return { email: req.customer!.email, cartId: req.session.cartId ?? null };
  }
}

/** `startTestApp({ extraModules: [CustomerProbeModule] })` adds `GET /test/whoami`. */
@Module({ imports: [CustomerCoreModule], controllers: [WhoAmIController] })
export class CustomerProbeModule {}

/**
 * A 429 as the login and registration throttles answer it: the error body with `message` and `retryAfter`, and
 * the same number of seconds, within the throttle's window, in `Retry-After`.
 */
export function expectThrottled(res: Response, message: RegExp, windowMs: number): void {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({
    success: false,
    error: { code: 'too_many_requests', message: expect.stringMatching(message), retryAfter: expect.any(Number) },
  });
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowMs / 1000);
  expect(res.body.error.retryAfter).toBe(retryAfter);
}

/** The `shop.sid=…` pair a response sets, and the whole Set-Cookie line it came in. */
export function sessionCookie(res: { headers: Record<string, unknown> }): { pair: string; line: string } | undefined {
  const lines = (res.headers['set-cookie'] as string[] | undefined) ?? [];
  const line = lines.find((candidate) => candidate.startsWith('shop.sid='));
  return line ? { pair: line.split(';')[0], line } : undefined;
}
