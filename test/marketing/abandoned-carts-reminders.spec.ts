import { Cart } from '../../src/commerce/carts/cart.entity';
import { AbandonedCartReminder } from '../../src/commerce/marketing/abandoned-cart-reminder.entity';
import { AbandonedCartScanner } from '../../src/commerce/marketing/abandoned-cart-scanner.service';
import { SettingsService } from '../../src/config/settings.service';
import { Job } from '../../src/jobs/job.entity';
import { JobWorker } from '../../src/jobs/job-worker.service';
import { productBySku } from '../support/catalog';
import { addToCart, fillCheckout, placeOrder, shippingValue } from '../support/checkout';
import { mailText, startSmtpCapture, subjectOf } from '../support/smtp-capture';
import { eventually, jobsSettled, startTestApp, TestApp, usingMysql } from '../support/test-app';
import { cartWithEmail, idleFor, MINUTE, RECOVER } from './abandoned-carts-support';

const SCAN_JOB = 'abandoned-carts.scan';

/** Abandoned carts are found by a scheduled scan and reminded by e-mail, each reminder once. */
describe(`abandoned-cart reminders (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
  let scanner: AbandonedCartScanner;
  let settings: SettingsService;

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    shop = await startTestApp({ env: { SMTP_URL: smtp.url } });
    scanner = shop.app.get(AbandonedCartScanner);
    settings = shop.app.get(SettingsService);
    await settings.save({ salesAbandonedCartsIdleMinutes: 60, salesAbandonedCartsReminderDelays: [60, 1440] });
  });
  afterAll(async () => {
    await shop.close();
    await smtp.close();
  });

  const mailsTo = (email: string) => smtp.messages.filter((mail) => mail.to.includes(email));
  const remindersOf = (cartId: number) =>
    shop.dataSource.getRepository(AbandonedCartReminder).find({ where: { cartId }, order: { reminderIndex: 'ASC' } });
  /** One scan as the scheduled job runs it, then everything it queued. */
  const scanAndSettle = async () => {
    const queued = await scanner.scan();
    await jobsSettled(shop);
    return queued;
  };

  it('mails each reminder of the sequence once, with a recovery link by uid, and nothing more', async () => {
    const { cart } = await cartWithEmail(shop, 'ada@example.com', { 'DEMO-HEADLAMP': 2 });
    expect(cart.uid).toMatch(/^[0-9a-f]{32}$/);

    await idleFor(shop, cart.id, 30);
    expect(await scanAndSettle()).toBe(0);
    expect(mailsTo('ada@example.com')).toHaveLength(0);

    await idleFor(shop, cart.id, 61);
    expect(await scanAndSettle()).toBe(1);
    const [first] = mailsTo('ada@example.com');
    expect(subjectOf(first)).toMatch(/^You left something in your cart at /);
    const text = mailText(first);
    const headlamp = await productBySku(shop.dataSource, 'DEMO-HEADLAMP');
    expect(text).toContain(`2 × ${headlamp.name}  €78.00`);
    expect(text).toContain('Subtotal: €78.00');
    // The link carries the public uid, never the integer id; the other one is the opt-out (abandoned-carts-consent).
    expect([...text.matchAll(/https?:\/\/\S+/g)].map(([url]) => url)).toEqual([
      `${shop.config.baseUrl}${RECOVER}/${cart.uid}`,
      expect.stringMatching(/\/shop\/newsletter\/unsubscribe\?email=ada%40example\.com&sig=[0-9a-f]{64}$/),
    ]);
    expect((await remindersOf(cart.id)).map((row) => row.reminderIndex)).toEqual([0]);

    // Scans in between send nothing new.
    expect(await scanAndSettle()).toBe(0);
    expect(await scanAndSettle()).toBe(0);
    expect(mailsTo('ada@example.com')).toHaveLength(1);

    await idleFor(shop, cart.id, 1441);
    expect(await scanAndSettle()).toBe(1);
    const reminders = mailsTo('ada@example.com');
    expect(reminders).toHaveLength(2);
    expect(subjectOf(reminders[1])).toMatch(/^Your cart at .+ is still waiting$/);
    expect(mailText(reminders[1])).toContain(`${RECOVER}/${cart.uid}`);
    expect((await remindersOf(cart.id)).map((row) => row.reminderIndex)).toEqual([0, 1]);

    // The sequence is done: later scans stay quiet.
    await idleFor(shop, cart.id, 2000);
    expect(await scanAndSettle()).toBe(0);
    expect(mailsTo('ada@example.com')).toHaveLength(2);
  });

  it('leaves alone carts without an e-mail, emptied carts and carts abandoned too long ago', async () => {
    const emptied = await cartWithEmail(shop, 'emptied@example.com', { 'DEMO-POT-TI': 1 });
    expect((await emptied.client.post('/shop/cart/clear')).status).toBe(200);
    await idleFor(shop, emptied.cart.id, 61);

    const stale = await cartWithEmail(shop, 'stale@example.com', { 'DEMO-POT-TI': 1 });
    await idleFor(shop, stale.cart.id, 10 * 24 * 60);

    const anonymous = await cartWithEmail(shop, 'anonymous@example.com', { 'DEMO-POT-TI': 1 });
    await shop.dataSource.getRepository(Cart).update({ id: anonymous.cart.id }, { email: null });
    await idleFor(shop, anonymous.cart.id, 61);

    expect(await scanAndSettle()).toBe(0);
    for (const email of ['emptied@example.com', 'stale@example.com', 'anonymous@example.com']) {
      expect(mailsTo(email)).toHaveLength(0);
    }
  });

  it('sends no reminder for an ordered cart, not even one queued before the order was placed', async () => {
    const flatRate = await shippingValue(shop.dataSource, 'flat-rate');
    const ordered = await cartWithEmail(shop, 'bought@example.com', { 'DEMO-KETTLE-CAMP': 1 });
    await fillCheckout(ordered.client, { email: 'bought@example.com', shippingMethod: flatRate, paymentMethod: 'cod' });
    expect((await placeOrder(ordered.client)).status).toBe(200);
    await idleFor(shop, ordered.cart.id, 61);
    expect(await scanAndSettle()).toBe(0);

    // The scan queues a reminder while the worker is busy elsewhere; the shopper orders before it runs.
    const racing = await cartWithEmail(shop, 'racing@example.com', { 'DEMO-KETTLE-CAMP': 1 });
    await fillCheckout(racing.client, { email: 'racing@example.com', shippingMethod: flatRate, paymentMethod: 'cod' });
    await idleFor(shop, racing.cart.id, 61);
    const worker = shop.app.get(JobWorker);
    await worker.stop();
    try {
      expect(await scanner.scan()).toBe(1);
      expect((await placeOrder(racing.client)).status).toBe(200);
    } finally {
      await worker.start();
    }
    await jobsSettled(shop);

    for (const email of ['bought@example.com', 'racing@example.com']) {
      expect(mailsTo(email).map(subjectOf)).toEqual([expect.stringMatching(/^Your order /)]);
    }
    expect(await remindersOf(racing.cart.id)).toEqual([]);
  });

  it('postpones the next reminder when the shopper comes back, without starting the sequence over', async () => {
    const { client, cart } = await cartWithEmail(shop, 'returning@example.com', { 'DEMO-CARABINER': 1 });
    await idleFor(shop, cart.id, 61);
    expect(await scanAndSettle()).toBe(1);

    // Back in the shop: the first reminder is not sent again, the second waits a day from now.
    await addToCart(client, (await productBySku(shop.dataSource, 'DEMO-STICKER-LOGO')).id);
    expect(await scanAndSettle()).toBe(0);
    await idleFor(shop, cart.id, 61);
    expect(await scanAndSettle()).toBe(0);
    await idleFor(shop, cart.id, 1441);
    expect(await scanAndSettle()).toBe(1);
    expect(mailsTo('returning@example.com')).toHaveLength(2);
    expect((await remindersOf(cart.id)).map((row) => row.reminderIndex)).toEqual([0, 1]);
  });

  it('scans on a schedule: one queued scan per 5-minute slot, however often it is asked for', async () => {
    const { cart } = await cartWithEmail(shop, 'scheduled@example.com', { 'DEMO-TAMPER': 1 });
    await idleFor(shop, cart.id, 61);
    const jobs = shop.dataSource.getRepository(Job);
    await jobs.delete({ name: SCAN_JOB });
    // A finished scan from two days ago, which the next scan clears away.
    await jobs.insert({
      name: SCAN_JOB,
      payload: { slot: 1 },
      jobKey: `${SCAN_JOB}:1`,
      status: 'done',
      maxAttempts: 1,
      runAt: Date.now() - 2 * 24 * 60 * MINUTE,
      finishedAt: Date.now() - 2 * 24 * 60 * MINUTE,
    });

    await Promise.all([scanner.tick(), scanner.tick(), scanner.tick()]);
    const slot = Math.floor(Date.now() / (5 * MINUTE));
    await eventually(() => mailsTo('scheduled@example.com').length === 1);
    await jobsSettled(shop);
    const scans = await jobs.find({ where: { name: SCAN_JOB } });
    expect(scans).toHaveLength(1);
    expect(scans[0]).toMatchObject({ status: 'done' });
    expect([`${SCAN_JOB}:${slot}`, `${SCAN_JOB}:${slot - 1}`]).toContain(scans[0].jobKey);
  });

  it('does nothing while salesAbandonedCartsEnabled is off', async () => {
    const { cart } = await cartWithEmail(shop, 'off@example.com', { 'DEMO-TAMPER': 1 });
    await idleFor(shop, cart.id, 61);
    await settings.save({ salesAbandonedCartsEnabled: false });
    try {
      const before = await shop.dataSource.getRepository(Job).count();
      await scanner.tick();
      expect(await shop.dataSource.getRepository(Job).count()).toBe(before);
      expect(await scanAndSettle()).toBe(0);
      expect(mailsTo('off@example.com')).toHaveLength(0);
    } finally {
      await settings.save({ salesAbandonedCartsEnabled: true });
    }
    expect(await scanAndSettle()).toBe(1);
    await eventually(() => mailsTo('off@example.com').length === 1);
  });

  it('refuses reminder delays that are not ascending whole minutes', async () => {
    await expect(settings.save({ salesAbandonedCartsReminderDelays: [1440, 60] })).rejects.toThrow(
      'salesAbandonedCartsReminderDelays must be a JSON list of up to 5 ascending minutes',
    );
    await expect(settings.save({ salesAbandonedCartsReminderDelays: [1, 2, 3, 4, 5, 6] })).rejects.toThrow();
    await expect(settings.save({ salesAbandonedCartsIdleMinutes: 0 })).rejects.toThrow(
      'salesAbandonedCartsIdleMinutes must be at least 1',
    );
    expect(settings.get('salesAbandonedCartsReminderDelays')).toEqual([60, 1440]);
  });
});
