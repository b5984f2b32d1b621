import { Order } from '../../src/commerce/orders/order.entity';
import { SettingsService } from '../../src/config/settings.service';
import { productBySku } from '../support/catalog';
import { addToCart, fillCheckout, placeOrder, shippingValue } from '../support/checkout';
import { ShopClient } from '../support/shop-client';
import { mailHtml, mailText, startSmtpCapture, subjectOf } from '../support/smtp-capture';
import { jobsSettled, startTestApp, TestApp, usingMysql } from '../support/test-app';

/** Intl writes a no-break space where a reader sees a space (Slovak amounts). */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

/**
 * What the law asks of the last step of checkout (Directive 2011/83/EU Art. 8(2) and 8(7)): a button that says
 * ordering means paying, the goods and costs right above it, the "I accept the terms" box when the shop wants it
 * (`salesTermsCheckbox`) with the accepted version kept on the order, and the terms and withdrawal information in
 * the confirmation mail.
 */
describe(`order button, terms acceptance and the legal texts in the confirmation (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
  let settings: SettingsService;
  let flatRate: string;
  let shopper = 0;

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    shop = await startTestApp({ listen: true, env: { SMTP_URL: smtp.url } });
    settings = shop.app.get(SettingsService);
    flatRate = await shippingValue(shop.dataSource, 'flat-rate');
  });
  afterAll(async () => {
    await shop?.close();
    await smtp?.close();
  });
  afterEach(() => settings.save({ salesTermsCheckbox: false }));

  /** A shopper in `language` with a tent and a configured T-shirt, details, shipping and payment saved. */
  async function shopperReady(language = 'en'): Promise<{ client: ShopClient; email: string }> {
    const client = new ShopClient(shop.server);
    if (language !== 'en') {
      expect((await client.submitForm('/shop/language/set', { language })).status).toBe(303);
    }
    await addToCart(client, (await productBySku(shop.dataSource, 'DEMO-TENT-2P')).id, 1);
    await addToCart(client, (await productBySku(shop.dataSource, 'DEMO-TEE-LOGO')).id, 2, {
      configuration: { size: 'M', color: 'blue' },
    });
    const email = `terms${++shopper}@example.com`;
    await fillCheckout(client, { email, shippingMethod: flatRate, paymentMethod: 'cod' });
    return { client, email };
  }

  const summaryOf = (html: string) => /<aside class="checkout-summary"[\s\S]*?<\/aside>/.exec(html)![0];

  it('labels the order button in each shop language and shows the goods, delivery and total right above it', async () => {
    const expected: Record<string, { button: string; legal: string }> = {
      en: { button: 'Order with obligation to pay', legal: 'Before you order, please read:' },
      sk: { button: 'Objednať s povinnosťou platby', legal: 'Pred objednaním si prečítajte:' },
    };
    for (const [language, text] of Object.entries(expected)) {
      const { client } = await shopperReady(language);
      const summary = plain(summaryOf((await client.get('/shop/checkout').expect(200)).text));
      expect(summary).toContain(
        `<button type="submit" id="checkout-place-order" class="button">${text.button}</button>`,
      );
      // Above the button: each line's name, variant and quantity, the delivery costs, the total and its VAT.
      const aboveButton = summary.slice(0, summary.indexOf('id="checkout-place-order"'));
      expect(aboveButton).toContain('1 × Ridgeline 2-Person Tent');
      expect(aboveButton).toMatch(/2 × [^<]+ <small class="checkout-item-options">\(size: M, color: blue\)<\/small>/);
      expect(aboveButton).toMatch(/<dd data-amount="shipping">[^<]+<\/dd>/);
      expect(aboveButton).toMatch(/<dd class="total" data-amount="total">[^<]+<\/dd>/);
      expect(aboveButton).toMatch(/<dd class="tax" data-amount="tax">[^<]+<\/dd>/);
      expect(aboveButton).toContain(text.legal);
      expect(aboveButton).toContain('<a href="/shop/page/terms">');
      expect(aboveButton).toContain('<a href="/shop/page/withdrawal">');
      // The box only while the setting is on.
      expect(summary).not.toContain('name="acceptTerms"');
    }
  });

  it('places an order without the box while the setting is off, recording no acceptance', async () => {
    const { client } = await shopperReady();
    const placed = await placeOrder(client);
    expect(placed.status).toBe(200);
    const order = await shop.dataSource.getRepository(Order).findOneByOrFail({ number: placed.body.orderNumber });
    expect(order).toMatchObject({ termsVersion: null, termsAcceptedAt: null });
  });

  it('with the setting on, refuses an order without the box or with terms changed since the page, and keeps the version shown and the time', async () => {
    await settings.save({ salesTermsCheckbox: true });
    const { client, email } = await shopperReady('sk');
    const shownVersion = async () => {
      const page = (await client.get('/shop/checkout').expect(200)).text;
      expect(page).toContain(
        '<input id="checkout-acceptTerms" name="acceptTerms" type="checkbox" value="true" required>\n      <label for="checkout-acceptTerms">Súhlasím s obchodnými podmienkami</label>',
      );
      return Number(
        /<input id="checkout-termsVersion" type="hidden" name="termsVersion" value="(\d+)">/.exec(page)![1],
      );
    };
    expect(await shownVersion()).toBe(1);

    // While the page is open, staff publish a second version of the Slovak terms.
    const staff = new ShopClient(shop.server);
    await staff.loginCp();
    const edited = await staff.post('/admin/content-pages/terms/sk', {
      title: 'Obchodné podmienky',
      body: 'Nové znenie podmienok.\n\n## Doručenie\nDoručujeme do 3 dní.',
      version: 1,
    });
    expect(edited.body).toMatchObject({ success: true, version: 2 });

    for (const body of [{}, { acceptTerms: false }]) {
      const refused = await placeOrder(client, body);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        success: false,
        error: {
          code: 'validation_failed',
          message: 'Please accept the terms and conditions to place your order.',
          fields: { acceptTerms: ['must be ticked: accept the terms and conditions to order'] },
        },
      });
    }
    // Accepting the version the page showed, or none, is no acceptance of the current one: the page shows it anew.
    for (const body of [{ acceptTerms: true, termsVersion: 1 }, { acceptTerms: true }]) {
      const stale = await placeOrder(client, body);
      expect(stale.status).toBe(409);
      expect(stale.body.error).toMatchObject({
        code: 'terms_changed',
        message:
          'The terms and conditions changed while you were checking out. Read the new version and place the order again.',
        termsVersion: 2,
      });
    }
    expect(await shop.dataSource.getRepository(Order).countBy({ email })).toBe(0);

    const before = Date.now();
    const placed = await placeOrder(client, { acceptTerms: true, termsVersion: await shownVersion() });
    expect(placed.status).toBe(200);
    const order = await shop.dataSource.getRepository(Order).findOneByOrFail({ number: placed.body.orderNumber });
    expect(order.termsVersion).toBe(2);
    expect(order.termsLanguage).toBe('sk');
    expect(order.language).toBe('sk');
    expect(order.termsAcceptedAt).toBeGreaterThanOrEqual(before);
    expect(order.termsAcceptedAt).toBeLessThanOrEqual(Date.now());

    const cpPage = (await staff.get(`/admin/orders/${order.id}`).set('Accept', 'text/html').expect(200)).text;
    expect(cpPage).toMatch(/<dt>Terms<\/dt><dd>accepted version 2 \(sk\) on [^<]+<\/dd>/);

    // The confirmation carries the accepted terms and the withdrawal information, in the shopper's language.
    await jobsSettled(shop);
    const mails = smtp.messages.filter((mail) => mail.to.includes(email));
    expect(mails).toHaveLength(1);
    expect(subjectOf(mails[0])).toContain(order.reference);
    const text = mailText(mails[0]);
    expect(text).toContain(
      'Naše obchodné podmienky a poučenie o práve odstúpiť od zmluvy, ako platia pre túto objednávku:',
    );
    expect(text).toContain('== Obchodné podmienky (verzia 2) ==');
    expect(text).toContain('Nové znenie podmienok.');
    expect(text).toContain('Doručujeme do 3 dní.');
    expect(text).toContain('== Odstúpenie od zmluvy a vrátenie (verzia 1) ==');
    expect(text).toContain('Máte právo odstúpiť od tejto zmluvy do 14 dní bez uvedenia dôvodu.');
    expect(text).toContain('- Meno a adresa spotrebiteľa:');
    const html = mailHtml(mails[0]);
    expect(html).toContain('Obchodné podmienky (verzia 2)</p>');
    expect(html).toContain('Doručujeme do 3 dní.');
    expect(html).toContain('<li>Meno a adresa spotrebiteľa:</li>');
  });

  it('sends an English confirmation with the current English terms and withdrawal information', async () => {
    const { client, email } = await shopperReady();
    expect((await placeOrder(client)).status).toBe(200);
    await jobsSettled(shop);
    const [mail] = smtp.messages.filter((m) => m.to.includes(email));
    const text = mailText(mail);
    expect(text).toContain('== Terms and conditions (version 1) ==');
    expect(text).toContain('== Withdrawal and returns (version 1) ==');
    expect(text).toContain(
      'You have the right to withdraw from this contract within 14 days without giving any reason.',
    );
  });
});
