import request from 'supertest';
import { GiftCardDesign } from '../../src/commerce/gift-cards/gift-card-design.entity';
import { GiftCard } from '../../src/commerce/gift-cards/gift-card.entity';
import { Order } from '../../src/commerce/orders/order.entity';
import { SettingsService } from '../../src/config/settings.service';
import { JobQueue } from '../../src/jobs/job-queue.service';
import { GIFT_CARD_LOOKUP_LIMIT } from '../../src/shop/marketing/gift-card-pages.controller';
import { productBySku } from '../support/catalog';
import { addToCart, fillCheckout, placeOrder, shippingValue } from '../support/checkout';
import { ShopClient } from '../support/shop-client';
import { attachedPdf, mailText, startSmtpCapture, subjectOf } from '../support/smtp-capture';
import { eventually, jobsSettled, startTestApp, TestApp, usingMysql } from '../support/test-app';
import { CODE, grouped, issueCard, ITEM_DETAILS } from './gift-cards-support';
import { pdfText } from '../support/pdf-text';

const PAGES = '/shop/marketing/gift-cards';
const DAY = 86_400_000;

/** Buying gift cards, their vouchers, and the gift-card pages. */
describe(`gift-card purchase and pages (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
  let staff: ShopClient;
  let flatRate: string;

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    shop = await startTestApp({ env: { SMTP_URL: smtp.url } });
    await shop.app.get(SettingsService).save({ salesGiftCardsEnabled: true });
    flatRate = await shippingValue(shop.dataSource, 'flat-rate');
    staff = new ShopClient(shop.server);
    await staff.loginCp();
  });
  afterAll(async () => {
    await shop.close();
    await smtp.close();
  });

  const mailsTo = (email: string) => smtp.messages.filter((mail) => mail.to.includes(email));
  const vouchersTo = (email: string) => mailsTo(email).filter((mail) => subjectOf(mail).startsWith('Your gift card'));

  /** A shopper's order of `qty` gift cards of 50 (bank transfer: it waits for staff to mark it paid). */
  async function orderGiftCards(email: string, qty: number, custom?: Record<string, string>): Promise<Order> {
    const client = new ShopClient(shop.server);
    const giftCard = await productBySku(shop.dataSource, 'DEMO-GIFT-CARD');
    await addToCart(client, giftCard.id, qty, { configuration: { amount: '50' }, custom });
    await fillCheckout(client, { email, shippingMethod: flatRate, paymentMethod: 'bank-transfer-manual' });
    const placed = await placeOrder(client);
    expect(placed.status).toBe(200);
    return shop.dataSource.getRepository(Order).findOneByOrFail({ number: placed.body.orderNumber });
  }

  const setStatus = async (order: Order, status: string) =>
    expect((await staff.submitForm(`/admin/orders/${order.id}/status`, { status })).status).toBe(303);

  it('issues one card per unit once the order is paid and mails each voucher with its PDF, once', async () => {
    const order = await orderGiftCards('buyer@example.com', 2, { recipientName: 'Grace', message: 'Happy birthday!' });
    await jobsSettled(shop);
    expect(await shop.dataSource.getRepository(GiftCard).countBy({ orderId: order.id })).toBe(0);

    await setStatus(order, 'paid');
    const vouchers = await eventually(
      () => vouchersTo('buyer@example.com').length === 2 && vouchersTo('buyer@example.com'),
    );

    const cards = await shop.dataSource
      .getRepository(GiftCard)
      .find({ where: { orderId: order.id }, order: { unitIndex: 'ASC' } });
    const design = await shop.dataSource.getRepository(GiftCardDesign).findOneByOrFail({ name: 'Campfire' });
    expect(cards).toHaveLength(2);
    expect(new Set(cards.map((card) => card.code)).size).toBe(2);
    const inAYear = Date.now() + 365 * DAY;
    for (const [unitIndex, card] of cards.entries()) {
      expect(card.code).toMatch(CODE);
      expect(card).toMatchObject({
        unitIndex,
        initialAmount: 5000,
        balance: 5000,
        currency: 'EUR',
        status: 'active',
        designId: design.id,
        issuedBy: 'order',
        recipientName: 'Grace',
        message: 'Happy birthday!',
      });
      expect(Math.abs(card.expiresAt! - inAYear)).toBeLessThan(2 * DAY);
    }

    for (const card of cards) {
      const mail = vouchers.find((candidate) => mailText(candidate).includes(grouped(card.code)))!;
      expect(subjectOf(mail)).toBe('Your gift card for Demo Outdoor & Coffee');
      const text = mailText(mail);
      expect(text).toContain(`here is the gift card you bought with order ${order.reference}`);
      expect(text).toContain('worth €50.00');
      expect(text).toContain(`Code: ${grouped(card.code)}`);
      expect(text).toContain(`Valid until: ${new Date(card.expiresAt!).toISOString().slice(0, 10)}`);
      const { filename, pdf } = attachedPdf(mail);
      expect(filename).toBe(`gift-card-${card.code}.pdf`);
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      const voucher = pdfText(pdf);
      expect(voucher).toContain('Demo Outdoor & Coffee');
      expect(voucher).toContain('Gift card');
      expect(voucher).toContain('€50.00');
      expect(voucher).toContain(`Code: ${grouped(card.code)}`);
      expect(voucher).toContain('For: Grace');
      expect(voucher).toContain('Happy birthday!');
    }

    // Later status changes, and the issuing job run again (a retry), issue and mail nothing more.
    await setStatus(order, 'processing');
    await shop.app.get(JobQueue).handlerFor('gift-cards.issue-for-order')!({ orderId: order.id }, {} as never);
    await jobsSettled(shop);
    expect(await shop.dataSource.getRepository(GiftCard).countBy({ orderId: order.id })).toBe(2);
    expect(vouchersTo('buyer@example.com')).toHaveLength(2);
  });

  it('issues nothing for an order canceled before it was paid', async () => {
    const order = await orderGiftCards('canceler@example.com', 1);
    await setStatus(order, 'canceled');
    await jobsSettled(shop);
    expect(await shop.dataSource.getRepository(GiftCard).countBy({ orderId: order.id })).toBe(0);
    expect(vouchersTo('canceler@example.com')).toHaveLength(0);
  });

  it('disables the cards of a paid order that is canceled later, and only those', async () => {
    const order = await orderGiftCards('refunded@example.com', 2);
    await setStatus(order, 'paid');
    await eventually(() => vouchersTo('refunded@example.com').length === 2);
    const cards = shop.dataSource.getRepository(GiftCard);
    const other = await issueCard(shop, 30);

    await setStatus(order, 'canceled');
    const issued = await cards.findBy({ orderId: order.id });
    expect(issued.map((card) => card.status)).toEqual(['disabled', 'disabled']);
    for (const card of issued) {
      const details = await request(shop.server).get(`${ITEM_DETAILS}/${card.code}`).expect(200);
      expect(details.body).toMatchObject({ status: 'disabled', balance: 50 });
    }
    expect((await cards.findOneByOrFail({ id: other.id })).status).toBe('active');
  });

  it('answers item-details as JSON by code, typed any way, and 404 JSON for an unknown code', async () => {
    const card = await issueCard(shop, 25, { expiresAt: new Date('2031-01-31T00:00:00Z') });
    const details = await request(shop.server).get(`${ITEM_DETAILS}/${card.code}`).expect(200);
    expect(details.body).toEqual({
      success: true,
      code: card.code,
      balance: 25,
      currency: 'EUR',
      expiresAt: '2031-01-31T00:00:00.000Z',
      status: 'active',
    });
    const typed = await request(shop.server)
      .get(`${ITEM_DETAILS}/${grouped(card.code).toLowerCase()}`)
      .expect(200);
    expect(typed.body.code).toBe(card.code);

    await shop.dataSource.getRepository(GiftCard).update({ id: card.id }, { expiresAt: Date.now() - 1000 });
    expect((await request(shop.server).get(`${ITEM_DETAILS}/${card.code}`)).body.status).toBe('expired');

    for (const unknown of ['ABCDEFGHJKMNPQRS', 'not-a-code']) {
      // A browser opening the link gets JSON too.
      const res = await request(shop.server).get(`${ITEM_DETAILS}/${unknown}`).set('Accept', 'text/html').expect(404);
      expect(res.body).toEqual({
        success: false,
        error: { code: 'gift_card_unknown', message: 'No gift card has this code.' },
      });
    }
  });

  it('shows the voucher of a code as a real PDF and a design as a preview page', async () => {
    const design = await shop.dataSource.getRepository(GiftCardDesign).findOneByOrFail({ name: 'Campfire' });
    const card = await issueCard(shop, 40, { designId: design.id, recipientName: 'Ada' });
    const voucher = await request(shop.server)
      .get(`${PAGES}/preview-card/${card.code}`)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk)).on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(voucher.headers['content-type']).toBe('application/pdf');
    expect(voucher.headers['content-disposition']).toBe(`inline; filename="gift-card-${card.code}.pdf"`);
    expect(voucher.headers['cache-control']).toBe('private, no-store');
    const text = pdfText(voucher.body as Buffer);
    expect(text).toContain('€40.00');
    expect(text).toContain(`Code: ${grouped(card.code)}`);
    expect(text).toContain('For: Ada');
    await request(shop.server)
      .get(`${PAGES}/preview-card/ABCDEFGHJKMNPQRS`)
      .set('Accept', 'application/json')
      .expect(404);

    const page = await request(shop.server).get(`${PAGES}/preview/${design.id}`).set('Accept', 'text/html').expect(200);
    expect(page.text).toContain('<h1>Campfire gift card</h1>');
    expect(page.text).toContain('<rect width="600" height="340" rx="24" fill="#1f4e3d"/>');
    expect(page.text).toContain('href="/public/images/gift-cards/gift-box.svg"');
    expect(page.text).toContain(`href="${shop.config.baseUrl}/shop/p/trail-and-crema-gift-card"`);
    expect(page.text).not.toMatch(/<script(?![^>]*src=)/); // CSP: no inline scripts
    await request(shop.server).get('/public/css/gift-cards.css').expect(200);
    await request(shop.server).get('/public/images/gift-cards/gift-box.svg').expect(200);
    for (const id of ['999999', 'x']) {
      await request(shop.server).get(`${PAGES}/preview/${id}`).set('Accept', 'text/html').expect(404);
    }
  });

  it(`throttles lookups by code to ${GIFT_CARD_LOOKUP_LIMIT} a minute per address, with Retry-After`, async () => {
    const ip = '203.0.113.9';
    const lookup = (i: number) =>
      request(shop.server)
        .get(`${ITEM_DETAILS}/${String(i).padStart(16, 'A').replace(/[01]/g, 'B')}`)
        .set('X-Forwarded-For', ip);
    for (let i = 0; i < GIFT_CARD_LOOKUP_LIMIT; i++) expect((await lookup(i)).status).toBe(404);
    const refused = await lookup(GIFT_CARD_LOOKUP_LIMIT);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('too_many_requests');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not held up.
    await request(shop.server)
      .get(`${ITEM_DETAILS}/ABCDEFGHJKMNPQRS`)
      .set('X-Forwarded-For', '203.0.113.10')
      .expect(404);
  });

  it('answers 404 on every gift-card route while salesGiftCardsEnabled is off', async () => {
    const card = await issueCard(shop, 10);
    const design = await shop.dataSource.getRepository(GiftCardDesign).findOneByOrFail({ name: 'Campfire' });
    const settings = shop.app.get(SettingsService);
    await settings.save({ salesGiftCardsEnabled: false });
    try {
      const client = new ShopClient(shop.server);
      for (const path of [`preview/${design.id}`, `preview-card/${card.code}`, `item-details/${card.code}`]) {
        const res = await request(shop.server).get(`${PAGES}/${path}`).set('Accept', 'application/json').expect(404);
        expect(res.body.error).toEqual({ code: 'not_found', message: `Cannot GET ${PAGES}/${path}` });
      }
      for (const path of ['apply-gift-card', 'remove-gift-card']) {
        expect((await client.post(`/shop/cart/${path}`, { code: card.code })).status).toBe(404);
      }
    } finally {
      await settings.save({ salesGiftCardsEnabled: true });
    }
    await request(shop.server).get(`${ITEM_DETAILS}/${card.code}`).expect(200);
  });
});
