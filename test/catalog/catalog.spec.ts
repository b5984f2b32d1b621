import request from 'supertest';
import { Product } from '../../src/commerce/products/product.entity';
import { Store } from '../../src/commerce/stores/store.entity';
import { SettingsService } from '../../src/config/settings.service';
import { TransactionRunner } from '../../src/database/transaction-runner';
import { runCli } from '../support/cli';
import { ShopClient } from '../support/shop-client';
import { eventually, startTestApp, TestApp } from '../support/test-app';

/** The demo seed: 35 products, of which 3 are hidden (TENT-4P, GRINDER-PRO, MUG-XMAS). */
const VISIBLE = 32;

describe('catalog', () => {
  let shop: TestApp;
  beforeAll(async () => (shop = await startTestApp()));
  afterAll(() => shop.close());

  const json = (path: string) => request(shop.server).get(path).set('Accept', 'application/json');
  const html = (path: string) => request(shop.server).get(path).set('Accept', 'text/html');
  /** Handlebars escapes `=` and `&` in attributes; browsers read them back as written. */
  const unescaped = (text: string) => text.replace(/&#x3D;/g, '=').replace(/&amp;/g, '&');

  describe('listing', () => {
    it('answers JSON in the documented shape, visible and enabled products only', async () => {
      const res = await json('/shop/catalog/products').expect(200);
      expect(Object.keys(res.body).sort()).toEqual(['facets', 'page', 'perPage', 'products', 'success', 'total']);
      expect(res.body).toMatchObject({ success: true, page: 1, perPage: 24, total: VISIBLE });
      expect(res.body.products).toHaveLength(24);
      const tent = (await json('/shop/catalog/products?perPage=100').expect(200)).body.products.find(
        (product: { sku: string }) => product.sku === 'DEMO-TENT-2P',
      );
      expect(tent).toEqual({
        id: expect.any(Number),
        sku: 'DEMO-TENT-2P',
        name: 'Ridgeline 2-Person Tent',
        price: 329,
        reduction: null,
        currency: 'EUR',
        stock: 14,
        inStock: true,
        url: expect.stringMatching(/\/shop\/p\/ridgeline-2-person-tent$/),
        image: expect.stringMatching(/\/public\/images\/products\/ridgeline-2-person-tent\.svg$/),
        configurable: false,
        options: [],
        unitPrice: null,
      });
      const all = (await json('/shop/catalog/products?perPage=100').expect(200)).body.products;
      expect(all.map((product: { sku: string }) => product.sku)).not.toContain('DEMO-TENT-4P');
      const tee = all.find((product: { sku: string }) => product.sku === 'DEMO-TEE-LOGO');
      expect(tee.configurable).toBe(true);
      expect(tee.options).toContainEqual({ code: 'color', label: 'Color', values: ['red', 'blue'] });
    });

    it('renders an HTML page with prices, a sort form and pager links', async () => {
      const res = await html('/shop/catalog/products?perPage=10&page=2&sort=price_asc').expect(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers.vary).toMatch(/Accept/);
      expect(res.text).toContain('<h1>Products</h1>');
      expect(res.text).toContain('<option value="price_asc" selected>');
      expect(res.text).toContain('Page 2 of 4');
      expect(unescaped(res.text)).toContain('href="/shop/catalog/products?sort=price_asc&perPage=10&page=1"');
      expect(unescaped(res.text)).toContain('href="/shop/catalog/products?sort=price_asc&perPage=10&page=3"');
      expect(res.text).toMatch(/€\d+\.\d\d/);
      expect(res.text).toContain('<meta name="viewport"');
    });

    it('pages and sorts: by name, by price both ways and newest first', async () => {
      const page = (query: string) =>
        json(`/shop/catalog/products?${query}`)
          .expect(200)
          .then((res) => res.body);
      const byName = await page('perPage=100');
      const names = byName.products.map((product: { name: string }) => product.name);
      expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));

      const ascending = (await page('perPage=100&sort=price_asc')).products.map((p: { price: number }) => p.price);
      expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
      const descending = (await page('perPage=100&sort=price_desc')).products.map((p: { price: number }) => p.price);
      expect(descending).toEqual([...ascending].reverse());
      const newest = (await page('perPage=100&sort=newest')).products.map((p: { id: number }) => p.id);
      expect(newest).toEqual([...newest].sort((a, b) => b - a));

      const first = await page('perPage=10&page=1');
      const second = await page('perPage=10&page=2');
      const last = await page('perPage=10&page=4');
      expect(first.products).toHaveLength(10);
      expect(last.products).toHaveLength(2);
      const ids = [...first.products, ...second.products].map((product: { id: number }) => product.id);
      expect(new Set(ids).size).toBe(20);
      expect(await page('perPage=10&page=9')).toMatchObject({ products: [], page: 9, total: VISIBLE });
    });

    it('caps perPage at 100 and refuses bad paging and sort values with field errors', async () => {
      expect((await json('/shop/catalog/products?perPage=500').expect(200)).body.perPage).toBe(100);
      for (const [query, field] of [
        ['page=0', 'page'],
        ['page=1.5', 'page'],
        ['perPage=x', 'perPage'],
        ['perPage=0', 'perPage'],
        ['sort=cheapest', 'sort'],
      ]) {
        const res = await json(`/shop/catalog/products?${query}`).expect(400);
        expect(res.body).toMatchObject({ success: false, error: { code: 'validation_failed' } });
        expect(Object.keys(res.body.error.fields)).toEqual([field]);
      }
      await html('/shop/catalog/products?sort=cheapest').expect(400);
    });

    it('shows prices in the currency chosen in the session', async () => {
      const client = new ShopClient(shop.server);
      await client.post('/shop/currency/set', { currency: 'CZK' }).then((res) => expect(res.status).toBe(200));
      const res = await client.get('/shop/catalog/products?perPage=100').set('Accept', 'application/json').expect(200);
      const tent = res.body.products.find((product: { sku: string }) => product.sku === 'DEMO-TENT-2P');
      expect(tent).toMatchObject({ currency: 'CZK', price: 8323.7 });
      const page = await client.get('/shop/p/ridgeline-2-person-tent').set('Accept', 'text/html').expect(200);
      expect(page.text).toContain('CZK');
    });
  });

  describe('language aliases', () => {
    it('serves the listing at the default aliases, keeping the alias in pager links', async () => {
      for (const alias of ['/products', '/produkty', '/produkte', '/termekek']) {
        const res = await json(`${alias}?perPage=5&sort=price_desc`).expect(200);
        expect(res.body).toMatchObject({ success: true, perPage: 5, total: VISIBLE });
      }
      const page = await html('/produkty?perPage=10').expect(200);
      expect(unescaped(page.text)).toContain('href="/produkty?perPage=10&page=2"');
      await json('/produkty?page=0').expect(400);
    });

    it('follows a changed catalogAliases setting without a restart; other paths are 404', async () => {
      await json('/katalog').expect(404);
      const settings = shop.app.get(SettingsService);
      await settings.save({ catalogAliases: ['/katalog', '/products'] });
      try {
        await json('/katalog').expect(200);
        await json('/produkty').expect(404, {
          success: false,
          error: { code: 'not_found', message: 'Cannot GET /produkty' },
        });
        // The same from outside the process: the CLI writes, the running app picks it up.
        await runCli(shop.place, 'settings:set', 'catalogAliases', '["/sortiment"]');
        await eventually(async () => (await json('/sortiment')).status === 200);
        await json('/katalog').expect(404);
      } finally {
        await settings.save({ catalogAliases: ['/products', '/produkty', '/produkte', '/termekek'] });
      }
      await json('/shop/not-an-alias').expect(404);
      await request(shop.server).post('/produkty').send({}).expect(404);
    });
  });

  describe('product pages', () => {
    it('renders a product with price, stock, description, images and visible related products', async () => {
      const res = await html('/shop/p/ridgeline-2-person-tent').expect(200);
      expect(res.text).toContain('<h1>Ridgeline 2-Person Tent</h1>');
      expect(res.text).toContain('€329.00');
      expect(res.text).toContain('In stock');
      expect(res.text).toContain('full-coverage rainfly');
      expect(res.text).toContain('/public/images/products/ridgeline-2-person-tent.svg');
      expect(res.text).toContain('Related products');
      expect(res.text).toContain('Trail Inflatable Sleeping Mat');
      // DEMO-TENT-4P is related but hidden.
      expect(res.text).not.toContain('Basecamp 4-Person Tent');
    });

    it('shows the options and variants of a configurable product, as HTML and JSON', async () => {
      const page = await html('/shop/p/trail-logo-t-shirt').expect(200);
      // Each option is a labelled select of the add-to-cart form, named like the cart's `configuration`.
      const select = (code: string) =>
        page.text.match(new RegExp(`<select id="option-${code}"[^>]*>([\\s\\S]*?)</select>`));
      expect(page.text).toContain('<label for="option-size">Size</label>');
      expect(select('size')![0]).toContain('name="configuration[size]" required');
      expect([...select('size')![1].matchAll(/<option value="(\w+)">/g)].map((m) => m[1])).toEqual(['S', 'M', 'L']);
      expect(page.text).toContain('<label for="option-color">Color</label>');
      expect([...select('color')![1].matchAll(/<option value="(\w+)">/g)].map((m) => m[1])).toEqual(['red', 'blue']);
      const res = await json('/shop/p/trail-logo-t-shirt').expect(200);
      expect(res.body.success).toBe(true);
      const { product } = res.body;
      expect(product).toMatchObject({ sku: 'DEMO-TEE-LOGO', configurable: true, currency: 'EUR' });
      expect(product.description).toContain('organic cotton');
      expect(product.images[0]).toMatch(/^https?:\/\/.+\.svg$/);
      expect(product.variants).toHaveLength(6);
      expect(product.variants[0]).toEqual({
        sku: expect.any(String),
        options: expect.any(Object),
        price: expect.any(Number),
        reduction: null,
        stock: expect.any(Number),
        inStock: expect.any(Boolean),
        unitPrice: null,
      });
      expect(product.stock).toBe(product.variants.reduce((sum: number, v: { stock: number }) => sum + v.stock, 0));
    });

    it('answers the product-404 page with status 404, as HTML and as JSON', async () => {
      const page = await html('/shop/catalog/product-404').expect(404);
      expect(page.text).toContain('Product not found');
      const body = await json('/shop/catalog/product-404').expect(404);
      expect(body.body).toEqual({ success: false, error: { code: 'product_not_found', message: 'Product not found' } });

      const unknown = await html('/shop/p/no-such-product').expect(404);
      expect(unknown.text).toContain('Product not found');
      expect(unknown.headers.location).toBeUndefined();
      await json('/shop/p/no-such-product').expect(404);
    });

    it('renders the product-404 for a disabled product and for a product of another store', async () => {
      const runner = shop.app.get(TransactionRunner);
      const [disabled, foreign] = await runner.run(async ({ manager }) => {
        const store = await manager.save(Store, {
          handle: 'other-store',
          name: 'Other store',
          language: 'de',
          baseCurrency: 'EUR',
          country: 'AT',
          isDefault: false,
        });
        const base = { description: 'x', price: 1000, stock: 5, images: [], options: [] };
        return Promise.all([
          manager.save(Product, {
            ...base,
            storeId: 1,
            sku: 'T-DISABLED',
            slug: 't-disabled',
            name: 'Switched Off Lamp',
            enabled: false,
          }),
          manager.save(Product, {
            ...base,
            storeId: store.id,
            sku: 'T-FOREIGN',
            slug: 't-foreign',
            name: 'Foreign Lamp',
          }),
        ]);
      });
      for (const product of [disabled, foreign]) {
        const page = await html(`/shop/p/${product.slug}`).expect(404);
        expect(page.text).toContain('Product not found');
        await json(`/shop/p/${product.slug}`).expect(404);
      }
      const listed = (await json('/shop/catalog/products?perPage=100').expect(200)).body;
      expect(listed.total).toBe(VISIBLE);
      const found = (await json('/shop/catalog/search-results?q=lamp').expect(200)).body;
      expect(found.products).toEqual([]);
    });

    it('sells a hidden product by its URL but never lists, finds or suggests it', async () => {
      const page = await json('/shop/p/basecamp-4-person-tent').expect(200);
      expect(page.body.product).toMatchObject({ sku: 'DEMO-TENT-4P', name: 'Basecamp 4-Person Tent' });
      await html('/shop/p/basecamp-4-person-tent').expect(200);

      const all = (await json('/shop/catalog/products?perPage=100').expect(200)).body.products;
      expect(all.map((product: { sku: string }) => product.sku)).not.toContain('DEMO-TENT-4P');
      const search = (await json('/shop/catalog/search-results?q=basecamp').expect(200)).body;
      expect(search).toMatchObject({ products: [], total: 0 });
      const tent = (await json('/shop/p/ridgeline-2-person-tent').expect(200)).body.product;
      const related = await html('/shop/p/ridgeline-2-person-tent').expect(200);
      expect(tent.sku).toBe('DEMO-TENT-2P');
      expect(related.text).not.toContain('/shop/p/basecamp-4-person-tent');
    });
  });

  describe('search', () => {
    it('finds by name, SKU and description, best match first, in the listing shape', async () => {
      const res = await json('/shop/catalog/search-results?q=grinder').expect(200);
      expect(Object.keys(res.body).sort()).toEqual([
        'didYouMean',
        'facets',
        'page',
        'perPage',
        'products',
        'success',
        'total',
      ]);
      expect(res.body.didYouMean).toBeNull();
      const skus = res.body.products.map((product: { sku: string }) => product.sku);
      // Name hits come first; the hidden Barista Pro grinder is never found.
      expect(skus[0]).toBe('DEMO-GRINDER-HAND');
      expect(skus).not.toContain('DEMO-GRINDER-PRO');

      const bySku = await json('/shop/catalog/search-results?q=DEMO-STAKES-TI').expect(200);
      expect(bySku.body.products[0].sku).toBe('DEMO-STAKES-TI');
      const byDescription = await json('/shop/catalog/search-results?q=rainfly').expect(200);
      expect(byDescription.body.products.map((product: { sku: string }) => product.sku)).toEqual(['DEMO-TENT-2P']);
    });

    it('ranks a name match before a description-only match', async () => {
      const runner = shop.app.get(TransactionRunner);
      await runner.run(({ manager }) =>
        manager.save(Product, [
          {
            storeId: 1,
            sku: 'T-ZEPHYR-DESC',
            slug: 't-zephyr-desc',
            name: 'Aaron Windbreaker',
            description: 'Cut like the zephyr jacket, light as a zephyr breeze, zephyr zephyr.',
            price: 5000,
            stock: 3,
            images: [],
            options: [],
          },
          {
            storeId: 1,
            sku: 'T-ZEPHYR-NAME',
            slug: 't-zephyr-name',
            name: 'Zephyr Jacket',
            description: 'A light shell for windy ridges.',
            price: 9000,
            stock: 3,
            images: [],
            options: [],
          },
        ]),
      );
      const res = await json('/shop/catalog/search-results?q=zephyr').expect(200);
      expect(res.body.products.map((product: { sku: string }) => product.sku)).toEqual([
        'T-ZEPHYR-NAME',
        'T-ZEPHYR-DESC',
      ]);
      expect(res.body.total).toBe(2);
    });

    it('ignores diacritics, matches prefixes and needs every word', async () => {
      const cafe = await json('/shop/catalog/search-results?q=cafe').expect(200);
      const skus = cafe.body.products.map((product: { sku: string }) => product.sku).sort();
      expect(skus).toEqual(['DEMO-BEANS-HOUSE', 'DEMO-FILTER-PAPER']);
      const accented = await json(`/shop/catalog/search-results?q=${encodeURIComponent('Café')}`).expect(200);
      expect(accented.body.total).toBe(2);
      const creme = await json('/shop/catalog/search-results?q=creme').expect(200);
      expect(creme.body.products[0].sku).toBe('DEMO-THERMOS-CREME');

      const prefix = await json('/shop/catalog/search-results?q=headl').expect(200);
      expect(prefix.body.products.map((product: { sku: string }) => product.sku)).toEqual(['DEMO-HEADLAMP']);
      const both = await json('/shop/catalog/search-results?q=titanium%20pot').expect(200);
      expect(both.body.products.map((product: { sku: string }) => product.sku)).toEqual(['DEMO-POT-TI']);
    });

    it('treats search syntax as plain words, pages results and renders HTML', async () => {
      for (const q of [
        '"',
        'tent*',
        'name:tent',
        'tent OR NOT',
        '(tent',
        "tent' --",
        'NEAR(tent mat)',
        '+-~<>@',
        '\u0301',
        '🙂 tent',
        '日本',
      ]) {
        const res = await json(`/shop/catalog/search-results?q=${encodeURIComponent(q)}`);
        expect(res.status).toBe(200);
      }
      const tents = await json('/shop/catalog/search-results?q=tent&perPage=1&page=2').expect(200);
      expect(tents.body).toMatchObject({ page: 2, perPage: 1 });
      expect(tents.body.total).toBeGreaterThanOrEqual(2);
      expect(tents.body.products).toHaveLength(1);

      const page = await html('/shop/catalog/search-results?q=lantern').expect(200);
      expect(page.text).toContain('Firefly LED Lantern');
      expect(page.text).toContain('value="lantern"');
    });

    it('answers an empty query with an empty page and a too long one with 400', async () => {
      await json('/shop/catalog/search-results').expect(200, {
        success: true,
        products: [],
        page: 1,
        perPage: 24,
        total: 0,
        didYouMean: null,
        facets: [],
      });
      await json('/shop/catalog/search-results?q=%20%20').expect(200);
      await html('/shop/catalog/search-results?q=').expect(200);
      const long = await json(`/shop/catalog/search-results?q=${'a'.repeat(201)}`).expect(400);
      expect(Object.keys(long.body.error.fields)).toEqual(['q']);
      await json(`/shop/catalog/search-results?q=${'a'.repeat(200)}`).expect(200);
    });
  });
});
