import { createHash } from 'node:crypto';
import request from 'supertest';
import { Customer } from '../../src/commerce/customers/customer.entity';
import { PasswordReset } from '../../src/commerce/customers/password-reset.entity';
import { SettingsService } from '../../src/config/settings.service';
import { Job } from '../../src/jobs/job.entity';
import { RESET_REQUEST_LIMIT } from '../../src/shop/customer/password-reset/password-reset.controller';
import { RESETS_PER_ACCOUNT_HOUR } from '../../src/commerce/customers/password-reset.service';
import { CUSTOMER_PASSWORD, registerCustomer } from '../support/customers';
import { ShopClient } from '../support/shop-client';
import { mailText, startSmtpCapture, subjectOf } from '../support/smtp-capture';
import { eventually, startTestApp, TestApp, usingMysql } from '../support/test-app';

const NEW_PASSWORD = 'purple walrus juggles';
const HTML = { Accept: 'text/html' };

/** A forgotten password, reset with an e-mailed link or a one-time code. */
describe(`password reset (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
  beforeAll(async () => {
    smtp = await startSmtpCapture();
    shop = await startTestApp({ env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await shop.close();
    await smtp.close();
  });

  let ipCounter = 0;
  /** Each test asks from an address of its own, so the per-IP request limit only meets the test about it. */
  const freshIp = () => `198.51.100.${++ipCounter}`;

  const resets = () => shop.dataSource.getRepository(PasswordReset);
  const resetOf = (token: string) =>
    resets().findOneByOrFail({ tokenHash: createHash('sha256').update(token).digest('hex') });
  /** The reset e-mails to an address (registration also mails it, a link to confirm the address). */
  const mailsTo = (email: string) =>
    smtp.messages.filter(
      (mail) => mail.to.includes(email) && /^(Reset your password at|Your new code for) /.test(subjectOf(mail)),
    );

  /** The `count`-th reset e-mail to `email`: its text, the link's token and the code. */
  async function resetMail(email: string, count = 1) {
    const mail = await eventually(() => mailsTo(email)[count - 1]);
    const text = mailText(mail);
    const token = /\/shop\/create-new-password\?token=([0-9a-f]{64})\s/.exec(text)?.[1];
    const code = /one-time code: (\d{6})\b/.exec(text)?.[1];
    if (!token || !code) throw new Error(`no link or code in:\n${text}`);
    return { text, token, code, raw: mail.raw };
  }

  async function jsonPost(client: ShopClient, path: string, body: object, ip = '127.0.0.1') {
    const token = await client.csrfToken();
    return client.agent.post(path).set('X-CSRF-Token', token).set('X-Forwarded-For', ip).send(body);
  }

  /** A registered account and a reset requested for it from another browser. */
  async function startReset() {
    const email = await registerCustomer(new ShopClient(shop.server));
    const browser = new ShopClient(shop.server);
    const res = await jsonPost(browser, '/shop/forgotten-password', { email }, freshIp());
    expect(res.status).toBe(200);
    return { email, browser, ...(await resetMail(email)) };
  }

  const verify = (client: ShopClient, token: string, code: string) =>
    jsonPost(client, '/shop/verify-otp-post', { token, code });
  const resend = (client: ShopClient, token: string) => jsonPost(client, '/shop/resend-otp', { token });
  const login = (client: ShopClient, email: string, password: string) =>
    jsonPost(client, '/shop/ajax-authorize', { loginName: email, password });

  it('resets a password end to end: link and code by e-mail, code, new password, every session ended', async () => {
    const owner = new ShopClient(shop.server);
    const email = await registerCustomer(owner);
    const otherDevice = new ShopClient(shop.server);
    expect((await login(otherDevice, email, CUSTOMER_PASSWORD)).status).toBe(200);
    await otherDevice.get('/shop/account/subscriptions').expect(200);
    const before = await shop.dataSource.getRepository(Customer).findOneByOrFail({ email });
    expect(before.emailVerifiedAt).toBeNull();

    const browser = new ShopClient(shop.server);
    const asked = await jsonPost(browser, '/shop/forgotten-password', { email: ` ${email.toUpperCase()} ` }, freshIp());
    expect(asked.status).toBe(200);
    expect(asked.body).toEqual({ success: true, message: expect.stringContaining('we have sent it an e-mail') });

    const { text, token, code, raw } = await resetMail(email);
    expect(raw).toMatch(/^Subject: Reset your password at /m);
    expect(text).toContain(`Your one-time code: ${code}`);
    expect(text).toContain(`http://localhost:3000/shop/create-new-password?token=${token}`);
    expect(text).toContain('valid for 10 minutes');
    expect(mailsTo(email)).toHaveLength(1);
    // Stored as digests only.
    const row = await resetOf(token);
    expect(row).toMatchObject({ customerId: before.id, otpAttempts: 0, verifiedAt: null, usedAt: null });
    expect(row.otpHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.otpHash).not.toContain(code);
    expect(row.expiresAt - Date.now()).toBeGreaterThan(55 * 60_000);
    expect(row.otpExpiresAt - Date.now()).toBeLessThanOrEqual(10 * 60_000);

    // The link leads to the code form first; the password cannot be set before the code.
    const link = await browser.get(`/shop/create-new-password?token=${token}`).set(HTML).expect(302);
    expect(link.headers.location).toBe(`/shop/verify-otp?token=${token}`);
    const codePage = await browser.get(link.headers.location).set(HTML).expect(200);
    expect(codePage.text).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(codePage.text).toContain(`name="token" value="${token}"`);
    expect(codePage.text).toMatch(/<label for="otp-code">[^<]+<\/label>\s*<input id="otp-code" name="code"/);
    expect(codePage.text).toContain('autocomplete="one-time-code"');
    expect(codePage.headers['cache-control']).toBe('no-store');
    const early = await jsonPost(browser, '/shop/create-new-password-post', { token, password: NEW_PASSWORD });
    expect(early.status).toBe(403);
    expect(early.body.error.code).toBe('otp_required');

    const verified = await verify(browser, token, `${code.slice(0, 3)} ${code.slice(3)}`);
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({
      success: true,
      message: 'Code confirmed. Now choose your new password.',
      redirect: `/shop/create-new-password?token=${token}`,
    });
    await browser.get(`/shop/verify-otp?token=${token}`).set(HTML).expect(302);
    const form = await browser.get(`/shop/create-new-password?token=${token}`).set(HTML).expect(200);
    expect(form.text).toMatch(/<input id="new-password" name="password" type="password" autocomplete="new-password"/);

    // The password policy of registration applies.
    for (const [password, message] of [
      ['short one', 'must be at least 10 characters long'],
      ['Password123', 'is one of the most common passwords; choose another'],
    ]) {
      const refused = await jsonPost(browser, '/shop/create-new-password-post', { token, password });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({ code: 'validation_failed', fields: { password: [message] } });
    }

    const saved = await jsonPost(browser, '/shop/create-new-password-post', { token, password: NEW_PASSWORD });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({
      success: true,
      message: expect.stringContaining('Log in again'),
      redirect: '/shop/login',
    });
    const after = await shop.dataSource.getRepository(Customer).findOneByOrFail({ email });
    expect(after.authVersion).toBe(before.authVersion + 1);
    // The link came to the account's address: that confirms the address is the owner's.
    expect(after.emailVerifiedAt).toBeGreaterThan(Date.now() - 60_000);
    expect((await resetOf(token)).usedAt).toEqual(expect.any(Number));

    // Every session of the account has ended, and only the new password opens it.
    for (const session of [owner, otherDevice]) {
      const page = await session.get('/shop/account/subscriptions').set(HTML).expect(302);
      expect(page.headers.location).toBe('/shop/login?return=%2Fshop%2Faccount%2Fsubscriptions');
    }
    expect((await login(new ShopClient(shop.server), email, CUSTOMER_PASSWORD)).status).toBe(401);
    const fresh = new ShopClient(shop.server);
    expect((await login(fresh, email, NEW_PASSWORD)).status).toBe(200);
    await fresh.get('/shop/account/subscriptions').expect(200);

    // The link is spent: a clear 400, as JSON and as a page.
    const again = await jsonPost(browser, '/shop/create-new-password-post', { token, password: 'another fine phrase' });
    expect(again.status).toBe(400);
    expect(again.body.error).toEqual({
      code: 'token_used',
      message: 'This password reset link has already been used. To reset the password again, ask for a new link.',
    });
    const spent = await browser.get(`/shop/create-new-password?token=${token}`).set(HTML).expect(400);
    expect(spent.text).toContain('This password reset link has already been used.');
    expect(spent.text).toContain('href="/shop/forgotten-password"');
    expect((await verify(browser, token, code)).body.error.code).toBe('token_used');
  });

  it('works with plain forms: flash messages and redirects from the request to the login', async () => {
    const email = await registerCustomer(new ShopClient(shop.server));
    const browser = new ShopClient(shop.server);
    const page = await browser.get('/shop/forgotten-password').set(HTML).expect(200);
    expect(page.text).toMatch(
      /<label for="reset-email">E-mail<\/label>\s*<input id="reset-email" name="email" type="email" autocomplete="email"/,
    );
    expect(page.text).toContain('action="/shop/request-new-password"');

    const csrf = await browser.csrfToken();
    const form = (path: string, fields: Record<string, string>, referer?: string) =>
      browser.agent
        .post(path)
        .type('form')
        .set(HTML)
        .set('Referer', referer ?? `${shop.config.baseUrl}/`)
        .set('X-Forwarded-For', freshIp())
        .send({ ...fields, _csrf: csrf });

    const asked = await form('/shop/request-new-password', { email });
    expect(asked.status).toBe(303);
    expect(asked.headers.location).toBe('/shop/forgotten-password');
    expect((await browser.get('/shop/forgotten-password').set(HTML)).text).toContain(
      `If an account is registered with ${email}, we have sent it an e-mail`,
    );
    const { token, code } = await resetMail(email);

    // A wrong code goes back to the code page with the reason.
    const codePage = `${shop.config.baseUrl}/shop/verify-otp?token=${token}`;
    const wrong = await form(
      '/shop/verify-otp-post',
      { token, code: code === '000000' ? '111111' : '000000' },
      codePage,
    );
    expect(wrong.status).toBe(303);
    expect(wrong.headers.location).toBe(`/shop/verify-otp?token=${token}`);
    expect((await browser.get(wrong.headers.location).set(HTML)).text).toContain(
      'That code is not right (4 attempts left).',
    );

    const right = await form('/shop/verify-otp-post', { token, code }, codePage);
    expect(right.status).toBe(303);
    expect(right.headers.location).toBe(`/shop/create-new-password?token=${token}`);
    const saved = await form(
      '/shop/create-new-password-post',
      { token, password: NEW_PASSWORD },
      `http://127.0.0.1/shop/create-new-password?token=${token}`,
    );
    expect(saved.status).toBe(303);
    expect(saved.headers.location).toBe('/shop/login');
    expect((await login(new ShopClient(shop.server), email, NEW_PASSWORD)).status).toBe(200);
  });

  it('answers an unknown address exactly like a known one, and e-mails nobody', async () => {
    const known = await registerCustomer(new ShopClient(shop.server));
    const unknown = `nobody-${Date.now()}@example.com`;
    const ask = (email: string) =>
      jsonPost(new ShopClient(shop.server), '/shop/request-new-password', { email }, freshIp());
    const [forKnown, forUnknown] = [await ask(known), await ask(unknown)];
    expect(forUnknown.status).toBe(forKnown.status);
    expect(forUnknown.body).toEqual(JSON.parse(JSON.stringify(forKnown.body).replace(known, unknown)));

    // Both requests became the same job; the unknown one ends without a reset or an e-mail.
    const jobFor = (email: string) =>
      shop.dataSource
        .getRepository(Job)
        .find({ where: { name: 'customer.password-reset' } })
        .then((jobs) => jobs.find((job) => job.payload.email === email));
    await eventually(async () => (await jobFor(unknown))?.status === 'done');
    await resetMail(known);
    const mailJobs = await shop.dataSource.getRepository(Job).findBy({ name: 'mail.send' });
    expect(mailJobs.filter((job) => job.payload.to === unknown)).toEqual([]);
    expect(mailsTo(unknown)).toEqual([]);
  });

  it('invalidates the code after 5 wrong attempts until a new one is sent', async () => {
    const { browser, token, code, email } = await startReset();
    const wrong = code === '999999' ? '000000' : '999999';
    for (const left of [4, 3, 2, 1]) {
      const res = await verify(browser, token, wrong);
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual({
        code: 'otp_wrong',
        message: `That code is not right (${left} ${left === 1 ? 'attempt' : 'attempts'} left).`,
        fields: { code: ['is not right'] },
      });
    }
    const fifth = await verify(browser, token, wrong);
    expect(fifth.status).toBe(400);
    expect(fifth.body.error.code).toBe('otp_invalidated');
    expect(fifth.body.error.message).toBe('Too many wrong codes: this code no longer works. Send yourself a new code.');
    // Even the right code no longer works.
    expect((await verify(browser, token, code)).body.error.code).toBe('otp_invalidated');
    expect(await resetOf(token)).toMatchObject({ otpAttempts: 5, verifiedAt: null });

    // A new code (a minute later) starts over; the old code stays dead.
    await resets().update({ id: (await resetOf(token)).id }, { otpSentAt: [Date.now() - 61_000] });
    expect((await resend(browser, token)).status).toBe(200);
    const second = await resetMail(email, 2);
    expect(second.token).toBe(token);
    expect(second.text).toContain('Earlier codes no longer work.');
    if (second.code !== code) expect((await verify(browser, token, code)).body.error.code).toBe('otp_wrong');
    expect((await verify(browser, token, second.code)).status).toBe(200);
  });

  it('counts concurrent guesses one by one and sets the password once', async () => {
    const { browser, token, code } = await startReset();
    const wrong = code === '999999' ? '000000' : '999999';
    const guesses = await Promise.all(Array.from({ length: 10 }, () => verify(browser, token, wrong)));
    const codes = guesses.map((res) => res.body.error.code).sort();
    expect(codes).toEqual([...Array(6).fill('otp_invalidated'), ...Array(4).fill('otp_wrong')]);
    expect((await resetOf(token)).otpAttempts).toBe(5);

    const second = await startReset();
    expect((await verify(second.browser, second.token, second.code)).status).toBe(200);
    const saves = await Promise.all(
      ['first fine phrase', 'second fine phrase'].map((password) =>
        jsonPost(second.browser, '/shop/create-new-password-post', { token: second.token, password }),
      ),
    );
    expect(saves.map((res) => res.status).sort()).toEqual([200, 400]);
    expect(saves.find((res) => res.status === 400)?.body.error.code).toBe('token_used');
  });

  it('refuses an expired code', async () => {
    const { browser, token, code } = await startReset();
    await resets().update({ id: (await resetOf(token)).id }, { otpExpiresAt: Date.now() - 1000 });
    const res = await verify(browser, token, code);
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      code: 'otp_expired',
      message: 'This code has expired. Send yourself a new code.',
      fields: { code: ['has expired'] },
    });
    expect((await resetOf(token)).verifiedAt).toBeNull();
  });

  it('resends a code at most once a minute and six codes an hour, through the job queue', async () => {
    const { browser, token, email } = await startReset();
    const tooSoon = await resend(browser, token);
    expect(tooSoon.status).toBe(429);
    expect(tooSoon.body.error).toEqual({
      code: 'otp_resend_limited',
      message: expect.stringMatching(/^A new code can be sent once a minute\. Try again in \d+ seconds\.$/),
      retryAfter: expect.any(Number),
    });

    const id = (await resetOf(token)).id;
    const now = Date.now();
    await resets().update({ id }, { otpSentAt: [now - 50 * 60_000] });
    const resent = await resend(browser, token);
    expect(resent.status).toBe(200);
    expect(resent.body).toEqual({
      success: true,
      message: 'We have sent you a new code. The previous one no longer works.',
    });
    const second = await resetMail(email, 2);
    expect(second.raw).toMatch(/^Subject: Your new code for /m);
    expect((await resetOf(token)).otpSentAt).toHaveLength(2);

    // Six codes within the hour, the last over a minute ago: the hourly limit holds.
    const sixInAnHour = [50, 40, 30, 20, 10, 2].map((minutes) => now - minutes * 60_000);
    await resets().update({ id }, { otpSentAt: sixInAnHour });
    const hourly = await resend(browser, token);
    expect(hourly.status).toBe(429);
    expect(hourly.body.error.message).toBe(
      'This link has had 6 codes within an hour. Try again in 10 minutes, or ask for a new link.',
    );
    expect(mailsTo(email)).toHaveLength(2);
    // Codes older than an hour no longer count.
    await resets().update({ id }, { otpSentAt: [now - 70 * 60_000, ...sixInAnHour.slice(1)] });
    expect((await resend(browser, token)).status).toBe(200);
    await resetMail(email, 3);
  });

  it("stops a link sent to the account's former address once the address changes", async () => {
    const owner = new ShopClient(shop.server);
    const email = await registerCustomer(owner);
    const browser = new ShopClient(shop.server);
    expect((await jsonPost(browser, '/shop/forgotten-password', { email }, freshIp())).status).toBe(200);
    const { token, code } = await resetMail(email);
    expect((await verify(browser, token, code)).status).toBe(200);

    const changed = `moved.${email}`;
    const saved = await owner.post('/shop/account/login-details/save', {
      email: changed,
      currentPassword: CUSTOMER_PASSWORD,
    });
    expect(saved.status).toBe(200);
    const late = await jsonPost(browser, '/shop/create-new-password-post', { token, password: NEW_PASSWORD });
    expect(late.status).toBe(400);
    expect(late.body.error.code).toBe('token_used');
    const account = await shop.dataSource.getRepository(Customer).findOneByOrFail({ email: changed });
    expect(account.emailVerifiedAt).toBeNull();
    expect((await login(new ShopClient(shop.server), changed, CUSTOMER_PASSWORD)).status).toBe(200);
  });

  it('refuses an expired link with a clear message, never a 500', async () => {
    const { browser, token, code } = await startReset();
    await resets().update({ id: (await resetOf(token)).id }, { expiresAt: Date.now() - 1000 });
    const expired = { code: 'token_expired', message: 'This password reset link has expired. Ask for a new one.' };
    expect((await verify(browser, token, code)).body.error).toEqual(expired);
    expect((await resend(browser, token)).body.error).toEqual(expired);
    const saved = await jsonPost(browser, '/shop/create-new-password-post', { token, password: NEW_PASSWORD });
    expect([saved.status, saved.body.error]).toEqual([400, expired]);
    for (const path of ['/shop/verify-otp', '/shop/create-new-password']) {
      const page = await browser.get(`${path}?token=${token}`).set(HTML).expect(400);
      expect(page.text).toContain('This password reset link has expired. Ask for a new one.');
    }
  });

  it('answers bad input with 400 and the fields', async () => {
    const browser = new ShopClient(shop.server);
    const bad = await jsonPost(browser, '/shop/forgotten-password', { email: 'not-an-address' }, freshIp());
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toEqual({ email: ['must be an e-mail address'] });
    const noToken = await verify(browser, 'abc', '12ab56');
    expect(noToken.status).toBe(400);
    expect(Object.keys(noToken.body.error.fields).sort()).toEqual(['code', 'token']);
    const unknown = await verify(browser, 'a'.repeat(64), '123456');
    expect(unknown.body.error.code).toBe('token_invalid');
    const noPassword = await jsonPost(browser, '/shop/create-new-password-post', { token: 'a'.repeat(64) });
    expect(noPassword.status).toBe(400);
    expect(noPassword.body.error.fields.password).toBeDefined();
    for (const query of ['', '?token=', '?token=zz', `?token=${'b'.repeat(64)}`, '?token=a&token=b']) {
      const page = await browser.get(`/shop/create-new-password${query}`).set(HTML).expect(400);
      expect(page.text).toContain('This password reset link is not valid.');
    }
  });

  it('limits requests per address and reset e-mails per account', async () => {
    const ip = freshIp();
    const ask = (email: string) => jsonPost(new ShopClient(shop.server), '/shop/forgotten-password', { email }, ip);
    for (let i = 0; i < RESET_REQUEST_LIMIT; i++) expect((await ask(`someone${i}@example.com`)).status).toBe(200);
    const refused = await ask('someone@example.com');
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('too_many_requests');

    // However many addresses ask, one account gets at most five reset e-mails an hour.
    const email = await registerCustomer(new ShopClient(shop.server));
    for (let i = 0; i <= RESETS_PER_ACCOUNT_HOUR; i++) {
      expect(
        (await jsonPost(new ShopClient(shop.server), '/shop/forgotten-password', { email }, freshIp())).status,
      ).toBe(200);
    }
    const customer = await shop.dataSource.getRepository(Customer).findOneByOrFail({ email });
    await eventually(async () => {
      const jobs = await shop.dataSource.getRepository(Job).findBy({ name: 'customer.password-reset', status: 'done' });
      return jobs.filter((job) => job.payload.email === email).length === RESETS_PER_ACCOUNT_HOUR + 1;
    });
    expect(await resets().countBy({ customerId: customer.id })).toBe(RESETS_PER_ACCOUNT_HOUR);
    await eventually(() => mailsTo(email).length === RESETS_PER_ACCOUNT_HOUR);
  });

  it('refuses requests without the CSRF token (403)', async () => {
    const anonymous = request(shop.server);
    for (const path of [
      '/shop/forgotten-password',
      '/shop/verify-otp-post',
      '/shop/resend-otp',
      '/shop/create-new-password-post',
    ]) {
      const res = await anonymous.post(path).send({ email: 'ada@example.com', token: 'a'.repeat(64), code: '123456' });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('csrf_invalid');
    }
  });

  it('does not exist while customer accounts are off (404)', async () => {
    const settings = shop.app.get(SettingsService);
    const browser = new ShopClient(shop.server);
    await settings.save({ customerAccountsEnabled: false });
    try {
      for (const path of [
        '/shop/forgotten-password',
        '/shop/verify-otp?token=x',
        '/shop/create-new-password?token=x',
      ]) {
        await browser.get(path).expect(404);
      }
      for (const path of [
        '/shop/forgotten-password',
        '/shop/request-new-password',
        '/shop/verify-otp-post',
        '/shop/resend-otp',
        '/shop/create-new-password-post',
      ]) {
        expect((await jsonPost(browser, path, { email: 'ada@example.com' })).status).toBe(404);
      }
    } finally {
      await settings.save({ customerAccountsEnabled: true });
    }
    await browser.get('/shop/forgotten-password').expect(200);
  });
});
