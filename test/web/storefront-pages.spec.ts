import { join } from 'node:path';
import request from 'supertest';
import { CartLine } from '../../src/commerce/carts/cart-line.entity';
import { ProductVariant } from '../../src/commerce/products/product-variant.entity';
import { Store } from '../../src/commerce/stores/store.entity';
import { formatAmount } from '../../src/common/money-format';
import { SettingsService } from '../../src/config/settings.service';
import { LOCALES_DIR } from '../../src/web/paths';
import { loadTranslations } from '../../src/web/i18n/translations';
import { productBySku } from '../support/catalog';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp } from '../support/test-app';

/** The pages every guest sees alike (home, listing, search, product, product-404). */
const GUEST_PAGES = [
  '/',
  '/shop/catalog/products',
  '/shop/catalog/search-results?q=tent',
  '/shop/p/ridgeline-2-person-tent',
  '/shop/p/no-such-product',
];

/** Intl puts a no-break space (U+00A0, or U+202F for grouping in some locales) where the page shows a space. */
const plainSpaces = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');
/** Handlebars escapes `=` in attribute values; browsers read it back as written. */
const unescaped = (text: string) => text.replace(/&#x3D;/g, '=').replace(/&amp;/g, '&');

describe('storefront pages', () => {
  let shop: TestApp;
  beforeAll(async () => (shop = await startTestApp()));
  afterAll(() => shop.close());

  const guest = (path: string) => request(shop.server).get(path).set('Accept', 'text/html');

  /** The value of the first `_csrf` field of the form whose opening tag matches `form`. */
  const csrfField = (html: string, form: RegExp) => {
    const start = html.search(form);
    expect(start).toBeGreaterThanOrEqual(0);
    return html.slice(start).match(/name="_csrf" value="([^"]*)"/)![1];
  };

  describe('layout contract', () => {
    it.each(GUEST_PAGES)('%s has the header, footer and popup of the shop layout', async (path) => {
      const res = await guest(path);
      expect([200, 404]).toContain(res.status);
      const html = res.text;
      expect(html).toContain('<html lang="en">');
      expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
      expect(html).toContain('<a class="skip-link" href="#content">Skip to content</a>');
      expect(html).toContain('<main id="content"');
      expect(html).toContain(
        '<form role="search" class="site-search" action="/shop/catalog/search-results" method="get">',
      );
      expect(html).toMatch(/<input id="site-search-q" type="search" name="q"/);
      expect(html).toContain('<label for="site-search-q" class="visually-hidden">Search products</label>');
      expect(html).toMatch(
        /<a href="\/shop\/cart" class="mini-cart">Cart <span class="mini-cart-count" data-minicart-count[^>]*><\/span><\/a>/,
      );
      expect(html).toContain('<a href="/shop/account" class="account-link">My account</a>');
      expect(html).toContain('<form class="currency-switch" method="post" action="/shop/currency/set">');
      expect(html).toMatch(
        /<select id="site-currency" name="currency">\s*<option value="EUR" selected>EUR<\/option><option value="CZK">/,
      );
      expect(html).toContain('<label for="site-currency">Currency</label>');
      expect(html).toContain('<form class="language-switch" method="post" action="/shop/language/set">');
      expect(html).toContain('<option value="sk" lang="sk">Slovenčina</option>');
      expect(html).toContain('<form class="newsletter-form" method="post" action="/shop/subscribe"');
      expect(html).toContain('<input id="newsletter-email" type="email" name="email" required');
      expect(html).toContain('<dialog class="cart-popup" id="cart-popup"');
      // Every POST form carries the CSRF field (empty on a guest page: shop.js fills it in).
      const postForms = html.match(/<form[^>]*method="post"[^>]*>[\s\S]*?<\/form>/g)!;
      expect(postForms.length).toBeGreaterThanOrEqual(3);
      for (const form of postForms) expect(form).toContain('name="_csrf"');
    });

    it.each(GUEST_PAGES)('%s runs under the CSP: scripts from files only, no inline styles', async (path) => {
      const res = await guest(path);
      const csp = res.headers['content-security-policy'];
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      // JSON-LD data blocks are never executed, so the CSP does not govern them (docs/shop.md "Search engines").
      const DATA_BLOCK = '<script type="application/ld+json">';
      const scripts = res.text.match(/<script\b[^>]*>/g)!.filter((tag) => tag !== DATA_BLOCK);
      expect(scripts).toContain('<script src="/public/js/shop.js" defer>');
      for (const tag of scripts) expect(tag).toMatch(/ src="\/public\/js\/[\w-]+\.js"/);
      expect(res.text).not.toMatch(/<script\b(?![^>]*application\/ld\+json)[^>]*>[^<]+<\/script>/);
      expect(res.text).not.toMatch(/<style\b|\sstyle="|\son[a-z]+="/i);
    });

    it('loads no resource that 404s: every script, stylesheet, icon and image answers 200', async () => {
      const urls = new Set<string>();
      for (const path of GUEST_PAGES) {
        const html = (await guest(path)).text;
        // On-site links and images are paths, so a page works at whatever host it is opened.
        expect(html).not.toMatch(/src="https?:/);
        for (const [, url] of html.matchAll(/(?:src|href)="(\/public\/[^"]+)"/g)) urls.add(url);
      }
      expect([...urls]).toEqual(
        expect.arrayContaining([
          '/public/js/shop.js',
          '/public/css/shop.css',
          '/public/images/favicon.svg',
          '/public/images/products/ridgeline-2-person-tent.svg',
        ]),
      );
      for (const url of urls) {
        const res = await request(shop.server).get(url);
        expect({ url, status: res.status }).toEqual({ url, status: 200 });
      }
    });

    it('keeps the newsletter form and account link out while customer accounts are off', async () => {
      const settings = shop.app.get(SettingsService);
      await settings.save({ customerAccountsEnabled: false });
      try {
        const html = (await guest('/shop/catalog/products')).text;
        expect(html).not.toContain('newsletter-form');
        expect(html).not.toContain('account-link');
        expect(html).toContain('data-minicart-count');
      } finally {
        await settings.save({ customerAccountsEnabled: true });
      }
    });
  });

  describe('cacheability', () => {
    it.each(GUEST_PAGES)('%s is shared-cacheable for a visitor without a session', async (path) => {
      const res = await guest(path);
      expect(res.headers['cache-control']).toBe('public, max-age=60');
      expect(res.headers.vary).toMatch(/Accept/);
      expect(res.headers.vary).toMatch(/Cookie/);
      expect(res.headers['set-cookie']).toBeUndefined();
      expect(res.text).not.toContain('name="csrf-token"');
      for (const [, value] of res.text.matchAll(/name="_csrf" value="([^"]*)"/g)) expect(value).toBe('');
    });

    it('is personal (no-store, the session token in every form) once the shopper has a session', async () => {
      const client = new ShopClient(shop.server);
      const token = await client.csrfToken();
      for (const path of GUEST_PAGES) {
        const res = await client.get(path).set('Accept', 'text/html');
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.text).toContain(`<meta name="csrf-token" content="${token}">`);
        expect(csrfField(res.text, /<form class="currency-switch"/)).toBe(token);
        expect(csrfField(res.text, /<form class="newsletter-form"/)).toBe(token);
      }
    });

    it('keeps the JSON catalog private to the session (prices follow its currency)', async () => {
      const res = await request(shop.server).get('/shop/catalog/products').set('Accept', 'application/json');
      expect(res.headers['cache-control']).toBe('private, no-cache');
    });

    it('adds to the cart without JavaScript: the form posts, redirects back and the page says so', async () => {
      const client = new ShopClient(shop.server);
      await client.csrfToken();
      const page = await client.get('/shop/p/ridgeline-2-person-tent').set('Accept', 'text/html').expect(200);
      const fields = formFields(page.text, /<form class="add-to-cart product-buy"/);
      const tent = await productBySku(shop.dataSource, 'DEMO-TENT-2P');
      expect(fields).toEqual({ _csrf: expect.stringMatching(/.{20,}/), product: String(tent.id), qty: '1' });

      const posted = await postFromPage(client, '/shop/p/ridgeline-2-person-tent', '/shop/cart/add', {
        ...fields,
        qty: '2',
      }).expect(303);
      expect(posted.headers.location).toBe('/shop/p/ridgeline-2-person-tent');
      const back = await client.get(posted.headers.location).set('Accept', 'text/html').expect(200);
      expect(back.headers['cache-control']).toBe('no-store');
      expect(back.text).toContain('Ridgeline 2-Person Tent was added to your cart.');
      const miniCart = await client.get('/shop/customer/section-load/mini-cart').expect(200);
      expect(miniCart.body).toMatchObject({ success: true, itemCount: 2 });
    });

    it('lets a first-time visitor without JavaScript post again once the refused form has given them a session', async () => {
      const client = new ShopClient(shop.server);
      const cached = await client.get('/shop/p/ridgeline-2-person-tent').set('Accept', 'text/html').expect(200);
      expect(cached.headers['cache-control']).toBe('public, max-age=60');
      const fields = formFields(cached.text, /<form class="add-to-cart product-buy"/);
      expect(fields._csrf).toBe('');

      const refused = await postFromPage(client, '/shop/p/ridgeline-2-person-tent', '/shop/cart/add', fields).expect(
        303,
      );
      const again = await client.get(refused.headers.location).set('Accept', 'text/html').expect(200);
      expect(again.text).toContain('Reload the page and try again.');
      expect(again.headers['cache-control']).toBe('no-store');
      const retry = formFields(again.text, /<form class="add-to-cart product-buy"/);
      expect(retry._csrf).not.toBe('');
      await postFromPage(client, '/shop/p/ridgeline-2-person-tent', '/shop/cart/add', retry).expect(303);
      const miniCart = await client.get('/shop/customer/section-load/mini-cart').expect(200);
      expect(miniCart.body).toMatchObject({ itemCount: 1 });
    });
  });

  describe('translations and prices', () => {
    it('switches the page language with the language switch, prices written the Slovak way', async () => {
      const client = new ShopClient(shop.server);
      const switched = await client.submitForm('/shop/language/set', { language: 'sk' });
      expect(switched.status).toBe(303);
      const page = await client.get('/shop/p/ridgeline-2-person-tent').set('Accept', 'text/html').expect(200);
      expect(page.text).toContain('<html lang="sk">');
      expect(page.text).toContain('Obchod sa teraz zobrazuje po slovensky.');
      expect(page.text).toContain('<label for="site-search-q" class="visually-hidden">Hľadať produkty</label>');
      expect(page.text).toContain('>Do košíka</button>');
      expect(page.text).toContain('<option value="sk" lang="sk" selected>Slovenčina</option>');
      expect(plainSpaces(page.text)).toContain('<p class="price" data-product-price>329,00 €</p>');
      expect(page.text).toContain('<h2 id="related-heading">Podobné produkty</h2>');

      const listing = await client.get('/shop/catalog/products?perPage=5').set('Accept', 'text/html').expect(200);
      expect(listing.text).toContain('<h1>Produkty</h1>');
      expect(listing.text).toContain('<p class="catalog-count">32 produktov</p>');
      expect(listing.text).toContain('Strana 1 z 7');
      // A key missing in Slovak falls back to English (none is missing today: see the parity test below).
      const json = await client.post('/shop/language/set', { language: 'en' });
      expect(json.body).toEqual({ success: true, language: 'en' });
      const english = await client.get('/shop/catalog/products').set('Accept', 'text/html').expect(200);
      expect(english.text).toContain('<h1>Products</h1>');
    });

    it('refuses a language the shop is not translated into with a field error', async () => {
      const client = new ShopClient(shop.server);
      const res = await client.post('/shop/language/set', { language: 'de' });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        success: false,
        error: { code: 'validation_failed', fields: { language: ['must be one of en, sk'] } },
      });
    });

    it('formats prices per currency and language', async () => {
      const client = new ShopClient(shop.server);
      const price = async () => {
        const page = await client.get('/shop/p/ridgeline-2-person-tent').set('Accept', 'text/html').expect(200);
        return plainSpaces(page.text.match(/<p class="price" data-product-price>([^<]+)<\/p>/)![1]);
      };
      expect(await price()).toBe('€329.00');
      await client.post('/shop/currency/set', { currency: 'CZK' }).then((res) => expect(res.status).toBe(200));
      expect(await price()).toBe('CZK 8,323.70');
      await client.post('/shop/currency/set', { currency: 'HUF' }).then((res) => expect(res.status).toBe(200));
      expect(await price()).toBe('HUF 129,955');
      await client.post('/shop/language/set', { language: 'sk' });
      expect(await price()).toBe('129 955 HUF');
      await client.post('/shop/currency/set', { currency: 'CZK' });
      expect(await price()).toBe('8 323,70 CZK');
      // The currency switch shows the session's choice.
      const page = await client.get('/').set('Accept', 'text/html').expect(200);
      expect(page.text).toContain('<option value="CZK" selected>CZK</option>');
      expect(plainSpaces(page.text)).toMatch(/<span class="price">\d[\d ]*,\d\d CZK<\/span>/);
    });

    it('writes a page in the store language when the shopper chose none', async () => {
      await shop.dataSource.getRepository(Store).update({ isDefault: true }, { language: 'sk' });
      // A second instance on the same database reads the store afresh (the first keeps it cached a minute).
      const second = await startTestApp({ place: shop.place });
      try {
        const page = await request(second.server).get('/shop/catalog/products').set('Accept', 'text/html').expect(200);
        expect(page.text).toContain('<html lang="sk">');
        expect(page.text).toContain('<h1>Produkty</h1>');
        expect(page.headers['cache-control']).toBe('public, max-age=60');
        const client = new ShopClient(second.server);
        await client.post('/shop/language/set', { language: 'en' });
        const chosen = await client.get('/shop/catalog/products').set('Accept', 'text/html').expect(200);
        expect(chosen.text).toContain('<html lang="en">');
      } finally {
        await second.close();
        await shop.dataSource.getRepository(Store).update({ isDefault: true }, { language: 'en' });
      }
    });

    it('ships every key in every language, with placeholders, plurals and the English fallback working', () => {
      const strings = loadTranslations(LOCALES_DIR);
      expect(strings.languages).toEqual(['en', 'sk']);
      expect(strings.t('sk', 'catalog.listing.count', { count: 1 })).toBe('1 produkt');
      expect(strings.t('sk', 'catalog.listing.count', { count: 3 })).toBe('3 produkty');
      expect(strings.t('sk', 'catalog.listing.count', { count: 12 })).toBe('12 produktov');
      expect(strings.t('en', 'catalog.listing.count', { count: 1 })).toBe('1 product');
      expect(strings.t('en', 'catalog.search.titleFor', { q: 'tent' })).toBe('Search: tent');
      expect(strings.t('de', 'catalog.listing.title')).toBe('Products');
      expect(strings.t('sk', 'catalog.no.such.key')).toBe('catalog.no.such.key');
      expect(formatAmount(1234.5, { code: 'EUR', decimals: 2 }, 'en')).toBe('€1,234.50');
      expect(plainSpaces(formatAmount(1234.5, { code: 'EUR', decimals: 2 }, 'sk'))).toBe('1 234,50 €');
      for (const area of ['layout', 'catalog', 'common']) {
        const keys = (language: string) => keysOf(require(join(LOCALES_DIR, language, `${area}.json`)));
        expect({ area, keys: keys('sk') }).toEqual({ area, keys: keys('en') });
      }
    });
  });

  describe('catalog pages', () => {
    it('filters the listing by stock and price, keeping the filters in pager links', async () => {
      const res = await guest('/shop/catalog/products?inStock=1&minPrice=20&maxPrice=60&perPage=3').expect(200);
      const html = unescaped(res.text);
      expect(html).toContain('<input id="filter-in-stock" name="inStock" type="checkbox" value="1" checked>');
      expect(html).toContain('value="20"');
      const json = await request(shop.server)
        .get('/shop/catalog/products?inStock=1&minPrice=20&maxPrice=60&perPage=100')
        .set('Accept', 'application/json')
        .expect(200);
      const products = json.body.products as Array<{ price: number; inStock: boolean }>;
      expect(products.length).toBeGreaterThan(0);
      for (const product of products) {
        expect(product.inStock).toBe(true);
        expect(product.price).toBeGreaterThanOrEqual(20);
        expect(product.price).toBeLessThanOrEqual(60);
      }
      expect(html).toContain(`<p class="catalog-count">${products.length} products</p>`);
      if (products.length > 3) {
        expect(html).toContain('href="/shop/catalog/products?inStock=1&minPrice=20&maxPrice=60&perPage=3&page=2"');
      }
      // An empty bound from the form is no bound; out-of-stock products are listed without the filter.
      const all = await request(shop.server)
        .get('/shop/catalog/products?minPrice=&maxPrice=&perPage=100')
        .set('Accept', 'application/json')
        .expect(200);
      expect(all.body.total).toBe(32);
      expect(all.body.products.some((product: { inStock: boolean }) => !product.inStock)).toBe(true);
      await request(shop.server)
        .get('/shop/catalog/products?maxPrice=cheap')
        .set('Accept', 'application/json')
        .expect(400);
    });

    it('renders the product page: gallery, price, stock, add-to-cart form, cross-sell and related', async () => {
      const html = (await guest('/shop/p/ridgeline-2-person-tent').expect(200)).text;
      expect(html).toContain('<h1>Ridgeline 2-Person Tent</h1>');
      expect(html).toMatch(
        /<img src="[^"]+\/ridgeline-2-person-tent\.svg" alt="Ridgeline 2-Person Tent" width="400" height="400" data-gallery-main>/,
      );
      expect(html).toContain('<p class="price" data-product-price>€329.00</p>');
      expect(html).toContain('<span class="stock stock-in">In stock</span>');
      expect(html).toContain('<label for="qty">Quantity</label>');
      expect(html).toMatch(
        /<form class="add-to-cart product-buy" method="post" action="\/shop\/cart\/add" data-ajax-cart>/,
      );
      const crossSell = html.match(/<section class="cross-sell"[\s\S]*?<\/section>/)![0];
      expect(crossSell).toContain('Goes well with');
      expect(crossSell).toContain('Titanium Tent Stakes');
      expect(crossSell).toContain('Firefly LED Lantern');
      const related = html.match(/<section class="related"[\s\S]*?<\/section>/)![0];
      expect(related).toContain('Trail Inflatable Sleeping Mat');
      expect(related).not.toContain('Basecamp 4-Person Tent');
    });

    it('adds a configurable product with its chosen options through the product form', async () => {
      const client = new ShopClient(shop.server);
      await client.csrfToken();
      const page = await client.get('/shop/p/trail-logo-t-shirt').set('Accept', 'text/html').expect(200);
      const variantRows = [...page.text.matchAll(/<tr data-variant="([^"]+)">/g)].map(([, key]) => key);
      expect(variantRows).toHaveLength(6);
      expect(variantRows[0]).toMatch(/^[SML]\|(red|blue)$/);
      const tee = await productBySku(shop.dataSource, 'DEMO-TEE-LOGO');
      const res = await client.submitForm('/shop/cart/add', {
        product: String(tee.id),
        qty: '1',
        'configuration[size]': 'M',
        'configuration[color]': 'blue',
      });
      expect(res.status).toBe(303);
      const [line] = await shop.dataSource.getRepository(CartLine).findBy({ productId: tee.id });
      const variant = await shop.dataSource.getRepository(ProductVariant).findOneByOrFail({ id: line.variantId! });
      expect(variant.options).toEqual({ size: 'M', color: 'blue' });
    });

    it('shows search results with a count, and a hint for an empty query', async () => {
      const found = await guest('/shop/catalog/search-results?q=lantern').expect(200);
      expect(found.text).toContain('<title>Search: lantern · Demo Outdoor &amp; Coffee</title>');
      expect(found.text).toMatch(/<p class="catalog-count">\d+ products? match(es)? “lantern”<\/p>/);
      expect(found.text).toContain('Firefly LED Lantern');
      const none = await guest('/shop/catalog/search-results?q=zzzzqqq').expect(200);
      expect(none.text).toContain('<p class="catalog-count">0 products match “zzzzqqq”</p>');
      expect(none.text).toContain('No products match your search.');
      const empty = await guest('/shop/catalog/search-results').expect(200);
      expect(empty.text).toContain('Search by product name, SKU or a word from the description.');
    });

    it('answers the product-404 with status 404 in the page language', async () => {
      const client = new ShopClient(shop.server);
      await client.post('/shop/language/set', { language: 'sk' });
      const res = await client.get('/shop/p/no-such-product').set('Accept', 'text/html').expect(404);
      expect(res.text).toContain('<h1>Produkt sa nenašiel</h1>');
    });
  });
});

/** The named inputs of the form whose opening tag matches `form`, as a browser would send them. */
function formFields(html: string, form: RegExp): Record<string, string> {
  const start = html.search(form);
  const markup = html.slice(start, html.indexOf('</form>', start));
  return Object.fromEntries(
    [...markup.matchAll(/<input [^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)].map(([, name, value]) => [name, value]),
  );
}

/** A browser form post from `page` on the test app's BASE_URL: its Referer decides where the shop sends it back. */
function postFromPage(client: ShopClient, page: string, action: string, fields: Record<string, string>) {
  return client.agent
    .post(action)
    .type('form')
    .set('Accept', 'text/html')
    .set('Referer', `http://localhost:3000${page}`)
    .send(fields);
}

/** Every key of a translation file, plural entries as one key. */
function keysOf(tree: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(tree)
    .flatMap(([key, value]) =>
      typeof value === 'string' ||
      Object.keys(value as object).every((k) => ['zero', 'one', 'two', 'few', 'many', 'other'].includes(k))
        ? [`${prefix}${key}`]
        : keysOf(value as Record<string, unknown>, `${prefix}${key}.`),
    )
    .sort();
}
