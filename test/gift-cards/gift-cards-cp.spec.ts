import request from 'supertest';
import { GiftCardDesign } from '../../src/commerce/gift-cards/gift-card-design.entity';
import { GiftCardProduct } from '../../src/commerce/gift-cards/gift-card-product.entity';
import { GiftCard } from '../../src/commerce/gift-cards/gift-card.entity';
import { SettingsService } from '../../src/config/settings.service';
import { CpUsersService } from '../../src/commerce/staff/cp-users.service';
import { productBySku } from '../support/catalog';
import { runCli } from '../support/cli';
import { ShopClient } from '../support/shop-client';
import { attachedPdf, mailText, startSmtpCapture, subjectOf } from '../support/smtp-capture';
import { eventually, startTestApp, TestApp, usingMysql } from '../support/test-app';
import { CODE, grouped, issueCard } from './gift-cards-support';
import { pdfText } from '../support/pdf-text';

/** Gift cards for staff — the CP list, issuing by hand, designs, and the CLI. */
describe(`gift cards in the CP and the CLI (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
  let staff: ShopClient;

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    shop = await startTestApp({ env: { SMTP_URL: smtp.url } });
    await shop.app.get(SettingsService).save({ salesGiftCardsEnabled: true });
    staff = new ShopClient(shop.server);
    await staff.loginCp();
  });
  afterAll(async () => {
    await shop.close();
    await smtp.close();
  });

  const cards = () => shop.dataSource.getRepository(GiftCard);
  /** The page's last flash message (the one of the latest post): its type and text, quotes read back. */
  const flashOf = (html: string) => {
    const [, type, text] = [...html.matchAll(/<p class="flash flash-(\w+)"[^>]*>([^<]*)</g)].pop() ?? [];
    return type
      ? [
          type,
          text
            .replace(/&quot;/g, '"')
            .replace(/&#x27;/g, "'")
            .replace(/&amp;/g, '&'),
        ]
      : [];
  };

  it('issues a card from the CP form, shows its code once, and mails the voucher to the recipient', async () => {
    const form = await staff.get('/admin/gift-cards/new').set('Accept', 'text/html').expect(200);
    expect(form.text).toContain('<label for="amount">Amount</label>');
    expect(form.text).toContain('<option value="EUR" selected>EUR</option>');

    const issued = await staff.submitForm('/admin/gift-cards', {
      amount: '75,50',
      currency: 'EUR',
      expiresAt: '2031-06-30',
      recipientName: 'Grace Hopper',
      recipientEmail: 'Grace@Example.com',
      message: 'Thank you!',
    });
    expect([issued.status, issued.headers.location]).toEqual([303, '/admin/gift-cards']);
    const card = await cards().findOneByOrFail({ recipientEmail: 'grace@example.com' });
    expect(card).toMatchObject({
      initialAmount: 7550,
      balance: 7550,
      currency: 'EUR',
      expiresAt: Date.parse('2031-06-30T00:00:00Z'),
      issuedBy: 'cp:admin@example.com',
      status: 'active',
    });
    expect(card.code).toMatch(CODE);

    // The full code once, in the message answering the issue; the list masks it afterwards.
    const list = await staff.get('/admin/gift-cards').set('Accept', 'text/html').expect(200);
    expect(flashOf(list.text)).toEqual([
      'success',
      `Gift card ${grouped(card.code)} issued. The voucher is on its way to grace@example.com.`,
    ]);
    const again = await staff.get('/admin/gift-cards').set('Accept', 'text/html').expect(200);
    expect(again.text).not.toContain(grouped(card.code));
    expect(again.text).toContain(`<code>${card.code.slice(0, 4)}-••••-••••-${card.code.slice(-4)}</code>`);
    expect(again.text).toContain('€75.50');

    const mail = await eventually(() => smtp.messages.find((candidate) => candidate.to.includes('grace@example.com')));
    expect(subjectOf(mail)).toBe('Your gift card for Demo Outdoor & Coffee');
    expect(mailText(mail)).toContain(`Code: ${grouped(card.code)}`);
    expect(pdfText(attachedPdf(mail).pdf)).toContain('For: Grace Hopper');

    // Found by its code, switched off and on again.
    const found = await staff
      .get(`/admin/gift-cards?q=${grouped(card.code)}`)
      .set('Accept', 'text/html')
      .expect(200);
    expect(found.text).toContain('1 card(s)');
    await staff.submitForm(`/admin/gift-cards/${card.id}/status`, { status: 'disabled', confirm: 'yes' });
    expect((await cards().findOneByOrFail({ id: card.id })).status).toBe('disabled');
    await staff.submitForm(`/admin/gift-cards/${card.id}/status`, { status: 'active' });
    expect((await cards().findOneByOrFail({ id: card.id })).status).toBe('active');
  });

  it('refuses a bad issue form with a message naming every problem, issuing nothing', async () => {
    const before = await cards().count();
    const refused = await staff.submitForm('/admin/gift-cards', {
      amount: '0',
      expiresAt: '2020-01-01',
      recipientEmail: 'not-an-address',
    });
    expect(refused.status).toBe(303);
    const page = await staff.get('/admin/gift-cards').set('Accept', 'text/html').expect(200);
    expect(flashOf(page.text)).toEqual([
      'error',
      'The gift card was not issued: amount must be more than 0 with at most 2 decimals; expiresAt must be a ' +
        'moment in the future; recipientEmail must be an e-mail address.',
    ]);
    expect(await cards().count()).toBe(before);
  });

  it('creates and edits designs, and sells a product as cards of a design', async () => {
    const created = await staff.submitForm('/admin/gift-cards/designs', {
      name: 'Winter',
      imagePath: '/public/images/gift-cards/gift-box.svg',
      backgroundColor: '#0B3D91',
      textColor: '#ffffff',
    });
    expect(created.status).toBe(303);
    const design = await shop.dataSource.getRepository(GiftCardDesign).findOneByOrFail({ name: 'Winter' });
    expect(design).toMatchObject({ backgroundColor: '#0b3d91', textColor: '#ffffff' });

    const bad = await staff.submitForm('/admin/gift-cards/designs', {
      name: '',
      imagePath: 'https://elsewhere.example/card.png',
      backgroundColor: 'blue',
      textColor: '#fff',
    });
    expect(bad.status).toBe(303);
    const list = await staff.get('/admin/gift-cards/designs').set('Accept', 'text/html').expect(200);
    expect(flashOf(list.text)[1]).toBe(
      'The design was not saved: name must be 1 to 100 characters; imagePath must be a picture under /public/, ' +
        'e.g. /public/images/gift-cards/gift-box.svg; backgroundColor must be a colour like #1f4e3d; textColor must ' +
        'be a colour like #ffffff.',
    );
    expect(list.text).toContain(`<a href="/admin/gift-cards/designs/${design.id}">Winter</a>`);

    await staff.submitForm(`/admin/gift-cards/designs/${design.id}`, {
      name: 'Winter night',
      imagePath: '',
      backgroundColor: '#000000',
      textColor: '#fafafa',
    });
    expect(await shop.dataSource.getRepository(GiftCardDesign).findOneByOrFail({ id: design.id })).toMatchObject({
      name: 'Winter night',
      imagePath: null,
      backgroundColor: '#000000',
    });

    const blanket = await productBySku(shop.dataSource, 'DEMO-BLANKET-WOOL');
    await staff.submitForm(`/admin/gift-cards/designs/${design.id}/products`, { sku: 'DEMO-BLANKET-WOOL' });
    const edit = await staff.get(`/admin/gift-cards/designs/${design.id}`).set('Accept', 'text/html').expect(200);
    expect(flashOf(edit.text)).toEqual(['success', `${blanket.name} now sells gift cards of this design.`]);
    expect(edit.text).toContain('<code>DEMO-BLANKET-WOOL</code>');
    expect(await shop.dataSource.getRepository(GiftCardProduct).findOneBy({ productId: blanket.id })).toMatchObject({
      designId: design.id,
    });
    await staff.submitForm(`/admin/gift-cards/designs/${design.id}/products`, { sku: 'NOPE' });
    const unknown = await staff.get(`/admin/gift-cards/designs/${design.id}`).set('Accept', 'text/html').expect(200);
    expect(flashOf(unknown.text)).toEqual(['error', 'No product has the SKU "NOPE".']);

    await staff.submitForm(`/admin/gift-cards/designs/${design.id}/products/${blanket.id}/remove`, { confirm: 'yes' });
    expect(await shop.dataSource.getRepository(GiftCardProduct).findOneBy({ productId: blanket.id })).toBeNull();
  });

  it('opens the gift-card pages only to staff with accessMarketing', async () => {
    await request(shop.server).get('/admin/gift-cards').expect(302);
    const users = shop.app.get(CpUsersService);
    await users.create({ email: 'clerk@example.com', password: 'clerk-password-1', name: 'Clerk', admin: false });
    await users.create({
      email: 'marketer@example.com',
      password: 'marketer-password-1',
      name: 'Marketer',
      admin: false,
      permissions: ['accessMarketing'],
    });
    const clerk = new ShopClient(shop.server);
    await clerk.loginCp('clerk@example.com', 'clerk-password-1');
    for (const path of ['/admin/gift-cards', '/admin/gift-cards/designs']) {
      const res = await clerk.get(path).set('Accept', 'application/json').expect(403);
      expect(res.body.error.message).toBe('You need the accessMarketing permission to open this page.');
    }
    const marketer = new ShopClient(shop.server);
    await marketer.loginCp('marketer@example.com', 'marketer-password-1');
    await marketer.get('/admin/gift-cards').expect(200);
    const nav = await marketer.get('/admin/gift-cards/designs').set('Accept', 'text/html').expect(200);
    expect(nav.text).toContain('<a href="/admin/gift-cards">Gift cards</a>');
  });

  it('issues a card with npm run cli -- giftcards:issue and prints its code', async () => {
    const issued = await runCli(
      shop.place,
      'giftcards:issue',
      '--amount',
      '25',
      '--currency',
      'czk',
      '--expires',
      '2030-12-31',
    );
    expect(issued.code).toBe(0);
    expect(issued.json).toEqual({
      ok: true,
      issued: 'gift-card',
      code: expect.stringMatching(CODE),
      amount: 25,
      currency: 'CZK',
      expiresAt: '2030-12-31T00:00:00.000Z',
    });
    expect(await cards().findOneByOrFail({ code: issued.json.code as string })).toMatchObject({
      initialAmount: 2500,
      currency: 'CZK',
      issuedBy: 'cli',
    });

    const defaults = await runCli(shop.place, 'giftcards:issue', '--amount', '10');
    expect(defaults.json).toMatchObject({ ok: true, amount: 10, currency: 'EUR' });
    const inAYear = Date.now() + 365 * 86_400_000;
    expect(Math.abs(Date.parse(defaults.json.expiresAt as string) - inAYear)).toBeLessThan(2 * 86_400_000);

    const refused = await runCli(shop.place, 'giftcards:issue', '--amount', '10.555', '--currency', 'XYZ');
    expect(refused.code).toBe(1);
    expect(refused.json).toMatchObject({
      ok: false,
      error: { code: 'validation_failed', message: 'We do not sell in XYZ.' },
    });
    const noAmount = await runCli(shop.place, 'giftcards:issue');
    expect(noAmount.json).toMatchObject({ ok: false, error: { message: '--amount is required, e.g. --amount 50' } });
  });

  it('lists cards issued in other ways with their status', async () => {
    const card = await issueCard(shop, 5);
    await cards().update({ id: card.id }, { expiresAt: Date.now() - 1000 });
    const list = await staff.get('/admin/gift-cards').set('Accept', 'text/html').expect(200);
    expect(list.text).toContain('<span class="status status-expired">expired</span>');
    expect(list.text).toContain('by test');
  });
});
