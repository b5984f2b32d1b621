import { Global, Module } from '@nestjs/common';
import request from 'supertest';
import { In } from 'typeorm';
import { IsNull } from 'typeorm';
import { AttributeValue } from '../../src/commerce/attributes/attribute-value.entity';
import { Attribute } from '../../src/commerce/attributes/attribute.entity';
import { ProductAttributeValue } from '../../src/commerce/attributes/product-attribute-value.entity';
import { Category } from '../../src/commerce/categories/category.entity';
import { ProductCategory } from '../../src/commerce/categories/product-category.entity';
import { CONTENT_PAGE_SLUGS } from '../../src/commerce/content/content-page-slugs';
import { Product } from '../../src/commerce/products/product.entity';
import { SITEMAP_PAGE_SIZE } from '../../src/commerce/seo/sitemap.service';
import { productBySku, withoutDemoAttributes, withoutDemoCategories } from '../support/catalog';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp } from '../support/test-app';

/** Small sitemap pages, so the demo catalog's 35 products need several. */
const PAGE_SIZE = 4;

@Global()
@Module({ providers: [{ provide: SITEMAP_PAGE_SIZE, useValue: PAGE_SIZE }], exports: [SITEMAP_PAGE_SIZE] })
class SmallSitemapPages {}

/** The `<loc>`s and whether each has a `<lastmod>`, of a sitemap or sitemap index. */
function entries(xml: string): Array<{ loc: string; lastmod: string | null }> {
  return [...xml.matchAll(/<(?:url|sitemap)><loc>([^<]*)<\/loc>(?:<lastmod>([^<]*)<\/lastmod>)?/g)].map((match) => ({
    loc: match[1].replace(/&amp;/g, '&'),
    lastmod: match[2] ?? null,
  }));
}

/** A schema.org object as a page embeds it; `offers` is read on a Product only. */
interface LinkedData {
  '@type': string;
  offers: Record<string, unknown>;
  [key: string]: unknown;
}

/** Every JSON-LD block of a page, parsed. */
function structuredData(html: string): LinkedData[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((match) =>
    JSON.parse(match[1]),
  );
}

function ofType(html: string, type: string): LinkedData {
  const found = structuredData(html).find((data) => data['@type'] === type);
  if (!found) throw new Error(`no ${type} in the page`);
  return found;
}

/** An attribute's value as Handlebars escaped it (`=` as `&#x3D;`, `&` as `&amp;`). */
function unescaped(value: string): string {
  const entities: Record<string, string> = { '&amp;': '&', '&#x3D;': '=', '&quot;': '"', '&#x27;': "'" };
  return value.replace(/&amp;|&#x3D;|&quot;|&#x27;/g, (entity) => entities[entity]);
}

function canonical(html: string): string | undefined {
  const href = /<link rel="canonical" href="([^"]*)">/.exec(html)?.[1];
  return href && unescaped(href);
}

function alternates(html: string): Record<string, string> {
  return Object.fromEntries(
    [...html.matchAll(/<link rel="alternate" hreflang="([^"]*)" href="([^"]*)">/g)].map((match) => [
      match[1],
      unescaped(match[2]),
    ]),
  );
}

function meta(html: string, attribute: 'property' | 'name', key: string): string | undefined {
  const content = new RegExp(`<meta ${attribute}="${key.replace('.', '\\.')}" content="([^"]*)">`).exec(html)?.[1];
  return content && unescaped(content);
}

describe('what search engines and link previews read', () => {
  let shop: TestApp;
  let base: string;
  const html = (path: string) => request(shop.server).get(path).set('Accept', 'text/html').expect(200);

  beforeAll(async () => {
    shop = await startTestApp({ extraModules: [SmallSitemapPages] });
    base = shop.config.baseUrl;
    await withoutDemoCategories(shop.dataSource);
    await withoutDemoAttributes(shop.dataSource);
  });
  afterAll(() => shop.close());

  describe('the sitemap', () => {
    let coffee: Category;
    let brewing: Category;
    let secret: Category;
    let underSecret: Category;

    beforeAll(async () => {
      const products = shop.dataSource.getRepository(Product);
      await products.update({ sku: 'DEMO-STAKES-TI' }, { enabled: false });
      // As archiving does (product-lifecycle.service.ts): hidden and disabled too.
      await products.update({ sku: 'DEMO-KETTLE-CAMP' }, { visible: false, enabled: false, archivedAt: Date.now() });
      const categories = shop.dataSource.getRepository(Category);
      const category = (name: string, path: string, parentId: number | null, visible = true) =>
        categories.save({
          storeId: 1,
          parentId,
          name,
          slug: path.split('/').pop()!,
          path,
          description: '',
          visible,
        });
      coffee = await category('Coffee', 'coffee', null);
      brewing = await category('Brewing', 'coffee/brewing', coffee.id);
      secret = await category('Secret', 'secret', null, false);
      underSecret = await category('Under secret', 'secret/under', secret.id);
    });

    it('is an index of pages, each at most the page size, listing exactly what the shop shows', async () => {
      const index = await request(shop.server).get('/sitemap.xml').expect(200);
      expect(index.headers['content-type']).toBe('application/xml; charset=utf-8');
      expect(index.headers['cache-control']).toBe('public, max-age=3600');
      expect(index.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<sitemapindex xmlns=/);
      const pages = entries(index.text);
      for (const page of pages) {
        expect(page.loc).toMatch(new RegExp(`^${base}/sitemap-(products|categories|pages)-\\d+\\.xml$`));
        expect(page.lastmod).toMatch(/^\d{4}-\d\d-\d\dT/);
      }
      // 35 products by id: ranges of 4, the split proven past the page size.
      expect(pages.filter((page) => page.loc.includes('-products-')).length).toBeGreaterThan(5);

      const listed: Array<{ loc: string; lastmod: string | null }> = [];
      for (const page of pages) {
        const res = await request(shop.server).get(new URL(page.loc).pathname).expect(200);
        expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
        expect(res.text).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
        const urls = entries(res.text);
        expect(urls.length).toBeGreaterThan(0);
        expect(urls.length).toBeLessThanOrEqual(PAGE_SIZE);
        listed.push(...urls);
      }
      for (const url of listed) expect(url.lastmod).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

      const shown = await shop.dataSource
        .getRepository(Product)
        .find({ where: { visible: true, enabled: true, archivedAt: IsNull() }, order: { id: 'ASC' } });
      const productLocs = listed.filter((url) => url.loc.includes('/shop/p/')).map((url) => url.loc);
      expect(productLocs).toEqual(shown.map((product) => `${base}/shop/p/${product.slug}`));
      for (const sku of ['DEMO-TENT-4P', 'DEMO-STAKES-TI', 'DEMO-KETTLE-CAMP', 'DEMO-MUG-XMAS']) {
        const product = await productBySku(shop.dataSource, sku);
        expect(productLocs).not.toContain(`${base}/shop/p/${product.slug}`);
      }
      // The product's own change time.
      const tent = shown.find((product) => product.sku === 'DEMO-TENT-2P')!;
      expect(listed.find((url) => url.loc.endsWith(`/shop/p/${tent.slug}`))!.lastmod).toBe(
        tent.dateUpdated.toISOString(),
      );

      const categoryLocs = listed.filter((url) => url.loc.includes('/shop/c/')).map((url) => url.loc);
      expect(categoryLocs).toEqual([`${base}/shop/c/coffee`, `${base}/shop/c/coffee/brewing`]);
      expect(categoryLocs).not.toContain(`${base}/shop/c/${secret.path}`);
      expect(categoryLocs).not.toContain(`${base}/shop/c/${underSecret.path}`);
      expect(brewing.id).toBeGreaterThan(coffee.id);

      expect(listed.map((url) => url.loc)).toEqual(
        expect.arrayContaining([`${base}/`, ...CONTENT_PAGE_SLUGS.map((slug) => `${base}/shop/page/${slug}`)]),
      );
    });

    it('answers 404 for a page that does not exist', async () => {
      await request(shop.server).get('/sitemap-products-999.xml').expect(404);
      await request(shop.server).get('/sitemap-orders-1.xml').expect(404);
      await request(shop.server).get('/sitemap-products-0.xml').expect(404);
    });
  });

  it('robots.txt lets crawlers into the shop, keeps them out of private and filtered pages, names the sitemap', async () => {
    const res = await request(shop.server).get('/robots.txt').expect(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    const lines = res.text.split('\n');
    expect(lines.slice(0, 2)).toEqual(['User-agent: *', 'Allow: /']);
    for (const path of ['/shop/cart', '/shop/checkout', '/shop/account', '/shop/catalog/search-results']) {
      expect(lines).toContain(`Disallow: ${path}`);
    }
    expect(lines).toContain('Disallow: /*?*f.*f.');
    expect(lines).toContain('Disallow: /*?*f.*,');
    expect(lines).toContain(`Sitemap: ${base}/sitemap.xml`);
    // The CP's path is not given away (CP_TRIGGER may be chosen to be hard to guess).
    expect(res.text).not.toContain(shop.config.cpTrigger);
  });

  describe('canonical and language links', () => {
    it('a listing page keeps its page number and single facet value, and drops the rest', async () => {
      const attributes = shop.dataSource.getRepository(Attribute);
      const values = shop.dataSource.getRepository(AttributeValue);
      const maker = await attributes.save({ storeId: 1, code: 'maker', name: 'Maker', position: 0, filterable: true });
      const shade = await attributes.save({ storeId: 1, code: 'shade', name: 'Shade', position: 0, filterable: true });
      await values.save([
        { attributeId: maker.id, value: 'Acme', slug: 'acme', position: 0 },
        { attributeId: maker.id, value: 'Zen', slug: 'zen', position: 0 },
        { attributeId: shade.id, value: 'Red', slug: 'red', position: 0 },
      ]);
      try {
        const second = await html('/shop/catalog/products?perPage=24&page=2&sort=price_asc');
        expect(canonical(second.text)).toBe(`${base}/shop/catalog/products?page=2`);
        const first = await html('/shop/catalog/products');
        expect(canonical(first.text)).toBe(`${base}/shop/catalog/products`);
        const facet = await html('/shop/catalog/products?f.maker=acme&page=2');
        expect(canonical(facet.text)).toBe(`${base}/shop/catalog/products?f.maker=acme&page=2`);
        for (const combination of ['f.maker=acme,zen', 'f.maker=acme&f.shade=red', 'f.maker=acme&inStock=1']) {
          const res = await html(`/shop/catalog/products?${combination}&page=3`);
          expect(canonical(res.text)).toBe(`${base}/shop/catalog/products`);
        }
        // What the shop does not know filters nothing: no page of its own, whatever the address says.
        const unknown = await html('/shop/catalog/products?f.maker=nobody&f.era=bronze&page=2');
        expect(canonical(unknown.text)).toBe(`${base}/shop/catalog/products?page=2`);
        const partly = await html('/shop/catalog/products?f.maker=acme,nobody');
        expect(canonical(partly.text)).toBe(`${base}/shop/catalog/products?f.maker=acme`);
      } finally {
        await values.delete({ attributeId: In([maker.id, shade.id]) });
        await attributes.delete({ id: In([maker.id, shade.id]) });
      }
    });

    it('a language alias of the listing is canonical to the listing', async () => {
      const res = await html('/produkty?page=2');
      expect(canonical(res.text)).toBe(`${base}/shop/catalog/products?page=2`);
    });

    it('search results keep the term and the page', async () => {
      const res = await html('/shop/catalog/search-results?q=tent&page=2&perPage=5');
      expect(canonical(res.text)).toBe(`${base}/shop/catalog/search-results?q=tent&page=2`);
    });

    it('a product page is canonical to its plain URL; a hidden or archived one is kept out of the index', async () => {
      const tent = await productBySku(shop.dataSource, 'DEMO-TENT-2P');
      const res = await html(`/shop/p/${tent.slug}?utm_source=mail`);
      expect(canonical(res.text)).toBe(`${base}/shop/p/${tent.slug}`);
      expect(res.text).not.toContain('<meta name="robots"');
      const hidden = await productBySku(shop.dataSource, 'DEMO-TENT-4P');
      expect((await html(`/shop/p/${hidden.slug}`)).text).toContain('<meta name="robots" content="noindex">');
      const archived = await productBySku(shop.dataSource, 'DEMO-KETTLE-CAMP');
      expect(archived.archivedAt).not.toBeNull();
      await request(shop.server).get(`/shop/p/${archived.slug}`).set('Accept', 'text/html').expect(404);
    });

    it('every language has its URL: the store language without ?lang=, the others with it, and x-default', async () => {
      const tent = await productBySku(shop.dataSource, 'DEMO-TENT-2P');
      const url = `${base}/shop/p/${tent.slug}`;
      const english = await html(`/shop/p/${tent.slug}`);
      expect(alternates(english.text)).toEqual({ en: url, sk: `${url}?lang=sk`, 'x-default': url });
      expect(english.text).toContain('<html lang="en">');

      const slovak = await html(`/shop/p/${tent.slug}?lang=sk`);
      expect(slovak.text).toContain('<html lang="sk">');
      expect(slovak.text).toContain('>Do košíka</button>');
      expect(canonical(slovak.text)).toBe(`${url}?lang=sk`);
      expect(alternates(slovak.text)).toEqual(alternates(english.text));
      // Not remembered: a guest's page stays shared-cacheable, and the next page is in the store's language again.
      expect(slovak.headers['cache-control']).toBe('public, max-age=60');
      expect(slovak.headers['set-cookie']).toBeUndefined();
      // An unknown language is ignored.
      expect((await html(`/shop/p/${tent.slug}?lang=xx`)).text).toContain('<html lang="en">');

      const listing = await html('/shop/catalog/products?lang=sk&page=1&perPage=5');
      expect(canonical(listing.text)).toBe(`${base}/shop/catalog/products?lang=sk`);
      // Its pager stays in the language.
      expect(unescaped(listing.text)).toContain('href="/shop/catalog/products?perPage=5&lang=sk&page=2"');
      expect(alternates((await html('/')).text)).toEqual({
        en: `${base}/`,
        sk: `${base}/?lang=sk`,
        'x-default': `${base}/`,
      });
    });

    it('a content page is canonical to itself and previews as a website', async () => {
      const res = await html('/shop/page/terms?ref=footer');
      expect(canonical(res.text)).toBe(`${base}/shop/page/terms`);
      expect(meta(res.text, 'property', 'og:type')).toBe('website');
      expect(meta(res.text, 'property', 'og:url')).toBe(`${base}/shop/page/terms`);
    });
  });

  describe('structured data', () => {
    it('a product page carries its Product with the price, currency and availability it is sold at', async () => {
      const tent = await productBySku(shop.dataSource, 'DEMO-TENT-2P');
      const res = await html(`/shop/p/${tent.slug}`);
      const product = ofType(res.text, 'Product');
      expect(product).toMatchObject({
        '@context': 'https://schema.org',
        name: tent.name,
        sku: 'DEMO-TENT-2P',
        offers: {
          '@type': 'Offer',
          price: (tent.price / 100).toFixed(2),
          priceCurrency: 'EUR',
          availability: 'https://schema.org/InStock',
          url: `${base}/shop/p/${tent.slug}`,
        },
      });
      expect(product.brand).toBeUndefined();
      expect(product.image).toEqual([`${base}/public/images/products/ridgeline-2-person-tent.svg`]);
    });

    it('an out-of-stock product is OutOfStock', async () => {
      const lantern = await productBySku(shop.dataSource, 'DEMO-LANTERN-LED');
      expect(lantern.stock).toBe(0);
      const product = ofType((await html(`/shop/p/${lantern.slug}`)).text, 'Product');
      expect(product.offers.availability).toBe('https://schema.org/OutOfStock');
    });

    it('a running sale offers the sale price; a shopper who chose another currency gets it in that currency', async () => {
      const headlamp = await productBySku(shop.dataSource, 'DEMO-HEADLAMP');
      const salePrice = headlamp.price - 150;
      await shop.dataSource
        .getRepository(Product)
        .update({ id: headlamp.id }, { salePrice, saleStartsAt: Date.now() - 60_000, saleEndsAt: null });
      const euro = ofType((await html(`/shop/p/${headlamp.slug}`)).text, 'Product');
      expect(euro.offers).toMatchObject({ price: (salePrice / 100).toFixed(2), priceCurrency: 'EUR' });

      const shopper = new ShopClient(shop.server);
      await shopper.post('/shop/currency/set', { currency: 'CZK' }).then((res) => expect(res.status).toBe(200));
      const json = await shopper.get(`/shop/p/${headlamp.slug}`).set('Accept', 'application/json').expect(200);
      const page = await shopper.get(`/shop/p/${headlamp.slug}`).set('Accept', 'text/html').expect(200);
      const czk = ofType(page.text, 'Product');
      expect(czk.offers.priceCurrency).toBe('CZK');
      expect(czk.offers.price).toBe(Number(json.body.product.price).toFixed(2));
      expect(json.body.product.currency).toBe('CZK');
    });

    it('a brand attribute and the primary category trail are read', async () => {
      const bottle = await productBySku(shop.dataSource, 'DEMO-BOTTLE-STEEL');
      const attribute = await shop.dataSource
        .getRepository(Attribute)
        .save({ storeId: 1, code: 'brand', name: 'Brand', position: 0, filterable: true });
      const value = await shop.dataSource
        .getRepository(AttributeValue)
        .save({ attributeId: attribute.id, value: 'Acme & Sons', slug: 'acme-sons', position: 0 });
      await shop.dataSource.getRepository(ProductAttributeValue).save({
        productId: bottle.id,
        variantId: null,
        attributeId: attribute.id,
        attributeValueId: value.id,
      });
      const brewing = await shop.dataSource.getRepository(Category).findOneByOrFail({ path: 'coffee/brewing' });
      await shop.dataSource
        .getRepository(ProductCategory)
        .save({ productId: bottle.id, categoryId: brewing.id, isPrimary: true });

      const page = (await html(`/shop/p/${bottle.slug}`)).text;
      expect(ofType(page, 'Product').brand).toEqual({ '@type': 'Brand', name: 'Acme & Sons' });
      expect(ofType(page, 'BreadcrumbList').itemListElement).toEqual([
        { '@type': 'ListItem', position: 1, name: 'Coffee', item: `${base}/shop/c/coffee` },
        { '@type': 'ListItem', position: 2, name: 'Brewing', item: `${base}/shop/c/coffee/brewing` },
        { '@type': 'ListItem', position: 3, name: bottle.name, item: `${base}/shop/p/${bottle.slug}` },
      ]);
    });

    it('a product name cannot end the data block', async () => {
      const name = '</script><script>alert(1)</script>';
      const pillow = await productBySku(shop.dataSource, 'DEMO-PILLOW-CAMP');
      await shop.dataSource.getRepository(Product).update({ id: pillow.id }, { name, metaTitle: '' });
      const page = (await html(`/shop/p/${pillow.slug}`)).text;
      expect(page).not.toContain('<script>alert(1)');
      expect(ofType(page, 'Product').name).toBe(name);
      expect(page).toContain('\\u003c/script\\u003e\\u003cscript\\u003ealert(1)');
    });

    it('the home page names the shop as an Organization', async () => {
      const page = (await html('/')).text;
      expect(ofType(page, 'Organization')).toMatchObject({
        name: expect.any(String),
        url: `${base}/`,
        contactPoint: { '@type': 'ContactPoint', email: expect.stringContaining('@') },
      });
      expect(meta(page, 'property', 'og:type')).toBe('website');
      expect(meta(page, 'property', 'og:url')).toBe(`${base}/`);
    });
  });

  it('a product page previews as a product when shared', async () => {
    const tent = await productBySku(shop.dataSource, 'DEMO-TENT-2P');
    const page = (await html(`/shop/p/${tent.slug}`)).text;
    expect(meta(page, 'property', 'og:type')).toBe('product');
    expect(meta(page, 'property', 'og:title')).toBe(tent.metaTitle || tent.name);
    expect(meta(page, 'property', 'og:url')).toBe(`${base}/shop/p/${tent.slug}`);
    expect(meta(page, 'property', 'og:description')).toBeTruthy();
    expect(meta(page, 'property', 'og:image')).toBe(`${base}/public/images/products/ridgeline-2-person-tent.svg`);
    expect(meta(page, 'name', 'twitter:card')).toBe('summary_large_image');
    const listing = (await html('/shop/catalog/products')).text;
    expect(meta(listing, 'property', 'og:url')).toBe(`${base}/shop/catalog/products`);
  });
});
