import { AbandonedCartScanner } from '../../src/commerce/marketing/abandoned-cart-scanner.service';
import { Job } from '../../src/jobs/job.entity';
import { cartWithEmail, idleFor, RECOVER } from '../marketing/abandoned-carts-support';
import { productBySku } from '../support/catalog';
import { addToCart } from '../support/checkout';
import { registerCustomer } from '../support/customers';
import { ShopClient } from '../support/shop-client';
import { mailText, resetMailTo, startSmtpCapture } from '../support/smtp-capture';
import { eventually, jobsSettled, REFUSING_URL, startTestApp, TestApp, usingMysql } from '../support/test-app';

const HTML = { Accept: 'text/html' };

/** The reset link's token and the one-time code in a reset message's text. */
function resetSecrets(text: string): { token: string; code: string } {
  const token = /\/shop\/create-new-password\?token=([0-9a-f]{64})\s/.exec(text)?.[1];
  const code = /one-time code: (\d{6})\b/.exec(text)?.[1];
  if (!token || !code) throw new Error(`no link or code in:\n${text}`);
  return { token, code };
}

/** Whether `text` holds `secret` as a word of its own (a 6-digit code may be part of a longer number). */
const holds = (text: string, secret: string) => new RegExp(`\\b${secret}\\b`).test(text);

/** Everything the CP jobs page shows, over all its tabs. */
async function cpJobPages(shop: TestApp): Promise<string> {
  const staff = new ShopClient(shop.server);
  await staff.loginCp();
  const pages = await Promise.all(
    ['', '?status=done', '?status=failed'].map((query) => staff.get(`/admin/jobs${query}`).set(HTML).expect(200)),
  );
  return pages.map((page) => page.text).join('\n');
}

/** A mail job's message holds links and codes; none stays in the jobs table once it is sent. */
describe(`mail jobs keep no secret (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  describe('sent', () => {
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

    it('keeps of a sent password reset and cart share only who got what', async () => {
      const email = await registerCustomer(new ShopClient(shop.server));
      const browser = new ShopClient(shop.server);
      expect((await browser.post('/shop/forgotten-password', { email })).status).toBe(200);
      await addToCart(browser, (await productBySku(shop.dataSource, 'DEMO-TENT-2P')).id);
      const shared = await browser.post('/shop/cart/share-send-emails', { recipients: ['friend@example.com'] });
      expect(shared.status).toBe(200);
      const shareToken = ((await browser.post('/shop/cart/share-create')).body as { token: string }).token;

      const mail = await eventually(() => resetMailTo(smtp.messages, email));
      const { token, code } = resetSecrets(mailText(mail));
      expect(
        mailText(await eventually(() => smtp.messages.find((m) => m.to.includes('friend@example.com')))),
      ).toContain(`/shop/cart/share/${shareToken}`);
      await jobsSettled(shop);

      const mailJobs = await shop.dataSource.getRepository(Job).findBy({ name: 'mail.send' });
      const stored = JSON.stringify(mailJobs);
      for (const secret of [token, code, shareToken]) expect(holds(stored, secret)).toBe(false);
      expect(mailJobs.filter((job) => job.payload.to === email)).toEqual([
        expect.objectContaining({
          status: 'done',
          payload: { to: email, subject: expect.stringContaining('Confirm') },
        }),
        expect.objectContaining({ status: 'done', payload: { to: email, subject: expect.stringContaining('Reset') } }),
      ]);
      expect(mailJobs.filter((job) => job.payload.to === 'friend@example.com')).toEqual([
        expect.objectContaining({
          status: 'done',
          payload: { to: 'friend@example.com', subject: 'A shopping cart was shared with you' },
        }),
      ]);

      const cp = await cpJobPages(shop);
      expect(cp).toContain('mail.send');
      for (const secret of [token, code, shareToken]) expect(holds(cp, secret)).toBe(false);
    });
    it('keeps no recovery link of a sent abandoned-cart reminder, in the payload or the job key', async () => {
      const { cart } = await cartWithEmail(shop, 'idle@example.com', { 'DEMO-HEADLAMP': 1 });
      await idleFor(shop, cart.id, 61);
      expect(await shop.app.get(AbandonedCartScanner).scan()).toBe(1);
      await jobsSettled(shop);
      const reminder = smtp.messages.find((message) => message.to.includes('idle@example.com'));
      expect(mailText(reminder!)).toContain(`${RECOVER}/${cart.uid}`);

      const mailJobs = await shop.dataSource.getRepository(Job).findBy({ name: 'mail.send' });
      expect(mailJobs.filter((job) => job.payload.to === 'idle@example.com')).toHaveLength(1);
      expect(JSON.stringify(mailJobs)).not.toContain(cart.uid);
    });
  });

  describe('failed', () => {
    let shop: TestApp;
    beforeAll(async () => {
      shop = await startTestApp({ env: { SMTP_URL: REFUSING_URL.replace('http', 'smtp'), JOB_MAX_ATTEMPTS: '1' } });
    });
    afterAll(() => shop.close());

    it('keeps an undelivered message for the retry, and the CP page shows only the error', async () => {
      const email = await registerCustomer(new ShopClient(shop.server));
      expect((await new ShopClient(shop.server).post('/shop/forgotten-password', { email })).status).toBe(200);
      await jobsSettled(shop);

      const failed = (await shop.dataSource.getRepository(Job).findBy({ name: 'mail.send', status: 'failed' })).find(
        (job) => String(job.payload.subject).startsWith('Reset your password at '),
      )!;
      expect(failed.payload.to).toBe(email);
      const { token, code } = resetSecrets(String(failed.payload.text));

      const cp = await cpJobPages(shop);
      expect(cp).toContain('ECONNREFUSED');
      expect(holds(cp, token)).toBe(false);
      expect(holds(cp, code)).toBe(false);
    });
  });
});
