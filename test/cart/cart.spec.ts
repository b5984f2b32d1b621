import { CartLine } from '../../src/commerce/carts/cart-line.entity';
import { Product } from '../../src/commerce/products/product.entity';
import { SettingsService } from '../../src/config/settings.service';
import { TransactionRunner } from '../../src/database/transaction-runner';
import { productBySku, variantBySku } from '../support/catalog';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp } from '../support/test-app';

const AJAX = { 'X-Requested-With': 'XMLHttpRequest' };

describe('cart', () => {
  let shop: TestApp;
  let tent: Product; // 329.00, simple
  let tee: Product; // configurable: size, color
  beforeAll(async () => {
    shop = await startTestApp();
    tent = await productBySku(shop.dataSource, 'DEMO-TENT-2P');
    tee = await productBySku(shop.dataSource, 'DEMO-TEE-LOGO');
  });
  afterAll(() => shop.close());

  async function ajaxAdd(client: ShopClient, body: object) {
    const token = await client.csrfToken();
    return client.agent.post('/shop/cart/add').set('X-CSRF-Token', token).set(AJAX).send(body);
  }

  describe('add', () => {
    it('answers AJAX adds with the product added', async () => {
      const client = new ShopClient(shop.server);
      const res = await ajaxAdd(client, { product: tent.id, qty: 2 });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        message: 'Ridgeline 2-Person Tent was added to your cart.',
        showPopup: true,
        product: {
          id: tent.id,
          name: 'Ridgeline 2-Person Tent',
          sku: 'DEMO-TENT-2P',
          qty: 2,
          price: 329,
          value: 658,
          image: expect.stringMatching(/^http:\/\/localhost:3000\/public\/images\/products\/.+\.svg$/),
          url: 'http://localhost:3000/shop/p/ridgeline-2-person-tent',
        },
      });
    });

    it('redirects back with a flash message when not in AJAX mode', async () => {
      const client = new ShopClient(shop.server);
      const form = await client.submitForm('/shop/cart/add', { product: String(tent.id), qty: '1' });
      expect(form.status).toBe(303);
      expect(form.headers.location).toBe('/shop/cart');
      const page = await client.get('/shop/cart').set('Accept', 'text/html').expect(200);
      expect(page.text).toContain('Ridgeline 2-Person Tent was added to your cart.');

      // AJAX header but the AJAX setting off: the non-AJAX answer.
      await shop.app.get(SettingsService).save({ salesCheckoutEnableAjax: false });
      try {
        const res = await ajaxAdd(client, { product: tent.id, qty: 1 });
        expect(res.status).toBe(303);
      } finally {
        await shop.app.get(SettingsService).save({ salesCheckoutEnableAjax: true });
      }
    });

    it('merges the same product, configuration and custom data into one line', async () => {
      const client = new ShopClient(shop.server);
      const print = { print: 'ADA', size: 2 };
      await ajaxAdd(client, { product: tee.id, qty: 1, configuration: { size: 'M', color: 'blue' }, custom: print });
      // Same configuration and custom data in another key order: still the same line.
      await ajaxAdd(client, {
        product: tee.id,
        qty: 1,
        configuration: { color: 'blue', size: 'M' },
        custom: { size: 2, print: 'ADA' },
      });
      await ajaxAdd(client, { product: tee.id, qty: 1, configuration: { size: 'M', color: 'blue' } });
      const summary = (await client.post('/shop/currency/set', { currency: 'EUR' })).body.cart;
      const variant = await variantBySku(shop.dataSource, 'DEMO-TEE-LOGO-M-BLUE');
      expect(summary.items).toEqual([
        expect.objectContaining({
          sku: variant.sku,
          qty: 2,
          custom: print,
          configuration: { size: 'M', color: 'blue' },
        }),
        expect.objectContaining({ sku: variant.sku, qty: 1, custom: null }),
      ]);
    });

    it.each([
      ['missing qty', { qty: undefined }, 'qty'],
      ['negative qty', { qty: -1 }, 'qty'],
      ['zero qty', { qty: 0 }, 'qty'],
      ['non-integer qty', { qty: 1.5 }, 'qty'],
      ['text qty', { qty: 'two' }, 'qty'],
      ['missing product', { product: undefined }, 'product'],
      ['text product', { product: 'tent' }, 'product'],
    ])('rejects %s with 400 naming the field', async (_, change, field) => {
      const client = new ShopClient(shop.server);
      const res = await ajaxAdd(client, { product: tent.id, qty: 1, ...change });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
      expect(Object.keys(res.body.error.fields)).toEqual([field]);
    });

    it('answers 404 for an unknown, hidden or disabled product', async () => {
      const client = new ShopClient(shop.server);
      const hidden = await productBySku(shop.dataSource, 'DEMO-TENT-4P');
      const disabled = await productBySku(shop.dataSource, 'DEMO-PILLOW-CAMP');
      await shop.app
        .get(TransactionRunner)
        .run(({ manager }) => manager.update(Product, { id: disabled.id }, { enabled: false }));
      for (const id of [999_999, hidden.id, disabled.id]) {
        const res = await ajaxAdd(client, { product: id, qty: 1 });
        expect(res.status).toBe(404);
        expect(res.body.error).toEqual({ code: 'product_unavailable', message: 'This product is not available.' });
      }
    });

    it('requires every option of a configurable product, naming the missing one', async () => {
      const client = new ShopClient(shop.server);
      const missing = await ajaxAdd(client, { product: tee.id, qty: 1, configuration: { size: 'M' } });
      expect(missing.status).toBe(400);
      expect(missing.body.error.fields).toEqual({ 'configuration[color]': ['Choose a Color'] });
      expect(missing.body.error.message).toContain('color');
      const wrong = await ajaxAdd(client, { product: tee.id, qty: 1, configuration: { size: 'XXL', color: 'red' } });
      expect(wrong.status).toBe(400);
      expect(wrong.body.error.fields['configuration[size]']).toEqual(['must be one of S, M, L']);
      const none = await ajaxAdd(client, { product: tee.id, qty: 1 });
      expect(Object.keys(none.body.error.fields).sort()).toEqual(['configuration[color]', 'configuration[size]']);
    });

    it('refuses more than the stock with 409 and the available quantity', async () => {
      const client = new ShopClient(shop.server);
      const bottle = await productBySku(shop.dataSource, 'DEMO-BOTTLE-STEEL');
      await ajaxAdd(client, { product: bottle.id, qty: bottle.stock - 1 });
      const res = await ajaxAdd(client, { product: bottle.id, qty: 2 });
      expect(res.status).toBe(409);
      expect(res.body.error).toMatchObject({ code: 'out_of_stock', available: bottle.stock });
      const soldOut = await productBySku(shop.dataSource, 'DEMO-LANTERN-LED');
      const none = await ajaxAdd(client, { product: soldOut.id, qty: 1 });
      expect(none.status).toBe(409);
      expect(none.body.error).toMatchObject({ message: 'Firefly LED Lantern is out of stock.', available: 0 });
      const outVariant = await ajaxAdd(client, { product: tee.id, qty: 1, configuration: { size: 'M', color: 'red' } });
      expect(outVariant.status).toBe(409);
    });
  });

  describe('update-item, remove-item, clear', () => {
    it('changes quantities, removes at qty 0, and never touches another cart', async () => {
      const alice = new ShopClient(shop.server);
      const bob = new ShopClient(shop.server);
      await ajaxAdd(alice, { product: tent.id, qty: 1 });
      const candle = await productBySku(shop.dataSource, 'DEMO-CANDLE-PINE');
      await ajaxAdd(bob, { product: candle.id, qty: 1 });
      const bobsLine = await shop.dataSource.getRepository(CartLine).findOneByOrFail({ productId: candle.id });

      const updated = await alice.post('/shop/cart/update-item', { id: await lineId(alice), qty: 3 });
      expect(updated.status).toBe(200);
      expect(updated.body.cart).toMatchObject({ itemCount: 3, subtotal: 987, total: 987, tax: 164.5, currency: 'EUR' });

      for (const attempt of [
        alice.post('/shop/cart/update-item', { id: bobsLine.id, qty: 5 }),
        alice.post(`/shop/cart/remove-item/${bobsLine.id}`),
      ]) {
        const res = await attempt;
        expect(res.status).toBe(404);
        expect(res.body.error.message).toBe('That item is not in your cart.');
      }
      expect((await shop.dataSource.getRepository(CartLine).findOneByOrFail({ id: bobsLine.id })).qty).toBe(1);

      expect((await alice.post('/shop/cart/update-item', { id: await lineId(alice), qty: -1 })).status).toBe(400);
      expect((await alice.post('/shop/cart/update-item', { id: await lineId(alice), qty: 1000 })).status).toBe(409);
      const removed = await alice.post('/shop/cart/update-item', { id: await lineId(alice), qty: 0 });
      expect(removed.body.cart.items).toEqual([]);

      await ajaxAdd(alice, { product: tent.id, qty: 1 });
      const byPath = await alice.post(`/shop/cart/remove-item/${await lineId(alice)}`);
      expect(byPath.body).toMatchObject({ success: true, message: 'The item was removed.', cart: { itemCount: 0 } });
      expect((await alice.post('/shop/cart/remove-item/abc')).status).toBe(400);

      await ajaxAdd(alice, { product: tent.id, qty: 1 });
      await ajaxAdd(alice, { product: candle.id, qty: 2 });
      const cleared = await alice.post('/shop/cart/clear');
      expect(cleared.body).toMatchObject({ success: true, cart: { items: [], itemCount: 0, total: 0 } });
    });

    it('answers a form post with a redirect back', async () => {
      const client = new ShopClient(shop.server);
      await ajaxAdd(client, { product: tent.id, qty: 1 });
      const res = await client.submitForm('/shop/cart/update-item', { id: String(await lineId(client)), qty: '2' });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('/shop/cart');
    });
  });

  describe('fragments', () => {
    it('renders items and totals, caches them per cart, and drops the cache on any change', async () => {
      const client = new ShopClient(shop.server);
      await ajaxAdd(client, { product: tent.id, qty: 1 });
      const first = await client.get('/shop/cart/get-items').expect(200);
      expect(first.headers['content-type']).toMatch(/text\/html/);
      expect(first.headers['x-cache']).toBe('miss');
      expect(first.text).toContain('Ridgeline 2-Person Tent');
      expect((await client.get('/shop/cart/get-items')).headers['x-cache']).toBe('hit');
      expect((await client.get('/shop/cart/get-items?force-reload=1')).headers['x-cache']).toBe('miss');

      const totals = await client.get('/shop/cart/get-totals').expect(200);
      expect(totals.text).toContain('€329.00');
      expect((await client.get('/shop/cart/get-totals')).headers['x-cache']).toBe('hit');

      await client.post('/shop/cart/update-item', { id: await lineId(client), qty: 2 });
      const after = await client.get('/shop/cart/get-totals');
      expect(after.headers['x-cache']).toBe('miss');
      expect(after.text).toContain('€658.00');
      expect((await client.get('/shop/cart/get-items')).text).toContain('× 2');
    });

    it('selects the store view and rejects an unknown one', async () => {
      const client = new ShopClient(shop.server);
      await client.get('/shop/cart/get-items?store=default').expect(200);
      const res = await client.get('/shop/cart/get-items?store=nowhere').expect(400);
      expect(res.body.error.fields).toEqual({ store: ['is not a store view of this shop'] });
      await client.get('/shop/cart/get-items?force-reload=yes').expect(400);
    });

    it('renders an empty cart without creating one', async () => {
      const client = new ShopClient(shop.server);
      const res = await client.get('/shop/cart/get-items').expect(200);
      expect(res.text).toContain('Your cart is empty.');
    });
  });

  describe('suggestions', () => {
    it('suggests visible cross-sells and related products of the cart, honouring name, exclude and limit', async () => {
      const client = new ShopClient(shop.server);
      expect((await client.get('/shop/cart/get-cross-items').expect(200)).body).toEqual({
        success: true,
        products: [],
      });
      const espresso = await productBySku(shop.dataSource, 'DEMO-ESPRESSO-LEVER');
      await ajaxAdd(client, { product: espresso.id, qty: 1 });
      await ajaxAdd(client, { product: tent.id, qty: 1 });

      const cross = (await client.get('/shop/cart/get-cross-items').expect(200)).body.products;
      const related = (await client.get('/shop/cart/get-related-items').expect(200)).body.products;
      const hiddenSkus = ['DEMO-TENT-4P', 'DEMO-GRINDER-PRO', 'DEMO-MUG-XMAS'];
      for (const list of [cross, related]) {
        expect(list.length).toBeGreaterThan(0);
        expect(list.map((item: { sku: string }) => item.sku)).not.toEqual(expect.arrayContaining([hiddenSkus[0]]));
        for (const item of list) {
          expect(hiddenSkus).not.toContain(item.sku);
          expect([espresso.id, tent.id]).not.toContain(item.id);
          expect(item).toMatchObject({ currency: 'EUR', url: expect.stringContaining('/shop/p/') });
        }
      }
      expect(related.length).toBeLessThanOrEqual(4);
      const one = (await client.get('/shop/cart/get-related-items?limit=1').expect(200)).body.products;
      expect(one).toHaveLength(1);
      const excluded = (await client.get(`/shop/cart/get-related-items?exclude=${one[0].id}&limit=60`).expect(200)).body
        .products;
      expect(excluded.map((item: { id: number }) => item.id)).not.toContain(one[0].id);
      expect(excluded.length).toBeLessThanOrEqual(50);
      const word = one[0].name.split(' ')[0];
      const named = (await client.get(`/shop/cart/get-related-items?name=${encodeURIComponent(word.toLowerCase())}`))
        .body.products;
      expect(named.every((item: { name: string }) => item.name.toLowerCase().includes(word.toLowerCase()))).toBe(true);
      await client.get('/shop/cart/get-related-items?limit=0').expect(400);
      await client.get('/shop/cart/get-related-items?exclude=-3').expect(400);
    });
  });

  describe('currency', () => {
    it('switches the cart to another currency with converted, per-currency rounded prices', async () => {
      const client = new ShopClient(shop.server);
      await ajaxAdd(client, { product: tent.id, qty: 2 });
      const czk = await client.post('/shop/currency/set', { currency: 'CZK' });
      expect(czk.status).toBe(200);
      // 329.00 EUR × 25.3 = 8,323.70 CZK a unit
      expect(czk.body.cart).toMatchObject({ currency: 'CZK', subtotal: 16647.4, total: 16647.4 });
      expect(czk.body.cart.items[0]).toMatchObject({ price: 8323.7, total: 16647.4 });
      const huf = await client.post('/shop/currency/set', { currency: 'huf' });
      expect(huf.body.cart).toMatchObject({ currency: 'HUF', subtotal: 259910 }); // 129,955 Ft a unit
      expect((await client.get('/shop/cart/get-totals')).text).toContain('HUF');
      const bad = await client.post('/shop/currency/set', { currency: 'GBP' });
      expect(bad.status).toBe(400);
      expect(bad.body.error.fields.currency[0]).toContain('EUR');
      expect((await client.post('/shop/currency/set', { currency: 'EURO' })).status).toBe(400);
    });
  });

  describe('wishlist', () => {
    it("moves a line to the guest's session wishlist", async () => {
      const client = new ShopClient(shop.server);
      await ajaxAdd(client, { product: tent.id, qty: 1 });
      const id = await lineId(client);
      const res = await client.post(`/shop/cart/wishlist-add/${id}`);
      expect(res.body).toMatchObject({ success: true, message: 'Moved to your wishlist.', cart: { items: [] } });
      expect((await client.post(`/shop/cart/wishlist-add/${id}`)).status).toBe(404);
      await ajaxAdd(client, { product: tent.id, qty: 1 });
      expect((await client.post(`/shop/cart/wishlist-add/${await lineId(client)}`, { wishlist: 7 })).status).toBe(404);
    });

    it('offers no wishlist and keeps the line while customer accounts are off', async () => {
      const client = new ShopClient(shop.server);
      await ajaxAdd(client, { product: tent.id, qty: 1 });
      const id = await lineId(client);
      const settings = shop.app.get(SettingsService);
      expect((await client.get('/shop/cart').set('Accept', 'text/html')).text).toContain(
        `action="/shop/cart/wishlist-add/${id}"`,
      );
      await settings.save({ customerAccountsEnabled: false });
      try {
        const page = await client.get('/shop/cart').set('Accept', 'text/html').expect(200);
        expect(page.text).toContain(`action="/shop/cart/remove-item/${id}"`);
        expect(page.text).not.toContain('/shop/cart/wishlist-add/');
        expect((await client.post(`/shop/cart/wishlist-add/${id}`)).status).toBe(404);
        expect(await lineId(client)).toBe(id);
      } finally {
        await settings.save({ customerAccountsEnabled: true });
      }
    });
  });

  async function lineId(client: ShopClient): Promise<number> {
    const res = await client.post('/shop/currency/set', { currency: 'EUR' });
    return res.body.cart.items[0].id;
  }
});
