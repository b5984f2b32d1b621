import { CustomerAddress } from '../../src/commerce/customers/customer-address.entity';
import { Customer } from '../../src/commerce/customers/customer.entity';
import { Order } from '../../src/commerce/orders/order.entity';
import { productBySku } from '../support/catalog';
import { ADDRESS, addToCart, fillCheckout, placeOrder, shippingValue } from '../support/checkout';
import { confirmLink, registerCustomer, resetTokenAndCode, verificationPath } from '../support/customers';
import { ShopClient } from '../support/shop-client';
import { mailText, startSmtpCapture } from '../support/smtp-capture';
import { eventually, startTestApp, TestApp, usingMysql } from '../support/test-app';
import { translations } from '../../src/web/i18n/translations';

/** A translation key left on a page (`account.nav.orders`), or a placeholder left in a translation (`{name}`). */
const RAW_KEY = /(?<![\w@/.-])(?:account|customer)\.[a-z][A-Za-z]*(?:\.[A-Za-z]+)*/;
const RAW_PLACEHOLDER = /\{(?:name|email|count|owner|reference|date|page|pages|provider)\}/;

/** The account and customer pages in English and Slovak. */
describe(`account and customer pages in the page language (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
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

  const page = (client: ShopClient, path: string) => client.get(path).set('Accept', 'text/html');
  const json = (client: ShopClient, path: string) => client.get(path).set('Accept', 'application/json');

  async function inSlovak(client: ShopClient): Promise<void> {
    expect((await client.submitForm('/shop/language/set', { language: 'sk' })).status).toBe(303);
  }

  /** A new customer, logged in on `client`, with a home address, a wishlist item and one order. */
  async function shopper(client: ShopClient) {
    const email = await registerCustomer(client, { firstName: 'Ada' });
    expect((await client.post('/shop/account/address-book/save', ADDRESS)).status).toBe(200);
    const headlamp = await productBySku(shop.dataSource, 'DEMO-HEADLAMP');
    expect((await client.post('/shop/wishlist/add', { product: headlamp.id, qty: 1 })).status).toBe(200);
    await addToCart(client, headlamp.id, 1);
    await fillCheckout(client, {
      email,
      shippingMethod: await shippingValue(shop.dataSource, 'flat-rate'),
      paymentMethod: 'cod',
    });
    const placed = await placeOrder(client);
    expect(placed.status).toBe(200);
    const order = await shop.dataSource.getRepository(Order).findOneByOrFail({ number: placed.body.orderNumber });
    return { email, order };
  }

  it('shows the login page in Slovak after the language switch', async () => {
    const client = new ShopClient(shop.server);
    await inSlovak(client);
    const res = await page(client, '/shop/login').expect(200);
    expect(res.text).toContain('<html lang="sk">');
    expect(res.text).toContain('<h1>Prihlásenie</h1>');
    expect(res.text).toContain('<label for="loginName">E-mail alebo používateľské meno</label>');
    expect(res.text).toContain('<label for="password">Heslo</label>');
    expect(res.text).toContain('Zapamätať si prihlásenie na 30 dní');
    expect(res.text).toContain('<button type="submit">Prihlásiť sa</button>');
    expect(res.text).toContain('Zabudli ste heslo?');
    expect(res.text).not.toContain('Forgotten your password?');
  });

  it('shows the register page in Slovak, and the welcome flash after registering', async () => {
    const client = new ShopClient(shop.server);
    await inSlovak(client);
    const res = await page(client, '/shop/register').expect(200);
    expect(res.text).toContain('<h1>Vytvorenie účtu</h1>');
    expect(res.text).toContain('<label for="firstName">Meno</label>');
    expect(res.text).toContain('<label for="lastName">Priezvisko</label>');
    expect(res.text).toContain('Aspoň 10 znakov.');
    expect(res.text).toContain('<button type="submit">Vytvoriť účet</button>');
    expect(res.text).toContain('Už máte účet?');

    const email = `slovak${Date.now()}@example.com`;
    const form = await client.submitForm('/shop/create-account', {
      firstName: 'Zuzana',
      lastName: 'Nováková',
      email,
      password: 'dlhé heslo na skúšku',
    });
    expect(form.status).toBe(303);
    expect(form.headers.location).toBe('/shop/account');
    const account = await page(client, '/shop/account').expect(200);
    expect(account.text).toContain('Vitajte, Zuzana! Váš účet je pripravený.');
  });

  it('words refused login and register forms in Slovak', async () => {
    const email = await registerCustomer(new ShopClient(shop.server));
    const client = new ShopClient(shop.server);
    await inSlovak(client);
    const refusal = async (path: string, fields: Record<string, string>, formPage: string) => {
      const res = await client.submitForm(path, fields);
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe(formPage);
      const html = (await page(client, formPage).expect(200)).text;
      return /<p class="flash flash-error"[^>]*>([^<]*)<\/p>/.exec(html)?.[1];
    };
    expect(await refusal('/shop/authorize', { loginName: email, password: 'not the password' }, '/shop/login')).toBe(
      'E-mail, používateľské meno alebo heslo nie je správne.',
    );
    expect(await refusal('/shop/authorize', { loginName: '', password: '' }, '/shop/login')).toBe(
      'E-mail alebo používateľské meno: povinný údaj. Heslo: povinný údaj.',
    );
    const newcomer = { firstName: 'Zuzana', lastName: 'Nováková', email: 'zuzana@example', password: 'kratke' };
    expect(await refusal('/shop/create-account', newcomer, '/shop/register')).toBe(
      'E-mail: neplatná e-mailová adresa. Heslo: aspoň 10 znakov.',
    );
    expect(
      await refusal('/shop/create-account', { ...newcomer, email, password: 'dlhé heslo na skúšku' }, '/shop/register'),
    ).toBe('Táto e-mailová adresa už patrí inému účtu.');
  });

  it('shows the dashboard of a logged-in customer in Slovak, prices and statuses included', async () => {
    const client = new ShopClient(shop.server);
    const { email, order } = await shopper(client);
    const english = await page(client, '/shop/account').expect(200);
    expect(english.text).toContain('Hello, Ada');
    expect(english.text).toMatch(/<td>€\d+\.\d{2}<\/td>/);

    await inSlovak(client);
    const res = await page(client, '/shop/account').expect(200);
    expect(res.text).toContain('<title>Váš účet');
    expect(res.text).toContain('<h1>Dobrý deň, Ada</h1>');
    expect(res.text).toContain(`Prihlásili ste sa ako ${email}.`);
    expect(res.text).toContain('<a href="/shop/account/my-orders">Moje objednávky</a>');
    expect(res.text).toContain('<h2 id="recent-orders">Posledné objednávky</h2>');
    expect(res.text).toContain('<h3>Predvolená fakturačná adresa</h3>');
    expect(res.text).toContain('<button type="submit">Odhlásiť sa</button>');
    expect(res.text).toContain(order.reference);
    expect(res.text).toMatch(/<td>\d+,\d{2}\s€<\/td>/);
    expect(res.text).toContain(`<td>${translations().t('sk', `order.statuses.${order.status}`)}</td>`);
    expect(res.text).not.toContain('Hello, Ada');
    expect(res.text).not.toContain('Recent orders');
  });

  it('names the countries of the address forms in the page language, by name', async () => {
    const client = new ShopClient(shop.server);
    await shopper(client);
    /** The options of the page's first country select (`country`, or the checkout's `billingAddress[country]`). */
    const options = async (path: string) => {
      const html = (await page(client, path).expect(200)).text;
      const select = /<select[^>]*name="(?:billingAddress\[)?country\]?"[^>]*>([\s\S]*?)<\/select>/.exec(html)![1];
      return [...select.matchAll(/<option value="([A-Z]{2})"( selected)?>([^<]+)<\/option>/g)].map(
        ([, code, selected, name]) => ({ code, name, selected: Boolean(selected) }),
      );
    };
    const english = await options('/shop/account/address-book/new');
    expect(english.find((option) => option.code === 'DE')!.name).toBe('Germany');

    await inSlovak(client);
    const slovak = await options('/shop/account/address-book/new');
    expect(slovak.find((option) => option.code === 'DE')!.name).toBe('Nemecko');
    expect(slovak.find((option) => option.code === 'SK')!.name).toBe('Slovensko');
    const names = slovak.map((option) => option.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'sk')));
    // The checkout page's address form too (the shopper's order emptied the cart: a new one).
    await addToCart(client, (await productBySku(shop.dataSource, 'DEMO-HEADLAMP')).id, 1);
    const checkout = await options('/shop/checkout');
    expect(checkout.find((option) => option.code === 'SK')).toEqual({ code: 'SK', name: 'Slovensko', selected: true });
  });

  it('keeps JSON answers in English whatever the page language, and flashes in Slovak', async () => {
    const client = new ShopClient(shop.server);
    await shopper(client);
    await inSlovak(client);
    const saved = await client.post('/shop/account/address-book/save', ADDRESS);
    expect(saved.body).toMatchObject({ success: true, message: 'The address was saved.' });
    const form = await client.submitForm('/shop/account/subscriptions/save', { newsletter: 'false' });
    expect(form.status).toBe(303);
    const next = await page(client, '/shop/account/subscriptions').expect(200);
    expect(next.text).toContain('Nebudete dostávať žiadne marketingové e-maily.');
    expect(next.text).toContain('<h1>Odbery</h1>');
  });

  it('leaves no raw translation key or placeholder on any converted page, in English or Slovak', async () => {
    const client = new ShopClient(shop.server);
    const { email, order } = await shopper(client);
    const [list] = (await json(client, '/shop/account/wishlists')).body.wishlists;
    const share = await json(client, `/shop/account/wishlist-share/${list.id}`).expect(200);
    const sharedPath = new URL(share.body.url as string).pathname;
    const customer = await shop.dataSource.getRepository(Customer).findOneByOrFail({ email });
    const address = await shop.dataSource.getRepository(CustomerAddress).findOneByOrFail({ customerId: customer.id });

    // The password reset pages need a link from the e-mail: a second browser asks for one.
    const guest = new ShopClient(shop.server);
    expect((await guest.post('/shop/forgotten-password', { email })).status).toBe(200);
    const { token, code } = await resetTokenAndCode(smtp.messages, email);

    const accountPages = [
      '/shop/account',
      '/shop/account/my-orders',
      `/shop/account/my-order?number=${order.number}`,
      '/shop/account/my-invoices',
      '/shop/account/address-book',
      '/shop/account/address-book/new',
      `/shop/account/address-book/${address.id}`,
      '/shop/account/login-details',
      '/shop/account/subscriptions',
      '/shop/account/watchdog',
      '/shop/account/wishlists',
      `/shop/account/wishlist-share/${list.id}`,
      sharedPath,
    ];
    const confirmation = await verificationPath(smtp.messages, email);
    // A pending newsletter subscription's link opens a page with a button.
    const reader = `reader.${email}`;
    expect((await guest.post('/shop/subscribe', { email: reader, consent: true })).status).toBe(200);
    const newsletterConfirm = /(\/shop\/newsletter\/confirm\?email=[^&\s]+&sig=[0-9a-f]{64})/.exec(
      await eventually(() =>
        smtp.messages
          .filter((message) => message.to.includes(reader))
          .map(mailText)
          .find((body) => body.includes('/shop/newsletter/confirm?')),
      ),
    )![1];
    const guestPages = [
      '/shop/login',
      '/shop/register',
      '/shop/forgotten-password',
      `/shop/verify-otp?token=${token}`,
      `/shop/verify-otp?token=${'0'.repeat(64)}`,
      '/shop/newsletter/confirm?email=nobody%40example.com&sig=wrong',
      newsletterConfirm,
      confirmation,
      `/shop/customer/verify-email?token=${'0'.repeat(64)}`,
    ];

    const check = async (who: ShopClient, paths: string[], language: string) => {
      for (const path of paths) {
        const res = await page(who, path);
        expect([200, 400]).toContain(res.status);
        expect(res.text).toContain(`<html lang="${language}">`);
        expect({ path, key: RAW_KEY.exec(res.text)?.[0] }).toEqual({ path, key: undefined });
        // Only the page itself: the layout's cart popup keeps a `{name}` template for shop.js.
        const main = res.text.slice(res.text.indexOf('<main'), res.text.indexOf('</main>'));
        expect({ path, placeholder: RAW_PLACEHOLDER.exec(main)?.[0] }).toEqual({ path, placeholder: undefined });
      }
    };
    const verified = async (language: string) => {
      const next = `/shop/create-new-password?token=${token}`;
      const res = await page(guest, next).expect(200);
      expect(res.text).toContain(`<html lang="${language}">`);
      expect(RAW_KEY.exec(res.text)).toBeNull();
      return res.text;
    };

    await check(client, accountPages, 'en');
    await check(guest, guestPages, 'en');
    const enCode = await page(guest, `/shop/verify-otp?token=${token}`).expect(200);
    expect(enCode.text).toMatch(/It is valid for \d+ minutes\./);

    await inSlovak(client);
    await inSlovak(guest);
    await check(client, accountPages, 'sk');
    await check(guest, guestPages, 'sk');
    // The link opens a page with a button; pressing it confirms, in Slovak too.
    expect((await page(guest, newsletterConfirm).expect(200)).text).toContain(
      '<button type="submit">Potvrdiť odber</button>',
    );
    const skConfirm = await page(guest, confirmation).expect(200);
    expect(skConfirm.text).toContain('<button type="submit">Potvrdiť moju e-mailovú adresu</button>');
    const skConfirmed = await confirmLink(guest, confirmation);
    expect(skConfirmed.status).toBe(200);
    expect(skConfirmed.text).toContain('<h1>E-mailová adresa je potvrdená</h1>');
    expect(skConfirmed.text).toContain('Ďakujeme: e-mailová adresa vášho účtu je potvrdená.');
    expect((await page(guest, confirmation).expect(200)).text).toContain(
      'E-mailová adresa vášho účtu už je potvrdená.',
    );
    const skCode = await page(guest, `/shop/verify-otp?token=${token}`).expect(200);
    expect(skCode.text).toMatch(/Platí \d+ minú(tu|ty|t)\./);

    expect((await guest.post('/shop/verify-otp-post', { token, code })).status).toBe(200);
    expect(await verified('sk')).toContain('Použite aspoň 10 znakov;');
    expect((await guest.submitForm('/shop/language/set', { language: 'en' })).status).toBe(303);
    expect(await verified('en')).toContain('Use at least 10 characters;');
  });
});
