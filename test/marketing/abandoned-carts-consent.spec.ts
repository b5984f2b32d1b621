import { MarketingConsent } from '../../src/commerce/marketing/marketing-consent.entity';
import { NewsletterLinks } from '../../src/commerce/marketing/newsletter-links';
import { AbandonedCartScanner } from '../../src/commerce/marketing/abandoned-cart-scanner.service';
import { SettingsService } from '../../src/config/settings.service';
import { JobWorker } from '../../src/jobs/job-worker.service';
import { productBySku } from '../support/catalog';
import { ADDRESS, addToCart, fillCheckout, placeOrder, shippingValue } from '../support/checkout';
import { CUSTOMER_PASSWORD, registerCustomer } from '../support/customers';
import { ShopClient } from '../support/shop-client';
import { mailText, startSmtpCapture, subjectOf } from '../support/smtp-capture';
import { jobsSettled, startTestApp, TestApp, usingMysql } from '../support/test-app';
import { cartWithEmail, idleFor } from './abandoned-carts-support';

const HTML = { Accept: 'text/html' };

/**
 * Abandoned-cart reminders are marketing e-mail (ePrivacy Directive Art. 13): only with the shopper's consent, or
 * to a customer under the soft opt-in, each with a one-click opt-out that is recorded.
 */
describe(`abandoned-cart reminders and consent (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
  let scanner: AbandonedCartScanner;

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    shop = await startTestApp({ env: { SMTP_URL: smtp.url } });
    scanner = shop.app.get(AbandonedCartScanner);
    await shop.app.get(SettingsService).save({
      salesAbandonedCartsEnabled: true,
      salesAbandonedCartsIdleMinutes: 60,
      salesAbandonedCartsReminderDelays: [60, 1440],
    });
  });
  afterAll(async () => {
    await shop.close();
    await smtp.close();
  });

  const remindersTo = (email: string) =>
    smtp.messages.filter((mail) => mail.to.includes(email) && /cart at /.test(subjectOf(mail)));
  const consentsOf = (email: string) =>
    shop.dataSource.getRepository(MarketingConsent).find({ where: { email }, order: { id: 'ASC' } });
  const scanAndSettle = async () => {
    const queued = await scanner.scan();
    await jobsSettled(shop);
    return queued;
  };
  const optOutLink = (text: string) => {
    const url = /opt out here: http:\/\/localhost:3000(\/shop\/newsletter\/unsubscribe\?\S+)/.exec(text);
    if (!url) throw new Error(`no opt-out link in:\n${text}`);
    return url[1];
  };
  /** A guest order (cash on delivery) placed with `email`: the sale the soft opt-in rests on. */
  async function orderAs(email: string) {
    const client = new ShopClient(shop.server);
    await addToCart(client, (await productBySku(shop.dataSource, 'DEMO-POT-TI')).id, 1);
    const shippingMethod = await shippingValue(shop.dataSource, 'flat-rate');
    await fillCheckout(client, { email, shippingMethod, paymentMethod: 'cod' });
    expect((await placeOrder(client)).status).toBe(200);
  }

  it('sends no reminder to a guest who did not consent, and one to a guest who did', async () => {
    const silent = await cartWithEmail(shop, 'silent@example.com', { 'DEMO-HEADLAMP': 1 }, {});
    const willing = await cartWithEmail(shop, 'willing@example.com', { 'DEMO-HEADLAMP': 1 });
    await idleFor(shop, silent.cart.id, 61);
    await idleFor(shop, willing.cart.id, 61);

    expect(await scanAndSettle()).toBe(1);
    expect(remindersTo('silent@example.com')).toHaveLength(0);
    expect(await consentsOf('silent@example.com')).toEqual([]);
    const [reminder] = remindersTo('willing@example.com');
    expect(subjectOf(reminder)).toMatch(/^You left something in your cart at /);
    expect(mailText(reminder)).toMatch(/To get no more offers or reminders from .+ at this address, opt out here: /);

    // The consent row: when, where, and the words shown next to the box.
    const [row] = await consentsOf('willing@example.com');
    expect(row).toMatchObject({
      granted: true,
      source: 'checkout',
      customerId: null,
      wordingKey: 'consent.marketing.v1',
      wording:
        'Send me offers, news and a reminder when I leave items in my cart, by e-mail. I can withdraw this at any time with the link in every e-mail or in my account.',
    });
    expect(Math.abs(row.dateCreated.getTime() - Date.now())).toBeLessThan(60_000);
    // Saving the details again with the box ticked records nothing new.
    expect((await willing.client.post('/shop/checkout/save', { ...savedDetails('willing@example.com') })).status).toBe(
      200,
    );
    expect(await consentsOf('willing@example.com')).toHaveLength(1);
  });

  it('reminds a customer under the soft opt-in, whose one-click opt-out link is recorded and stops the next one', async () => {
    const email = 'regular@example.com';
    await orderAs(email);
    const { cart } = await cartWithEmail(shop, email, { 'DEMO-HEADLAMP': 1 }, {});
    await idleFor(shop, cart.id, 61);
    expect(await scanAndSettle()).toBe(1);
    const [reminder] = remindersTo(email);
    const link = optOutLink(mailText(reminder));

    const client = new ShopClient(shop.server);
    const page = await client.get(link).set(HTML).expect(200);
    expect(page.text).toContain('<h1>Unsubscribed</h1>');
    expect(page.text).toContain('You will get no more newsletters, offers or cart reminders at this address.');
    expect(await consentsOf(email)).toEqual([
      expect.objectContaining({ granted: false, source: 'email_link', wordingKey: 'consent.optOutLink.v1' }),
    ]);

    // The second reminder falls due: nothing goes out.
    await idleFor(shop, cart.id, 1441);
    expect(await scanAndSettle()).toBe(0);
    expect(remindersTo(email)).toHaveLength(1);
  });

  it('offers the customer the opt-out at checkout: an objection is recorded and no reminder goes out', async () => {
    const email = 'objector@example.com';
    await orderAs(email);
    const { cart } = await cartWithEmail(shop, email, { 'DEMO-HEADLAMP': 1 }, { marketingOptOut: true });
    expect(await consentsOf(email)).toEqual([
      expect.objectContaining({ granted: false, source: 'checkout', wordingKey: 'consent.customerOptOut.v1' }),
    ]);
    await idleFor(shop, cart.id, 61);
    expect(await scanAndSettle()).toBe(0);
    expect(remindersTo(email)).toHaveLength(0);
  });

  it('skips a reminder queued before the consent was withdrawn', async () => {
    const email = 'changed-mind@example.com';
    const { cart } = await cartWithEmail(shop, email, { 'DEMO-HEADLAMP': 1 });
    await idleFor(shop, cart.id, 61);
    // The scan queues the reminder while the worker is busy elsewhere; the shopper opts out before it runs.
    const worker = shop.app.get(JobWorker);
    await worker.stop();
    try {
      expect(await scanner.scan()).toBe(1);
      await shop.dataSource.getRepository(MarketingConsent).insert({
        email,
        customerId: null,
        granted: false,
        source: 'email_link',
        wordingKey: 'consent.optOutLink.v1',
        wording: 'withdrawn in another tab',
      });
    } finally {
      await worker.start();
    }
    await jobsSettled(shop);
    expect(remindersTo(email)).toHaveLength(0);
  });

  it("ignores a checkout consent typed for an address that opted out: anyone can type anyone's address", async () => {
    const email = 'opted-out@example.com';
    await orderAs(email);
    const optOut = new URL(shop.app.get(NewsletterLinks).url('unsubscribe', email));
    await new ShopClient(shop.server).get(`${optOut.pathname}${optOut.search}`).set(HTML).expect(200);

    // A stranger's cart ticks the consent for that address: nothing is recorded, and no reminder goes out.
    const { cart } = await cartWithEmail(shop, email, { 'DEMO-HEADLAMP': 1 });
    expect((await consentsOf(email)).map(({ granted, source }) => ({ granted, source }))).toEqual([
      { granted: false, source: 'email_link' },
    ]);
    await idleFor(shop, cart.id, 61);
    expect(await scanAndSettle()).toBe(0);
    expect(remindersTo(email)).toHaveLength(0);
  });

  it("keeps a deleted account's opt-out, so a guest order under its address does not bring reminders back", async () => {
    const client = new ShopClient(shop.server);
    const email = await registerCustomer(client);
    await orderAs(email); // a guest order: not the account's, so deleting the account leaves it as it is
    const saved = await client.post('/shop/account/subscriptions/save', {});
    expect(saved.body).toMatchObject({ marketing: false });
    expect((await client.post('/shop/account/delete', { password: CUSTOMER_PASSWORD })).status).toBe(200);
    expect(await consentsOf(email)).toEqual([
      expect.objectContaining({ granted: false, source: 'account_page', wordingKey: 'consent.marketing.v1' }),
    ]);

    const { cart } = await cartWithEmail(shop, email, { 'DEMO-HEADLAMP': 1 }, {});
    await idleFor(shop, cart.id, 61);
    expect(await scanAndSettle()).toBe(0);
    expect(remindersTo(email)).toHaveLength(0);
  });

  it('shows both boxes unticked at checkout and refuses both ticked together (400)', async () => {
    const { client } = await cartWithEmail(shop, 'both@example.com', { 'DEMO-HEADLAMP': 1 }, {});
    const page = await client.get('/shop/checkout').set(HTML).expect(200);
    expect(page.text).toContain(
      '<input id="checkout-marketingConsent" name="marketingConsent" type="checkbox" value="true">',
    );
    expect(page.text).toContain(
      '<input id="checkout-marketingOptOut" name="marketingOptOut" type="checkbox" value="true">',
    );
    const both = await client.post('/shop/checkout/save', {
      ...savedDetails('both@example.com'),
      marketingOptOut: true,
    });
    expect(both.status).toBe(400);
    expect(both.body.error.fields).toEqual({ marketingOptOut: [expect.stringContaining('cannot be ticked together')] });
    expect(await consentsOf('both@example.com')).toEqual([]);
  });
});

/** The details cartWithEmail saves, with the consent box ticked. */
function savedDetails(email: string) {
  return { email, billingAddress: ADDRESS, marketingConsent: true };
}
