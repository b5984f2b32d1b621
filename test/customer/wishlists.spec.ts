import request, { Response } from 'supertest';
import { CartLine } from '../../src/commerce/carts/cart-line.entity';
import { Cart } from '../../src/commerce/carts/cart.entity';
import { Customer } from '../../src/commerce/customers/customer.entity';
import { WishlistItem } from '../../src/commerce/wishlists/wishlist-item.entity';
import { Wishlist } from '../../src/commerce/wishlists/wishlist.entity';
import { Product } from '../../src/commerce/products/product.entity';
import { SettingsService } from '../../src/config/settings.service';
import { SHARE_RECIPIENTS_PER_HOUR } from '../../src/mail/share-mails';
import { productBySku, variantBySku } from '../support/catalog';
import { addToCart } from '../support/checkout';
import { CUSTOMER_PASSWORD, registerCustomer } from '../support/customers';
import { ShopClient } from '../support/shop-client';
import { CapturedMail, mailText, startSmtpCapture, subjectOf } from '../support/smtp-capture';
import { eventually, jobsSettled, startTestApp, TestApp, usingMysql } from '../support/test-app';

/** Named wishlists, a guest's session list, sharing, and moving items to the cart. */
describe(`wishlists (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
  let headlamp: Product; // stock 72
  let tent: Product; // stock 14
  let lantern: Product; // stock 0
  let tee: Product; // configurable: size × color

  beforeAll(async () => {
    smtp = await startSmtpCapture();
    shop = await startTestApp({ env: { SMTP_URL: smtp.url } });
    [headlamp, tent, lantern, tee] = await Promise.all(
      ['DEMO-HEADLAMP', 'DEMO-TENT-2P', 'DEMO-LANTERN-LED', 'DEMO-TEE-LOGO'].map((sku) =>
        productBySku(shop.dataSource, sku),
      ),
    );
  });
  afterAll(async () => {
    await shop.close();
    await smtp.close();
  });

  /** A new client logged in as a new customer. */
  const customer = async (firstName = 'Ada') => {
    const client = new ShopClient(shop.server);
    const email = await registerCustomer(client, { firstName });
    const { id } = await shop.dataSource.getRepository(Customer).findOneByOrFail({ email });
    return { client, email, id };
  };
  const listsOf = (customerId: number) =>
    shop.dataSource.getRepository(Wishlist).find({ where: { customerId }, order: { id: 'ASC' } });
  const itemsOf = (wishlistId: number) =>
    shop.dataSource.getRepository(WishlistItem).find({ where: { wishlistId }, order: { id: 'ASC' } });
  const pagePath = (url: string) => new URL(url).pathname;
  /** A captured e-mail as its reader sees it: the headers (subject, reply address) and the decoded text. */
  const readable = (mail: CapturedMail) => mail.raw.slice(0, mail.raw.indexOf('\r\n\r\n')) + mailText(mail);
  /** Awaits a client's request and checks its status (and body, when given), showing the body on a mismatch. */
  const is = async (pending: Promise<Response>, status: number, body?: object) => {
    const res = await pending;
    expect({ status: res.status, body: res.body }).toEqual({ status, body: body ?? res.body });
    return res;
  };

  it('saves to the default list, made on first use, and adds quantities of the same product up', async () => {
    const { client, id } = await customer();
    expect(await listsOf(id)).toEqual([]);

    const first = await is(client.post('/shop/wishlist/add', { product: headlamp.id, qty: 2 }), 200);
    expect(first.body).toEqual({
      success: true,
      message: `${headlamp.name} was saved to your wishlist.`,
      wishlist: {
        id: expect.any(Number),
        name: 'My wishlist',
        isDefault: true,
        count: 1,
        items: [
          {
            id: expect.any(Number),
            productId: headlamp.id,
            variantId: null,
            sku: 'DEMO-HEADLAMP',
            name: headlamp.name,
            qty: 2,
            price: headlamp.price / 100,
            priceLabel: expect.any(String),
            currency: 'EUR',
            available: true,
            inStock: true,
            url: expect.stringMatching(/\/shop\/p\/[a-z0-9-]+$/),
            image: expect.stringMatching(/\/public\/images\/products\/.+\.svg$/),
            options: [],
          },
        ],
      },
      count: 1,
    });
    await is(client.post('/shop/wishlist/add', { product: headlamp.id, qty: 3 }), 200);
    // A form's `qty` is text, and a "save" button may leave it out (1).
    expect((await client.submitForm('/shop/wishlist/add', { product: String(tent.id) })).status).toBe(303);
    const variant = await variantBySku(shop.dataSource, 'DEMO-TEE-LOGO-M-BLUE');
    const withOptions = await is(
      client.post('/shop/wishlist/add', { product: tee.id, qty: 1, configuration: { size: 'M', color: 'blue' } }),
      200,
    );
    expect(withOptions.body.wishlist.items[2]).toMatchObject({
      productId: tee.id,
      variantId: variant.id,
      sku: 'DEMO-TEE-LOGO-M-BLUE',
      options: [
        { code: 'size', value: 'M' },
        { code: 'color', value: 'blue' },
      ],
    });

    const lists = await listsOf(id);
    expect(lists).toHaveLength(1);
    expect(lists[0]).toMatchObject({ name: 'My wishlist', isDefault: true });
    expect(
      (await itemsOf(lists[0].id)).map(({ productId, variantId, qty }) => ({ productId, variantId, qty })),
    ).toEqual([
      { productId: headlamp.id, variantId: 0, qty: 5 },
      { productId: tent.id, variantId: 0, qty: 1 },
      { productId: tee.id, variantId: variant.id, qty: 1 },
    ]);
  });

  it('makes one default list and one item when first adds arrive at once', async () => {
    const { client, id } = await customer();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => client.post('/shop/wishlist/add', { product: tent.id, qty: 1 })),
    );
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const lists = await listsOf(id);
    expect(lists).toHaveLength(1);
    expect(await itemsOf(lists[0].id)).toEqual([expect.objectContaining({ productId: tent.id, qty: 6 })]);
  });

  it('refuses bad input with field errors and unknown, hidden or mis-configured products', async () => {
    const { client } = await customer();
    const add = (body: object) => client.post('/shop/wishlist/add', body);
    expect((await is(add({ product: headlamp.id, qty: 0 }), 400)).body.error).toMatchObject({
      code: 'validation_failed',
      fields: { qty: ['must be at least 1'] },
    });
    expect((await is(add({ product: 'lamp' }), 400)).body.error.fields).toHaveProperty('product');
    expect((await is(add({}), 400)).body.error.fields).toHaveProperty('product');
    expect((await is(add({ product: 999_999 }), 404)).body.error.code).toBe('product_unavailable');
    const hidden = await productBySku(shop.dataSource, 'DEMO-TENT-4P');
    await is(add({ product: hidden.id }), 404);
    const wrong = await is(add({ product: tee.id, configuration: { size: 'XXL', color: 'blue' } }), 400);
    expect(wrong.body.error.fields).toEqual({ 'configuration[size]': ['must be one of S, M, L'] });
    await is(add({ product: headlamp.id, wishlist: 999_999 }), 404);

    const update = (body: object) => client.post('/shop/account/wishlist-update', body);
    expect((await is(update({ name: '   ' }), 400)).body.error.fields).toEqual({ name: ['is required'] });
    expect((await is(update({ name: 'x'.repeat(101) }), 400)).body.error.fields).toHaveProperty('name');
    await is(client.post('/shop/account/wishlist-remove-item', { id: 'first' }), 400);
    await is(client.post('/shop/wishlist/remove-item', { id: 999_999 }), 404);
  });

  it('keeps named lists: create, add to, rename (the default one too), clear and remove items', async () => {
    const { client, id } = await customer();
    const birthday = await is(client.post('/shop/account/wishlist-update', { name: ' Birthday ' }), 200);
    // The first list a customer makes is their default one.
    expect(birthday.body.wishlist).toMatchObject({ name: 'Birthday', isDefault: true, items: [] });
    const camping = await is(client.post('/shop/account/wishlist-update', { name: 'Camping' }), 200);
    const campingId = camping.body.wishlist.id as number;
    expect(camping.body.wishlist).toMatchObject({ name: 'Camping', isDefault: false });

    await is(client.post('/shop/wishlist/add', { product: tent.id, qty: 1, wishlist: campingId }), 200);
    await is(client.post('/shop/wishlist/add', { product: lantern.id, qty: 2, wishlist: campingId }), 200);
    const toDefault = await is(client.post('/shop/wishlist/add', { product: headlamp.id, qty: 1 }), 200);
    expect(toDefault.body.wishlist).toMatchObject({ id: birthday.body.wishlist.id, count: 1 });

    const renamed = await is(
      client.post('/shop/account/wishlist-update', { id: birthday.body.wishlist.id, name: 'Gift ideas' }),
      200,
    );
    expect(renamed.body.wishlist).toMatchObject({ name: 'Gift ideas', isDefault: true, count: 1 });
    expect((await listsOf(id)).map(({ name, isDefault }) => ({ name, isDefault }))).toEqual([
      { name: 'Gift ideas', isDefault: true },
      { name: 'Camping', isDefault: false },
    ]);

    const all = await client.get('/shop/account/wishlists').set('Accept', 'application/json').expect(200);
    expect(all.body.wishlists.map((list: { name: string; count: number }) => [list.name, list.count])).toEqual([
      ['Gift ideas', 1],
      ['Camping', 2],
    ]);
    const page = await client.get('/shop/account/wishlists').set('Accept', 'text/html').expect(200);
    expect(page.text).toContain('<meta name="viewport"');
    expect(page.text).toContain('<meta name="csrf-token"');
    expect(page.text).toContain('Gift ideas');
    expect(page.text).toContain(tent.name);
    expect(page.text).toContain(`href="/shop/account/wishlist-share/${campingId}"`);
    expect(page.headers['cache-control']).toBe('no-store');

    const [tentItem, lanternItem] = await itemsOf(campingId);
    const removed = await is(client.post('/shop/account/wishlist-remove-item', { id: tentItem.id }), 200);
    expect(removed.body.wishlist).toMatchObject({ id: campingId, count: 1 });
    await is(client.post('/shop/account/wishlist-remove-item', { id: tentItem.id }), 404);
    const removedToo = await is(client.post('/shop/wishlist/remove-item', { id: lanternItem.id }), 200);
    expect(removedToo.body).toMatchObject({ success: true, count: 0, wishlist: { id: campingId, items: [] } });

    await is(client.post('/shop/wishlist/add', { product: lantern.id, qty: 1, wishlist: campingId }), 200);
    const cleared = await is(client.post('/shop/account/wishlist-clear', { wishlist: campingId }), 200);
    expect(cleared.body).toMatchObject({ message: 'The wishlist is empty.', count: 0 });
    expect(await itemsOf(campingId)).toEqual([]);
    // Without `wishlist`, the default list; a form post lands back on the page with a flash.
    const form = await client.submitForm('/shop/account/wishlist-clear', {});
    expect(form.status).toBe(303);
    expect(form.headers.location).toBe('/shop/account/wishlists');
    expect(await itemsOf(birthday.body.wishlist.id)).toEqual([]);
    const after = await client.get('/shop/account/wishlists').set('Accept', 'text/html').expect(200);
    expect(after.text).toContain('The wishlist is empty.');
  });

  it("answers 404 for another customer's list or item, and leaves them alone", async () => {
    const owner = await customer();
    const list = await is(owner.client.post('/shop/account/wishlist-update', { name: 'Mine' }), 200);
    const wishlistId = list.body.wishlist.id as number;
    await is(owner.client.post('/shop/wishlist/add', { product: tent.id, qty: 1 }), 200);
    const [item] = await itemsOf(wishlistId);

    const { client } = await customer('Eve');
    const notFound = { success: false, error: { code: 'not_found', message: 'That wishlist does not exist.' } };
    await is(client.post('/shop/wishlist/add', { product: headlamp.id, qty: 1, wishlist: wishlistId }), 404, notFound);
    await is(client.post('/shop/account/wishlist-update', { id: wishlistId, name: 'Ours' }), 404, notFound);
    await is(client.post('/shop/account/wishlist-clear', { wishlist: wishlistId }), 404, notFound);
    const noItem = { success: false, error: { code: 'not_found', message: 'That item is not on your wishlist.' } };
    await is(client.post('/shop/wishlist/remove-item', { id: item.id }), 404, noItem);
    await is(client.post('/shop/account/wishlist-remove-item', { id: item.id }), 404, noItem);
    await is(client.post('/shop/account/wishlist-cart-item', { id: item.id }), 404, noItem);
    await client.get(`/shop/account/wishlist-share/${wishlistId}`).expect(404, notFound);
    await is(client.post('/shop/account/wishlist-share-post', { id: wishlistId, emails: 'x@example.com' }), 404);
    const own = await client.get('/shop/account/wishlists').set('Accept', 'application/json').expect(200);
    expect(own.body.wishlists).toEqual([]);

    expect(await shop.dataSource.getRepository(Wishlist).findOneByOrFail({ id: wishlistId })).toMatchObject({
      name: 'Mine',
    });
    expect(await itemsOf(wishlistId)).toEqual([expect.objectContaining({ id: item.id, qty: 1 })]);
  });

  it('keeps a guest list in the session and adds it to the account at login', async () => {
    const { client, email, id } = await customer();
    await is(client.post('/shop/wishlist/add', { product: headlamp.id, qty: 1 }), 200);
    // Another browser, not logged in yet.
    const guest = new ShopClient(shop.server);
    const added = await is(guest.post('/shop/wishlist/add', { product: headlamp.id, qty: 2 }), 200);
    expect(added.body.wishlist).toMatchObject({ id: null, isDefault: true, count: 1 });
    await is(guest.post('/shop/wishlist/add', { product: tent.id, qty: 1 }), 200);
    const twice = await is(guest.post('/shop/wishlist/add', { product: tent.id, qty: 1 }), 200);
    expect(twice.body.wishlist.items.map((item: { id: number; qty: number }) => [item.id, item.qty])).toEqual([
      [1, 2],
      [2, 2],
    ]);
    await is(guest.post('/shop/wishlist/add', { product: lantern.id, qty: 1 }), 200);
    // A guest's item id is its position in the list.
    const removed = await is(guest.post('/shop/wishlist/remove-item', { id: 3 }), 200);
    expect(removed.body.count).toBe(2);
    await is(guest.post('/shop/wishlist/remove-item', { id: 3 }), 404);
    // Named lists belong to accounts.
    await is(guest.post('/shop/wishlist/add', { product: tent.id, qty: 1, wishlist: 1 }), 404);
    await guest.get('/shop/account/wishlists').set('Accept', 'application/json').expect(302);

    await is(guest.post('/shop/ajax-authorize', { loginName: email, password: CUSTOMER_PASSWORD }), 200);
    const [list] = await listsOf(id);
    expect((await itemsOf(list.id)).map(({ productId, qty }) => [productId, qty])).toEqual([
      [headlamp.id, 3],
      [tent.id, 2],
    ]);
    // The session list is gone: adding now goes to the account.
    const next = await is(guest.post('/shop/wishlist/add', { product: lantern.id, qty: 1 }), 200);
    expect(next.body.wishlist).toMatchObject({ id: list.id, count: 3 });
  });

  it("saves a cart line for later into the customer's default list", async () => {
    const { client, id } = await customer();
    await addToCart(client, headlamp.id, 2);
    // The cart a logged-in customer opens is theirs.
    const cart = await shop.dataSource.getRepository(Cart).findOneByOrFail({ customerId: id });
    const [line] = await shop.dataSource.getRepository(CartLine).findBy({ cartId: cart.id });
    await is(client.post(`/shop/cart/wishlist-add/${line.id}`, {}), 200);
    const [list] = await listsOf(id);
    expect(list.isDefault).toBe(true);
    expect((await itemsOf(list.id)).map(({ productId, qty }) => [productId, qty])).toEqual([[headlamp.id, 2]]);
    expect((await client.get('/shop/customer/section-load/wishlist-count').expect(200)).body).toMatchObject({
      count: 1,
    });
  });

  it('moves an item to the cart, and leaves it on the list when the cart refuses it', async () => {
    const { client, id } = await customer();
    await is(client.post('/shop/wishlist/add', { product: headlamp.id, qty: 2 }), 200);
    await is(client.post('/shop/wishlist/add', { product: lantern.id, qty: 1 }), 200);
    await is(client.post('/shop/wishlist/add', { product: tee.id, qty: 1 }), 200);
    await is(
      client.post('/shop/wishlist/add', { product: tee.id, qty: 1, configuration: { size: 'M', color: 'red' } }),
      200,
    );
    const [list] = await listsOf(id);
    const [headlampItem, lanternItem, teeItem, redTeeItem] = await itemsOf(list.id);

    const moved = await is(client.post('/shop/account/wishlist-cart-item', { id: headlampItem.id }), 200);
    expect(moved.body).toMatchObject({ success: true, message: `${headlamp.name} was moved to your cart.`, count: 3 });
    const cart = await shop.dataSource.getRepository(Cart).findOneByOrFail({ customerId: id });
    expect(await shop.dataSource.getRepository(CartLine).findBy({ cartId: cart.id })).toEqual([
      expect.objectContaining({ productId: headlamp.id, qty: 2 }),
    ]);
    const items = await client.get('/shop/cart/get-items').expect(200);
    expect(items.text).toContain(headlamp.name);

    const soldOut = await is(client.post('/shop/account/wishlist-cart-item', { id: lanternItem.id }), 409);
    expect(soldOut.body.error).toMatchObject({ code: 'out_of_stock', message: `${lantern.name} is out of stock.` });
    await is(client.post('/shop/account/wishlist-cart-item', { id: redTeeItem.id }), 409);
    // Saved without options: they are chosen on the product page first.
    const options = await is(client.post('/shop/account/wishlist-cart-item', { id: teeItem.id }), 400);
    expect(options.body.error.message).toContain('Choose size and color');
    expect((await itemsOf(list.id)).map((item) => item.id)).toEqual([lanternItem.id, teeItem.id, redTeeItem.id]);
    expect(await shop.dataSource.getRepository(CartLine).countBy({ cartId: cart.id })).toBe(1);

    // A browser form post goes back to the page with the reason.
    const form = await client.submitForm('/shop/account/wishlist-cart-item', { id: String(lanternItem.id) });
    expect(form.status).toBe(303);
    const page = await client.get('/shop/account/wishlists').set('Accept', 'text/html').expect(200);
    expect(page.text).toContain(`${lantern.name} is out of stock.`);
  });

  it('shows a share page with a signed public link; a wrong signature is a 404', async () => {
    const { client } = await customer('Grace');
    await is(client.post('/shop/wishlist/add', { product: tent.id, qty: 1 }), 200);
    const [list] = (await client.get('/shop/account/wishlists').set('Accept', 'application/json')).body.wishlists;
    const share = await client.get(`/shop/account/wishlist-share/${list.id}`).set('Accept', 'application/json');
    expect(share.status).toBe(200);
    expect(share.body.url).toMatch(new RegExp(`/shop/wishlist/shared/${list.id}/[0-9a-f]{32}$`));
    const page = await client.get(`/shop/account/wishlist-share/${list.id}`).set('Accept', 'text/html').expect(200);
    expect(page.text).toContain(`value="${share.body.url}"`);
    expect(page.text).toContain('name="emails"');
    await client.get('/shop/account/wishlist-share/abc').set('Accept', 'text/html').expect(404);

    const path = pagePath(share.body.url);
    const shared = await request(shop.server).get(path).set('Accept', 'text/html').expect(200);
    expect(shared.text).toContain("Grace's wishlist: My wishlist");
    expect(shared.text).toContain(tent.name);
    // Read-only for whoever has the link: the page itself offers no actions (the layout's own forms aside).
    const main = shared.text.slice(shared.text.indexOf('<main'), shared.text.indexOf('</main>'));
    expect(main).toContain(tent.name);
    expect(main).not.toContain('<form');
    expect(shared.headers['x-robots-tag']).toBe('noindex');

    const signature = path.split('/').pop()!;
    const forged = `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`;
    await request(shop.server).get(`/shop/wishlist/shared/${list.id}/${forged}`).expect(404);
    await request(shop.server)
      .get(`/shop/wishlist/shared/${list.id + 1}/${signature}`)
      .expect(404);
    await request(shop.server)
      .get(`/shop/wishlist/shared/${list.id}/${signature.slice(0, 16)}`)
      .expect(404);
    await request(shop.server).get(`/shop/wishlist/shared/x${list.id}/${signature}`).expect(404);
  });

  it('mails the link to up to 10 addresses through the job queue', async () => {
    const { client, email } = await customer('Grace');
    const emptyList = (await client.post('/shop/account/wishlist-update', { name: 'Empty' })).body.wishlist;
    await is(client.post('/shop/account/wishlist-share-post', { id: emptyList.id, emails: 'x@example.com' }), 409);
    await is(client.post('/shop/wishlist/add', { product: tent.id, qty: 1 }), 200);
    const url = (await client.get(`/shop/account/wishlist-share/${emptyList.id}`).set('Accept', 'application/json'))
      .body.url as string;

    const sent = await is(
      client.post('/shop/account/wishlist-share-post', {
        id: emptyList.id,
        emails: 'one@example.com, Two@Example.com\nthree@example.com one@example.com',
        message: 'For the trip!',
      }),
      200,
    );
    expect(sent.body).toEqual({ success: true, message: 'The wishlist was sent to 3 addresses.', sent: 3 });
    const recipients = ['one@example.com', 'two@example.com', 'three@example.com'];
    const mails = await eventually(() => {
      const found = smtp.messages.filter((mail) => recipients.includes(mail.to[0]));
      return found.length === 3 && found;
    });
    for (const mail of mails) {
      const text = mailText(mail);
      expect(subjectOf(mail)).toMatch(/^A wishlist at .+ was shared with you$/);
      expect(text).toMatch(/^Someone with an account at .+ shared a wishlist with you\. Open it here:$/m);
      expect(text).toContain(url);
      // Only the shop's words: the sender's message, name, list name and address stay out.
      for (const theirs of ['For the trip!', 'Grace', 'Empty', email]) expect(readable(mail)).not.toContain(theirs);
      expect(mail.raw).not.toMatch(/^Reply-To:/im);
    }

    const eleven = Array.from({ length: 11 }, (_, index) => `friend${index}@example.com`);
    const tooMany = await is(
      client.post('/shop/account/wishlist-share-post', { id: emptyList.id, emails: eleven }),
      400,
    );
    expect(tooMany.body.error.fields).toEqual({ emails: ['name at most 10 e-mail addresses'] });
    const bad = await is(
      client.post('/shop/account/wishlist-share-post', { id: emptyList.id, emails: 'one@example.com not-an-address' }),
      400,
    );
    expect(bad.body.error.fields).toEqual({ emails: ['must all be e-mail addresses'] });
    await is(client.post('/shop/account/wishlist-share-post', { id: emptyList.id, emails: ' , ' }), 400);
    // Five posts per customer per 15 minutes, refused ones included: the five above used them up.
    const throttled = await is(
      client.post('/shop/account/wishlist-share-post', { id: emptyList.id, emails: 'late@example.com' }),
      429,
    );
    expect(throttled.body.error.code).toBe('too_many_requests');
    // Counted per account: another customer on the same address may still share.
    const other = await customer();
    await is(other.client.post('/shop/wishlist/add', { product: tent.id, qty: 1 }), 200);
    const [otherList] = await listsOf(other.id);
    await is(
      other.client.post('/shop/account/wishlist-share-post', { id: otherList.id, emails: ['pal@example.com'] }),
      200,
    );
    expect(smtp.messages.some((mail) => mail.to.includes('late@example.com'))).toBe(false);
  });

  it("never puts a registrant's own text into a wishlist share e-mail", async () => {
    const lure = 'Your account is locked: confirm your card at evil.example';
    const client = new ShopClient(shop.server);
    const email = await registerCustomer(client, { firstName: 'PayPal Security', lastName: lure.slice(0, 60) });
    await is(client.post('/shop/wishlist/add', { product: tent.id, qty: 1 }), 200);
    const created = await is(client.post('/shop/account/wishlist-update', { name: `Urgent: ${lure}` }), 200);
    const list = created.body.wishlist;
    await is(client.post('/shop/wishlist/add', { product: tent.id, qty: 1, wishlist: list.id }), 200);
    const sent = await is(
      client.post('/shop/account/wishlist-share-post', { id: list.id, emails: 'victim@lure.example', message: lure }),
      200,
    );
    expect(sent.body.sent).toBe(1);

    const mail = await eventually(() => smtp.messages.find((message) => message.to.includes('victim@lure.example')));
    const text = mailText(mail);
    expect(text).toMatch(new RegExp(`/shop/wishlist/shared/${list.id}/[0-9a-f]{32}\\s`));
    for (const theirs of ['evil.example', 'PayPal', 'locked', 'Urgent', email]) {
      expect(readable(mail)).not.toContain(theirs);
    }
  });

  it(`mails at most ${SHARE_RECIPIENTS_PER_HOUR} addresses an hour per session and address, cart shares included`, async () => {
    const ip = '203.0.113.40';
    const { client, id } = await customer('Mallory');
    await is(client.post('/shop/wishlist/add', { product: tent.id, qty: 1 }), 200);
    const [list] = await listsOf(id);
    const share = async (sender: ShopClient, path: string, body: object) =>
      sender.agent
        .post(path)
        .set('X-CSRF-Token', await sender.csrfToken())
        .set('X-Forwarded-For', ip)
        .send(body);
    const friends = (from: number) => Array.from({ length: 10 }, (_, i) => `pal${from + i}@allowance.example`);

    await is(share(client, '/shop/account/wishlist-share-post', { id: list.id, emails: friends(0) }), 200);
    await is(share(client, '/shop/account/wishlist-share-post', { id: list.id, emails: friends(10) }), 200);
    const over = await is(
      share(client, '/shop/account/wishlist-share-post', { id: list.id, emails: friends(20) }),
      429,
    );
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    // A guest sharing a cart from the same address spends from the same allowance.
    const guest = new ShopClient(shop.server);
    await addToCart(guest, tent.id);
    await is(share(guest, '/shop/cart/share-send-emails', { recipients: ['late@allowance.example'] }), 429);

    await eventually(() => smtp.messages.filter((mail) => mail.to[0].endsWith('@allowance.example')).length >= 20);
    await jobsSettled(shop);
    const mailed = smtp.messages.filter((mail) => mail.to[0].endsWith('@allowance.example'));
    expect(mailed).toHaveLength(SHARE_RECIPIENTS_PER_HOUR);
  });

  it('needs a login on account routes and the CSRF token on every write', async () => {
    const guest = new ShopClient(shop.server);
    const page = await guest.get('/shop/account/wishlists').set('Accept', 'text/html').expect(302);
    expect(page.headers.location).toBe('/shop/login?return=%2Fshop%2Faccount%2Fwishlists');
    await guest.get('/shop/account/wishlist-share/1').set('Accept', 'text/html').expect(302);
    for (const path of [
      '/shop/account/wishlist-update',
      '/shop/account/wishlist-remove-item',
      '/shop/account/wishlist-clear',
      '/shop/account/wishlist-cart-item',
      '/shop/account/wishlist-share-post',
    ]) {
      const res = await is(guest.post(path, { id: 1, name: 'x' }), 401);
      expect(res.body.error.code).toBe('login_required');
    }

    const { client } = await customer();
    for (const path of ['/shop/wishlist/add', '/shop/wishlist/remove-item', '/shop/account/wishlist-update']) {
      const res = await client.agent.post(path).send({ product: tent.id, id: 1, name: 'x' }).expect(403);
      expect(res.body.error.code).toBe('csrf_invalid');
    }
  });

  it('answers 404 everywhere while customer accounts are off', async () => {
    const { client } = await customer();
    await is(client.post('/shop/wishlist/add', { product: tent.id, qty: 1 }), 200);
    const settings = shop.app.get(SettingsService);
    await settings.save({ customerAccountsEnabled: false });
    try {
      const guest = new ShopClient(shop.server);
      for (const who of [client, guest]) {
        await is(who.post('/shop/wishlist/add', { product: tent.id, qty: 1 }), 404);
        await is(who.post('/shop/wishlist/remove-item', { id: 1 }), 404);
        await who.get('/shop/account/wishlists').expect(404);
        await is(who.post('/shop/account/wishlist-update', { name: 'x' }), 404);
        await who.get('/shop/account/wishlist-share/1').expect(404);
        await is(who.post('/shop/account/wishlist-share-post', { id: 1, emails: 'a@example.com' }), 404);
        await is(who.post('/shop/account/wishlist-remove-item', { id: 1 }), 404);
        await is(who.post('/shop/account/wishlist-clear', {}), 404);
        await is(who.post('/shop/account/wishlist-cart-item', { id: 1 }), 404);
        await who.get('/shop/wishlist/shared/1/00000000000000000000000000000000').expect(404);
      }
    } finally {
      await settings.save({ customerAccountsEnabled: true });
    }
  });
});
