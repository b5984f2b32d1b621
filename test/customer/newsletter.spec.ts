import request from 'supertest';
import { MarketingConsent } from '../../src/commerce/marketing/marketing-consent.entity';
import { NewsletterSubscriber } from '../../src/commerce/marketing/newsletter-subscriber.entity';
import { SettingsService } from '../../src/config/settings.service';
import { Job } from '../../src/jobs/job.entity';
import { SUBSCRIBE_LIMIT } from '../../src/shop/customer/newsletter/newsletter.controller';
import { confirmLink, registerCustomer } from '../support/customers';
import { ShopClient } from '../support/shop-client';
import { mailText, startSmtpCapture, subjectOf } from '../support/smtp-capture';
import { eventually, startTestApp, TestApp, usingMysql } from '../support/test-app';

const HTML = { Accept: 'text/html' };
const SUBSCRIBED_MESSAGE = (email: string) =>
  `Thank you! Unless ${email} is subscribed already, we have e-mailed it a link to confirm the subscription.`;

/** The newsletter with double opt-in, for guests and on the account's subscriptions page. */
describe(`newsletter (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
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

  let counter = 0;
  const newAddress = () => `reader${Date.now()}${++counter}@example.com`;
  const subscriber = (email: string) =>
    shop.dataSource.getRepository(NewsletterSubscriber).findOneBy({ email: email.toLowerCase() });
  /** Newsletter mail jobs for an address: what was sent or is about to be, without waiting for delivery. */
  const mailJobsTo = async (email: string) =>
    (await shop.dataSource.getRepository(Job).findBy({ name: 'mail.send' })).filter(
      (job) => job.payload.to === email && String(job.payload.subject).includes('newsletter'),
    );

  /** The confirmation e-mail to `email`: its text and the paths of its two links. */
  async function confirmationMail(email: string) {
    // An account's address also gets the mail that confirms the account's address: this one is the newsletter's.
    const mail = await eventually(() =>
      smtp.messages.find(
        (message) => message.to.includes(email) && subjectOf(message).startsWith('Confirm your subscription'),
      ),
    );
    const text = mailText(mail);
    const link = (action: string) => {
      const url = new RegExp(
        `http://localhost:3000(/shop/newsletter/${action}\\?email=[^&\\s]+&sig=[0-9a-f]{64})`,
      ).exec(text);
      if (!url) throw new Error(`no ${action} link in:\n${text}`);
      return url[1];
    };
    return { text, raw: mail.raw, confirm: link('confirm'), unsubscribe: link('unsubscribe') };
  }

  /** The footer form's post, its consent box ticked unless `body` says otherwise. */
  async function subscribe(client: ShopClient, body: object, ip = '127.0.0.1') {
    const token = await client.csrfToken();
    return client.agent
      .post('/shop/subscribe')
      .set('X-CSRF-Token', token)
      .set('X-Forwarded-For', ip)
      .send({ consent: true, ...body });
  }
  const consentsOf = (email: string) =>
    shop.dataSource.getRepository(MarketingConsent).find({ where: { email }, order: { id: 'ASC' } });

  it('subscribes with double opt-in: pending, e-mailed link, confirmed; repeats send nothing more', async () => {
    const client = new ShopClient(shop.server);
    const email = newAddress();
    const res = await subscribe(client, { email: ` ${email.toUpperCase()} `, firstName: 'Ada' }, '198.51.100.1');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: SUBSCRIBED_MESSAGE(email.toUpperCase()) });
    expect(await subscriber(email)).toMatchObject({ email, firstName: 'Ada', status: 'pending', confirmedAt: null });

    const mail = await confirmationMail(email);
    expect(mail.raw).toMatch(/^Subject: Confirm your subscription to the .+ newsletter/m);
    expect(mail.text).toContain('please confirm that you want to receive the newsletter');
    expect(mail.text).toContain(
      'To stop all newsletter e-mails to this address, unsubscribe here: http://localhost:3000/shop/newsletter/unsubscribe?',
    );
    expect(mail.text).not.toContain('Ada'); // nothing a stranger typed goes into a mail to someone else

    // Pending: asking again resends nothing today.
    expect((await subscribe(client, { email }, '198.51.100.1')).body).toEqual({
      success: true,
      message: SUBSCRIBED_MESSAGE(email),
    });
    expect(await mailJobsTo(email)).toHaveLength(1);

    // Opening the link, as a mail scanner does, only shows a button: the subscription stays pending.
    await request(shop.server).head(mail.confirm).expect(200);
    const scanned = await request(shop.server).get(mail.confirm).expect(200);
    expect(await subscriber(email)).toMatchObject({ status: 'pending', confirmedAt: null });
    expect(scanned.headers['cache-control']).toBe('no-store');
    expect(scanned.text).toContain('<h1>Confirm your subscription</h1>');
    expect(scanned.text).toContain('<button type="submit">Confirm my subscription</button>');
    // The button records the consent to marketing e-mail: the page shows its words.
    expect(scanned.text).toContain(
      '<p class="link-confirm-consent">Send me offers, news and a reminder when I leave items in my cart, by e-mail.',
    );

    const confirmed = await confirmLink(client, mail.confirm);
    expect(confirmed.status).toBe(200);
    expect(confirmed.text).toContain('<h1>Subscription confirmed</h1>');
    expect(confirmed.text).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(await subscriber(email)).toMatchObject({ status: 'confirmed', confirmedAt: expect.any(Number) });
    // Following the link again, and subscribing again, change nothing and send nothing.
    expect((await client.get(mail.confirm).set(HTML).expect(200)).text).toContain('<h1>Subscription confirmed</h1>');
    const again = await subscribe(client, { email, firstName: 'Someone else' }, '198.51.100.1');
    expect(again.body).toEqual({ success: true, message: SUBSCRIBED_MESSAGE(email) });
    expect(await subscriber(email)).toMatchObject({ status: 'confirmed', firstName: 'Ada' });
    expect(await mailJobsTo(email)).toHaveLength(1);
    expect(smtp.messages.filter((message) => message.to.includes(email))).toHaveLength(1);
  });

  it('unsubscribes with the link every newsletter e-mail carries; an old confirm link does not undo it', async () => {
    const client = new ShopClient(shop.server);
    const email = newAddress();
    await subscribe(client, { email }, '198.51.100.2');
    const mail = await confirmationMail(email);
    expect((await confirmLink(client, mail.confirm)).status).toBe(200);

    const page = await client.get(mail.unsubscribe).set(HTML).expect(200);
    expect(page.text).toContain('<h1>Unsubscribed</h1>');
    expect(await subscriber(email)).toMatchObject({ status: 'unsubscribed', firstName: null });
    await client.get(mail.unsubscribe).expect(200);

    const old = await client.get(mail.confirm).set(HTML).expect(200);
    expect(old.text).toContain('This address was unsubscribed after the link was sent.');
    expect((await subscriber(email))?.status).toBe('unsubscribed');

    // Subscribing again makes it pending; the link (already e-mailed today) confirms it.
    await subscribe(client, { email }, '198.51.100.2');
    expect((await subscriber(email))?.status).toBe('pending');
    expect((await confirmLink(client, mail.confirm)).status).toBe(200);
    expect((await subscriber(email))?.status).toBe('confirmed');
  });

  it('refuses a link with a bad signature with a 400 page, on opening and on pressing its button', async () => {
    const client = new ShopClient(shop.server);
    const email = newAddress();
    await subscribe(client, { email }, '198.51.100.3');
    const mail = await confirmationMail(email);
    const sig = /sig=([0-9a-f]{64})/.exec(mail.confirm)![1];
    const unsubscribeSig = /sig=([0-9a-f]{64})/.exec(mail.unsubscribe)![1];
    const forged = [
      `/shop/newsletter/confirm?email=${encodeURIComponent(email)}&sig=${'0'.repeat(64)}`,
      `/shop/newsletter/confirm?email=${encodeURIComponent(`x${email}`)}&sig=${sig}`,
      `/shop/newsletter/confirm?email=${encodeURIComponent(email)}&sig=${unsubscribeSig}`,
      `/shop/newsletter/confirm?email=${encodeURIComponent(email)}&sig=${sig}zz`,
      `/shop/newsletter/unsubscribe?email=${encodeURIComponent(email)}&sig=${sig}`,
      '/shop/newsletter/unsubscribe',
      `/shop/newsletter/confirm?email=${encodeURIComponent(email)}&sig=${sig}&sig=${sig}`,
    ];
    for (const path of forged) {
      const page = await client.get(path).set(HTML);
      expect([path, page.status]).toEqual([path, 400]);
      expect(page.text).toContain('This link is not valid.');
    }
    // The button's POST checks the signature as well: a form gets the page, JSON the error.
    const forgedPress = await client.submitForm('/shop/newsletter/confirm', { email, sig: unsubscribeSig });
    expect(forgedPress.status).toBe(400);
    expect(forgedPress.text).toContain('This link is not valid.');
    const forgedJson = await client.post('/shop/newsletter/confirm', { email, sig: '0'.repeat(64) });
    expect(forgedJson.status).toBe(400);
    expect(forgedJson.body.error.code).toBe('invalid_signature');
    const noToken = await request(shop.server).post('/shop/newsletter/confirm').type('form').send({ email, sig });
    expect(noToken.status).toBe(403);
    expect((await subscriber(email))?.status).toBe('pending');
    const json = await client.post('/shop/newsletter/confirm', { email, sig });
    expect(json.body).toEqual({ success: true, status: 'confirmed' });
  });

  it('answers a plain form with a flash message back on the page it came from', async () => {
    const client = new ShopClient(shop.server);
    const email = newAddress();
    const token = await client.csrfToken();
    const res = await client.agent
      .post('/shop/subscribe')
      .type('form')
      .set(HTML)
      .set('Referer', `${shop.config.baseUrl}/shop/cart`)
      .set('X-Forwarded-For', '198.51.100.4')
      .send({ email, firstName: '', consent: 'on', _csrf: token });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/shop/cart');
    expect((await client.get('/shop/cart').set(HTML)).text).toContain(SUBSCRIBED_MESSAGE(email));
    expect(await subscriber(email)).toMatchObject({ status: 'pending', firstName: null });
  });

  it('refuses bad input (400 with fields) and too many requests from one address (429)', async () => {
    const client = new ShopClient(shop.server);
    const bad = await subscribe(client, { email: 'nope', firstName: 'x'.repeat(101) }, '198.51.100.5');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({
      code: 'validation_failed',
      fields: { email: expect.any(Array), firstName: expect.any(Array) },
    });

    for (let i = 1; i < SUBSCRIBE_LIMIT; i++) {
      expect((await subscribe(client, { email: newAddress() }, '198.51.100.5')).status).toBe(200);
    }
    const refused = await subscribe(client, { email: newAddress() }, '198.51.100.5');
    expect(refused.status).toBe(429);
  });

  it('keeps the subscriptions page behind the login', async () => {
    const guest = new ShopClient(shop.server);
    const page = await guest.get('/shop/account/subscriptions').set(HTML).expect(302);
    expect(page.headers.location).toBe('/shop/login?return=%2Fshop%2Faccount%2Fsubscriptions');
    const save = await guest.post('/shop/account/subscriptions/save', { newsletter: true });
    expect(save.status).toBe(401);
    expect(save.body.error.code).toBe('login_required');
  });

  it('subscribes and unsubscribes the account e-mail from the subscriptions page', async () => {
    const client = new ShopClient(shop.server);
    const email = await registerCustomer(client, { firstName: 'Grace' });
    const save = async (fields: Record<string, string>) => {
      const token = await client.csrfToken();
      return client.agent
        .post('/shop/account/subscriptions/save')
        .type('form')
        .set(HTML)
        .send({ ...fields, _csrf: token });
    };

    const empty = await client.get('/shop/account/subscriptions').set(HTML).expect(200);
    expect(empty.text).toContain('You do not receive our newsletter.');
    expect(empty.text).toMatch(/<input id="newsletter" name="newsletter" type="checkbox" value="true">/);
    expect(empty.text).toContain('<label for="newsletter">');

    expect(empty.text).toContain('You get no marketing e-mails.');
    expect(empty.text).toMatch(/<input id="marketing" name="marketing" type="checkbox" value="true">/);
    // The newsletter needs the consent ticked with it.
    const alone = await client.post('/shop/account/subscriptions/save', { newsletter: true });
    expect(alone.status).toBe(400);
    expect(alone.body.error.fields).toEqual({ newsletter: [expect.stringContaining('consent')] });
    expect(await subscriber(email)).toBeNull();

    const ticked = await save({ marketing: 'true', newsletter: 'true' });
    expect(ticked.status).toBe(303);
    expect(ticked.headers.location).toBe('/shop/account/subscriptions');
    const pending = await client.get('/shop/account/subscriptions').set(HTML).expect(200);
    expect(pending.text).toContain(`Almost done: confirm the subscription with the link we have e-mailed to ${email}.`);
    expect(pending.text).toContain(`We have e-mailed a confirmation link to ${email}`);
    expect(pending.text).toMatch(/type="checkbox" value="true" checked>/);
    expect(await subscriber(email)).toMatchObject({ status: 'pending', firstName: 'Grace' });

    const mail = await confirmationMail(email);
    expect((await confirmLink(client, mail.confirm)).status).toBe(200);
    expect((await client.get('/shop/account/subscriptions').set(HTML)).text).toContain(
      `You receive our newsletter at ${email}.`,
    );
    // JSON: ticking a confirmed subscription changes nothing.
    const json = await client.post('/shop/account/subscriptions/save', { marketing: true, newsletter: true });
    expect(json.body).toEqual({
      success: true,
      message: 'You are subscribed to the newsletter.',
      marketing: true,
      newsletter: 'confirmed',
    });
    const given = await client.get('/shop/account/subscriptions').set(HTML).expect(200);
    expect(given.text).toMatch(/You agreed on \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC \(in your account\)\./);
    expect(given.text).toMatch(/name="marketing" type="checkbox" value="true" checked>/);

    // Cleared checkboxes post nothing: consent withdrawn, newsletter unsubscribed.
    expect((await save({})).status).toBe(303);
    expect((await subscriber(email))?.status).toBe('unsubscribed');
    const cleared = (await client.get('/shop/account/subscriptions').set(HTML)).text;
    expect(cleared).toContain('You do not receive our newsletter.');
    expect(cleared).toMatch(/You get no marketing e-mails: you said no on [\d-]+ [\d:]+ UTC \(in your account\)\./);
    // One row for the consent (the repeated tick added none), one for its withdrawal.
    expect(
      (await consentsOf(email)).map(({ granted, source, wordingKey }) => ({ granted, source, wordingKey })),
    ).toEqual([
      { granted: true, source: 'account_page', wordingKey: 'consent.marketing.v1' },
      { granted: false, source: 'account_page', wordingKey: 'consent.marketing.v1' },
    ]);
    expect(await mailJobsTo(email)).toHaveLength(1);
  });

  it('refuses requests without the CSRF token (403)', async () => {
    const anonymous = request(shop.server);
    for (const path of ['/shop/subscribe', '/shop/account/subscriptions/save']) {
      const res = await anonymous.post(path).send({ email: newAddress(), newsletter: true });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('csrf_invalid');
    }
  });

  it('does not exist while customer accounts are off (404)', async () => {
    const settings = shop.app.get(SettingsService);
    const client = new ShopClient(shop.server);
    const email = newAddress();
    await subscribe(client, { email }, '198.51.100.6');
    const mail = await confirmationMail(email);
    await settings.save({ customerAccountsEnabled: false });
    try {
      for (const path of [mail.confirm, '/shop/account/subscriptions']) {
        await client.get(path).expect(404);
      }
      // The opt-out link of every marketing e-mail keeps working: abandoned-cart reminders go out without accounts.
      expect((await client.get(mail.unsubscribe).set(HTML).expect(200)).text).toContain('<h1>Unsubscribed</h1>');
      expect((await subscribe(client, { email: newAddress() }, '198.51.100.6')).status).toBe(404);
      expect((await client.post('/shop/account/subscriptions/save', { newsletter: true })).status).toBe(404);
      const sig = /sig=([0-9a-f]{64})/.exec(mail.confirm)![1];
      expect((await client.post('/shop/newsletter/confirm', { email, sig })).status).toBe(404);
    } finally {
      await settings.save({ customerAccountsEnabled: true });
    }
    await client.get(mail.confirm).expect(200);
  });

  it('refuses a subscription without the consent box, and records the consent on confirmation with its wording', async () => {
    const client = new ShopClient(shop.server);
    const email = newAddress();
    for (const consent of [undefined, false, 'off']) {
      const refused = await subscribe(client, { email, consent }, '198.51.100.7');
      expect(refused.status).toBe(400);
      expect(refused.body.error.fields).toEqual({ consent: [expect.stringContaining('must be ticked')] });
    }
    expect(await subscriber(email)).toBeNull();
    expect(await consentsOf(email)).toEqual([]);
    expect(await mailJobsTo(email)).toHaveLength(0);

    expect((await subscribe(client, { email }, '198.51.100.7')).status).toBe(200);
    // Anyone may type any address: the consent counts once the e-mail's link shows the mailbox agrees.
    expect(await consentsOf(email)).toEqual([]);
    const before = Date.now();
    const mail = await confirmationMail(email);
    expect((await confirmLink(client, mail.confirm)).status).toBe(200);
    const [row] = await consentsOf(email);
    expect(row).toMatchObject({
      granted: true,
      source: 'newsletter_form',
      customerId: null,
      wordingKey: 'consent.marketing.v1',
      wording: expect.stringMatching(/^Send me offers, news and a reminder when I leave items in my cart, by e-mail\./),
    });
    expect(row.dateCreated.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 - 1000);

    // The footer form offers the box, unticked.
    const home = await client.get('/').set(HTML).expect(200);
    expect(home.text).toContain('<input id="newsletter-consent" name="consent" type="checkbox" value="true" required>');

    // The unsubscribe link records the withdrawal with its own wording; following it again adds nothing.
    await client.get(mail.unsubscribe).expect(200);
    await client.get(mail.unsubscribe).expect(200);
    expect(
      (await consentsOf(email)).map(({ granted, source, wordingKey }) => ({ granted, source, wordingKey })),
    ).toEqual([
      { granted: true, source: 'newsletter_form', wordingKey: 'consent.marketing.v1' },
      { granted: false, source: 'email_link', wordingKey: 'consent.optOutLink.v1' },
    ]);
  });

  it('lets no unconfirmed subscription or unverified account override an opt-out; a confirmed one does', async () => {
    const client = new ShopClient(shop.server);
    const email = await registerCustomer(client, { firstName: 'Grace' });
    // The account (its address not verified) says no, then yes: the yes cannot override the no.
    await client.post('/shop/account/subscriptions/save', { marketing: true });
    expect((await client.post('/shop/account/subscriptions/save', {})).body).toMatchObject({ marketing: false });
    const unverified = await client.post('/shop/account/subscriptions/save', { marketing: true });
    expect(unverified.body).toMatchObject({ marketing: false, newsletter: 'none' });
    const rows = async () => (await consentsOf(email)).map(({ granted, source }) => ({ granted, source }));
    const optedOut = [
      { granted: true, source: 'account_page' },
      { granted: false, source: 'account_page' },
    ];
    expect(await rows()).toEqual(optedOut);

    // A stranger subscribes the address on the footer form: pending, and the opt-out stands.
    expect((await subscribe(new ShopClient(shop.server), { email }, '198.51.100.8')).status).toBe(200);
    expect(await subscriber(email)).toMatchObject({ status: 'pending' });
    expect(await rows()).toEqual(optedOut);
    const page = await client.get('/shop/account/subscriptions').set(HTML).expect(200);
    expect(page.text).toMatch(/You get no marketing e-mails: you said no on [\d-]+ [\d:]+ UTC \(in your account\)\./);

    // The owner of the mailbox confirms: now it is their consent.
    const mail = await confirmationMail(email);
    expect((await confirmLink(client, mail.confirm)).status).toBe(200);
    expect(await rows()).toEqual([...optedOut, { granted: true, source: 'newsletter_form' }]);
  });
});
