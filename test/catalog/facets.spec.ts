import request from 'supertest';
import { In } from 'typeorm';
import { AttributeValue } from '../../src/commerce/attributes/attribute-value.entity';
import { Attribute } from '../../src/commerce/attributes/attribute.entity';
import { AuditEntry } from '../../src/commerce/audit/audit-entry.entity';
import { ProductAttributeValue } from '../../src/commerce/attributes/product-attribute-value.entity';
import { CatalogTransfer } from '../../src/commerce/products/catalog-transfer.service';
import { Product } from '../../src/commerce/products/product.entity';
import { cpNavLabels, cpStaff } from '../support/cp-staff';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp } from '../support/test-app';

/** A seeded random sequence (Park–Miller), so a failure repeats. */
function randomSource(seed: number) {
  let state = seed;
  return (below: number) => {
    state = (state * 48271) % 2147483647;
    return state % below;
  };
}

const BRANDS = ['Acme', 'Borealis', 'Côte Nord', 'Dune', 'Ember'];
const MATERIALS = ['Cotton', 'Wool', 'Nylon', 'Merino Wool'];
const COLOURS = ['Red', 'Blue', 'Green'];
const SIZES = ['S', 'M', 'L'];
const CODES = ['fbrand', 'fmaterial', 'fcolour', 'fsize'];

interface FixtureProduct {
  sku: string;
  price: number;
  stock: number;
  shown: boolean;
  nebula: boolean;
  values: Record<string, Set<string>>;
}

const slugOf = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

/** 80 products of the attributes above (product-level brand and materials, variant colours and sizes). */
function fixture() {
  const random = randomSource(2026);
  const rows: object[] = [];
  const products: FixtureProduct[] = [];
  for (let i = 0; i < 80; i++) {
    const sku = `FACET-${i}`;
    const brand = BRANDS[random(BRANDS.length)];
    const materials = [...new Set([MATERIALS[random(4)], ...(random(3) === 0 ? [MATERIALS[random(4)]] : [])])];
    const price = 5 + random(60);
    const visible = i % 13 !== 5;
    const nebula = random(3) === 0;
    const values: Record<string, Set<string>> = {
      fbrand: new Set([slugOf(brand)]),
      fmaterial: new Set(materials.map(slugOf)),
      fcolour: new Set(),
      fsize: new Set(),
    };
    const row: Record<string, unknown> = {
      sku,
      name: `Quasar ${nebula ? 'Nebula ' : ''}Thing ${i}`,
      price,
      stock: random(4),
      visible,
      attributes: { fbrand: brand, fmaterial: materials },
    };
    let stock = row.stock as number;
    if (i % 3 === 0) {
      // Several variants of one colour: the product counts once for it.
      const colours = [COLOURS[random(3)], COLOURS[random(3)]];
      const sizes = [SIZES[random(3)], SIZES[(random(3) + 1) % 3]].filter((size, n, all) => all.indexOf(size) === n);
      const variants = [];
      for (const colour of [...new Set(colours)]) {
        for (const size of sizes) {
          variants.push({
            sku: `${sku}-${colour}-${size}`,
            options: { fcolour: colour, fsize: size },
            stock: random(3),
          });
          values.fcolour.add(slugOf(colour));
          values.fsize.add(slugOf(size));
        }
      }
      row.options = [
        { code: 'fcolour', label: 'Colour', values: [...new Set(colours)] },
        { code: 'fsize', label: 'Size', values: sizes },
      ];
      row.variants = variants;
      stock = variants.reduce((sum, variant) => sum + variant.stock, 0);
    }
    rows.push(row);
    products.push({ sku, price, stock, shown: visible, nebula, values });
  }
  return { rows, products };
}

type Selection = Record<string, string[]>;
interface Scope {
  inStock?: boolean;
  minPrice?: number;
  maxPrice?: number;
  nebula?: boolean;
}
interface FacetJson {
  code: string;
  name: string;
  values: Array<{ slug: string; value: string; count: number; selected: boolean }>;
}

/** What the facets must say, counted product by product. */
function expectedFacets(products: FixtureProduct[], scope: Scope, selection: Selection) {
  const inScope = products.filter(
    (product) =>
      product.shown &&
      (!scope.inStock || product.stock > 0) &&
      (scope.minPrice === undefined || product.price >= scope.minPrice) &&
      (scope.maxPrice === undefined || product.price <= scope.maxPrice) &&
      (!scope.nebula || product.nebula),
  );
  const matches = (product: FixtureProduct, except: string | null) =>
    Object.entries(selection).every(
      ([code, slugs]) => code === except || slugs.some((slug) => product.values[code].has(slug)),
    );
  const facets: Record<string, Record<string, number>> = {};
  for (const code of CODES) {
    const counts: Record<string, number> = {};
    for (const product of inScope.filter((candidate) => matches(candidate, code))) {
      for (const slug of product.values[code]) counts[slug] = (counts[slug] ?? 0) + 1;
    }
    for (const slug of selection[code] ?? []) counts[slug] ??= 0;
    if (Object.keys(counts).length > 0) facets[code] = counts;
  }
  return { facets, total: inScope.filter((product) => matches(product, null)).length };
}

/** The JSON facets of the fixture's attributes as `{ code: { slug: count } }`. */
function shownFacets(facets: FacetJson[]) {
  return Object.fromEntries(
    facets
      .filter((facet) => CODES.includes(facet.code))
      .map((facet) => [facet.code, Object.fromEntries(facet.values.map((value) => [value.slug, value.count]))]),
  );
}

describe('facets', () => {
  let shop: TestApp;
  let products: FixtureProduct[];
  beforeAll(async () => {
    shop = await startTestApp();
    const made = fixture();
    products = made.products;
    const report = await shop.app.get(CatalogTransfer).importRows(made.rows, ['en', 'sk'], 'cli');
    expect(report.rejected).toEqual([]);
    // A disabled product is not counted either.
    await shop.dataSource.getRepository(Product).update({ sku: 'FACET-7' }, { enabled: false });
    products.find((product) => product.sku === 'FACET-7')!.shown = false;
  });
  afterAll(() => shop.close());

  const json = (url: string, status = 200) =>
    request(shop.server).get(url).set('Accept', 'application/json').expect(status);
  const listingUrl = (scope: Scope, selection: Selection) => {
    const params = new URLSearchParams({ perPage: '100' });
    if (scope.inStock) params.set('inStock', '1');
    if (scope.minPrice !== undefined) params.set('minPrice', String(scope.minPrice));
    if (scope.maxPrice !== undefined) params.set('maxPrice', String(scope.maxPrice));
    for (const [code, slugs] of Object.entries(selection)) params.set(`f.${code}`, slugs.join(','));
    return scope.nebula ? `/shop/catalog/search-results?q=nebula&${params}` : `/shop/catalog/products?${params}`;
  };

  it('imports product and variant attribute values: codes, names, value texts and slugs', async () => {
    const attributes = await shop.dataSource
      .getRepository(Attribute)
      .find({ where: { code: In(CODES) }, order: { code: 'ASC' } });
    expect(attributes.map((attribute) => [attribute.code, attribute.name, attribute.filterable])).toEqual([
      ['fbrand', 'Fbrand', true],
      ['fcolour', 'Fcolour', true],
      ['fmaterial', 'Fmaterial', true],
      ['fsize', 'Fsize', true],
    ]);
    const { body } = await json('/shop/catalog/products?perPage=1');
    const brand = (body.facets as FacetJson[]).find((facet) => facet.code === 'fbrand')!;
    expect(brand.values.find((value) => value.slug === 'cote-nord')).toMatchObject({ value: 'Côte Nord' });
    // Variant rows name their variant; a product's own rows none.
    const product = await shop.dataSource.getRepository(Product).findOneByOrFail({ sku: 'FACET-0' });
    const rows = await shop.dataSource.getRepository(ProductAttributeValue).findBy({ productId: product.id });
    expect(rows.filter((row) => row.variantId === null).length).toBeGreaterThanOrEqual(2);
    expect(rows.filter((row) => row.variantId !== null).length).toBeGreaterThanOrEqual(2);
  });

  it('filters by one value, by values of one attribute OR-ed and by attributes AND-ed', async () => {
    const selections: Selection[] = [
      { fbrand: ['acme'] },
      { fbrand: ['acme', 'dune'] },
      { fbrand: ['acme', 'dune'], fmaterial: ['wool'] },
      { fcolour: ['red'], fsize: ['m'] },
    ];
    for (const selection of selections) {
      const { body } = await json(listingUrl({}, selection));
      const expected = products
        .filter(
          (product) =>
            product.shown &&
            Object.entries(selection).every(([code, slugs]) => slugs.some((slug) => product.values[code].has(slug))),
        )
        .map((product) => product.sku)
        .sort();
      expect((body.products as Array<{ sku: string }>).map((product) => product.sku).sort()).toEqual(expected);
      expect(body.total).toBe(expected.length);
    }
  });

  it('counts equal a brute-force count for random combinations of facets, price, stock and search', async () => {
    const random = randomSource(7);
    const slugsOf = (code: string) => [...new Set(products.flatMap((product) => [...product.values[code]]))];
    for (let round = 0; round < 40; round++) {
      const selection: Selection = {};
      for (const code of CODES) {
        if (random(2) === 0) continue;
        const all = slugsOf(code);
        const picked = [...new Set(Array.from({ length: 1 + random(2) }, () => all[random(all.length)]))];
        selection[code] = picked;
      }
      const scope: Scope = {
        ...(random(3) === 0 && { inStock: true }),
        ...(random(3) === 0 && { minPrice: 10 + random(20) }),
        ...(random(3) === 0 && { maxPrice: 30 + random(40) }),
        ...(random(4) === 0 && { nebula: true }),
      };
      // Search results have no price or stock filter.
      if (scope.nebula) for (const key of ['inStock', 'minPrice', 'maxPrice'] as const) delete scope[key];
      const { body } = await json(listingUrl(scope, selection));
      const expected = expectedFacets(products, scope, selection);
      const context = JSON.stringify({ scope, selection });
      expect([context, shownFacets(body.facets)]).toEqual([context, expected.facets]);
      if (Object.keys(selection).length > 0) expect([context, body.total]).toEqual([context, expected.total]);
      for (const facet of body.facets as FacetJson[]) {
        for (const value of facet.values)
          expect(value.selected).toBe(selection[facet.code]?.includes(value.slug) ?? false);
      }
    }
  });

  it('orders attributes by position then name and values by position then value', async () => {
    await shop.dataSource.getRepository(Attribute).update({ code: 'fsize' }, { position: -1 });
    await shop.dataSource.getRepository(Attribute).update({ code: 'fmaterial' }, { filterable: false });
    try {
      const { body } = await json('/shop/catalog/products?perPage=1&f.fbrand=dune');
      const codes = (body.facets as FacetJson[]).map((facet) => facet.code).filter((code) => CODES.includes(code));
      expect(codes).toEqual(['fsize', 'fbrand', 'fcolour']);
      const brand = (body.facets as FacetJson[]).find((facet) => facet.code === 'fbrand')!;
      expect(brand.values.map((value) => value.value)).toEqual(
        [...brand.values.map((value) => value.value)].sort((a, b) => a.localeCompare(b)),
      );
    } finally {
      await shop.dataSource.getRepository(Attribute).update({ code: 'fsize' }, { position: 0 });
      await shop.dataSource.getRepository(Attribute).update({ code: 'fmaterial' }, { filterable: true });
    }
  });

  it('ignores unknown attributes and values, and refuses malformed facet parameters with a 400', async () => {
    const plain = await json('/shop/catalog/products?perPage=100');
    const unknown = await json('/shop/catalog/products?perPage=100&f.nosuch=thing&f.fbrand=no-such-brand');
    expect(unknown.body.total).toBe(plain.body.total);
    const mixed = await json('/shop/catalog/products?perPage=100&f.fbrand=acme,no-such-brand');
    expect(mixed.body.total).toBe(products.filter((p) => p.shown && p.values.fbrand.has('acme')).length);
    // The filter form's checkboxes repeat the parameter.
    const repeated = await json('/shop/catalog/products?perPage=100&f.fbrand=acme&f.fbrand=dune');
    expect(repeated.body.total).toBe((await json(listingUrl({}, { fbrand: ['acme', 'dune'] }))).body.total);

    for (const [query, field] of [
      ['f.Brand=acme', 'f.Brand'],
      ['f.fbrand=Acme%20Corp', 'f.fbrand'],
      ['f.fbrand[x]=acme', 'f.fbrand[x]'],
      [`f.fbrand=${Array.from({ length: 21 }, (_, n) => `v${n}`).join(',')}`, 'f.fbrand'],
      [Array.from({ length: 11 }, (_, n) => `f.a${n}=x`).join('&'), 'f'],
    ]) {
      const { body } = await json(`/shop/catalog/products?${query}`, 400);
      expect(body).toMatchObject({ success: false, error: { code: 'validation_failed' } });
      expect(Object.keys(body.error.fields)).toEqual([field]);
    }
    await json('/shop/catalog/search-results?q=quasar&f.fbrand=BAD', 400);
  });

  it('shows facet controls in the HTML: fieldsets, counted labels, crawlable links, chips and clear', async () => {
    const res = await request(shop.server)
      .get('/shop/catalog/products?f.fbrand=acme')
      .set('Accept', 'text/html')
      .expect(200);
    const html = res.text.replace(/&#x3D;/g, '=').replace(/&amp;/g, '&');
    expect(html).toMatch(/<fieldset class="facet">\s*<legend>Fbrand<\/legend>/);
    const acmeCount = products.filter((p) => p.shown && p.values.fbrand.has('acme')).length;
    expect(html).toContain(`<input type="checkbox" id="facet-fbrand-acme" name="f.fbrand" value="acme" checked>`);
    expect(html).toContain(
      `<label for="facet-fbrand-acme">Acme <span class="facet-count">(${acmeCount})</span></label>`,
    );
    // Adding a second value makes a combination: nofollow; removing the only one does not.
    // The default sort and page size are left out: the links are the canonical URLs crawlers may follow.
    const path = '/shop/catalog/products';
    expect(html).toContain(`<a class="facet-link" href="${path}?f.fbrand=acme%2Cdune" rel="nofollow">Show`);
    expect(html).toContain(`<a class="facet-link" href="${path}">Remove<span class="visually-hidden"> Acme</span>`);
    expect(html).toContain(`<a class="facet-link" href="${path}?f.fbrand=acme&f.fsize=s" rel="nofollow">`);
    expect(html).toContain(`<a class="facet-chip" href="${path}">Fbrand: Acme`);
    expect(html).toContain(`<a class="facet-clear" href="${path}">Clear all filters</a>`);
    // One link clears facets, price and stock alike (the search, order and page size stay); none beside it.
    const priced = await request(shop.server)
      .get('/shop/catalog/products?f.fbrand=acme&minPrice=10&inStock=1&sort=price_asc')
      .set('Accept', 'text/html')
      .expect(200);
    expect(priced.text).toContain(`<a class="facet-clear" href="${path}?sort&#x3D;price_asc">Clear all filters</a>`);
    expect(priced.text).not.toContain('Clear filters');
    const onlyPrice = await request(shop.server)
      .get('/shop/catalog/products?minPrice=10')
      .set('Accept', 'text/html')
      .expect(200);
    expect(onlyPrice.text).toContain(`<a href="${path}">Clear filters</a>`);
    expect(onlyPrice.text).not.toContain('facet-clear');
    const searched = await request(shop.server)
      .get('/shop/catalog/search-results?q=nebula&f.fbrand=acme')
      .set('Accept', 'text/html')
      .expect(200);
    expect(searched.text).toContain(
      '<a class="facet-clear" href="/shop/catalog/search-results?q&#x3D;nebula">Clear all filters</a>',
    );
    // A single value is a page for crawlers.
    const plain = await request(shop.server).get('/shop/catalog/products').set('Accept', 'text/html').expect(200);
    expect(plain.text.replace(/&#x3D;/g, '=').replace(/&amp;/g, '&')).toContain(
      `<a class="facet-link" href="${path}?f.fbrand=acme">Show`,
    );
    const search = await request(shop.server)
      .get('/shop/catalog/search-results?q=quasar&f.fmaterial=wool')
      .set('Accept', 'text/html')
      .expect(200);
    expect(search.text).toContain('<input type="hidden" name="q" value="quasar">');
    expect(search.text).toContain('name="f.fmaterial" value="wool" checked');
  });

  it('exports the attribute values, and importing the export changes none of them', async () => {
    const transfer = shop.app.get(CatalogTransfer);
    const rows = (await transfer.exportRows()) as Array<{ sku: string; attributes?: Record<string, string[]> }>;
    const exported = rows.find((row) => row.sku === 'FACET-2')!;
    const imported = products.find((product) => product.sku === 'FACET-2')!;
    expect(Object.keys(exported.attributes!).sort()).toEqual(['fbrand', 'fmaterial']);
    expect(exported.attributes!.fmaterial.map(slugOf).sort()).toEqual([...imported.values.fmaterial].sort());
    const valuesOf = async () =>
      (await shop.dataSource.getRepository(ProductAttributeValue).find())
        .map((row) => `${row.productId}:${row.variantId}:${row.attributeValueId}`)
        .sort();
    const before = await valuesOf();
    const report = await transfer.importRows(rows, ['en', 'sk'], 'cli');
    expect(report.rejected).toEqual([]);
    expect(await valuesOf()).toEqual(before);
  });

  it('reports bad attributes of import rows like other row errors', async () => {
    const report = await shop.app.get(CatalogTransfer).importRows(
      [
        { sku: 'FACET-BAD-1', name: 'Bad 1', price: 1, stock: 1, attributes: { Brand: 'Acme' } },
        { sku: 'FACET-BAD-2', name: 'Bad 2', price: 1, stock: 1, attributes: { fbrand: ['', 'Acme'] } },
        { sku: 'FACET-BAD-3', name: 'Bad 3', price: 1, stock: 1, attributes: ['fbrand'] },
        {
          sku: 'FACET-BAD-4',
          name: 'Bad 4',
          price: 1,
          stock: 1,
          attributes: { fbrand: Array.from({ length: 21 }, (_, n) => `B${n}`) },
        },
        { sku: 'FACET-OK', name: 'Fine', price: 1, stock: 1, visible: false, attributes: { fbrand: 'Acme' } },
      ],
      ['en', 'sk'],
      'cli',
    );
    expect(report.rejected.map((error) => [error.line, error.sku])).toEqual([
      [1, 'FACET-BAD-1'],
      [2, 'FACET-BAD-2'],
      [3, 'FACET-BAD-3'],
      [4, 'FACET-BAD-4'],
    ]);
    expect(report.rejected[0].message).toContain('attributes code "Brand" must be lowercase');
    expect(report.rejected[1].message).toContain('attributes.fbrand must be 1 to 20 texts');
    expect(report.created).toBe(1);
    expect(await shop.dataSource.getRepository(Product).countBy({ sku: In(['FACET-BAD-1', 'FACET-BAD-2']) })).toBe(0);
  });

  it('lets staff name, order and hide attributes, rename values and set a product’s values', async () => {
    const cp = new ShopClient(shop.server);
    await cp.loginCp();
    expect(await cpNavLabels(cp)).toContain('Attributes');
    const list = await cp.get('/admin/attributes').set('Accept', 'text/html').expect(200);
    expect(list.text).toContain('<code>fbrand</code>');

    const brand = await shop.dataSource.getRepository(Attribute).findOneByOrFail({ code: 'fbrand' });
    const saved = await cp.submitForm(`/admin/attributes/${brand.id}`, { name: 'Brand', position: '-5' });
    expect(saved.status).toBe(303);
    // Not ticked: shoppers no longer filter by it.
    let facets = (await json('/shop/catalog/products?perPage=1')).body.facets as FacetJson[];
    expect(facets.some((facet) => facet.code === 'fbrand')).toBe(false);
    expect(
      (await cp.submitForm(`/admin/attributes/${brand.id}`, { name: 'Brand', position: '-5', filterable: 'on' }))
        .status,
    ).toBe(303);
    // Counted (and kept for a while) before the rename: the rename shows at once all the same.
    facets = (await json('/shop/catalog/products?perPage=1')).body.facets as FacetJson[];
    expect(facets[0].values.find((value) => value.slug === 'acme')!.value).toBe('Acme');
    const acme = await shop.dataSource
      .getRepository(AttributeValue)
      .findOneByOrFail({ attributeId: brand.id, slug: 'acme' });
    const renamed = await cp.submitForm(`/admin/attributes/${brand.id}/values/${acme.id}`, {
      value: 'ACME Corp',
      position: '0',
    });
    expect(renamed.status).toBe(303);
    const detail = await cp.get(`/admin/attributes/${brand.id}`).set('Accept', 'text/html').expect(200);
    expect(detail.text).toContain('value="ACME Corp"');
    facets = (await json('/shop/catalog/products?perPage=1')).body.facets as FacetJson[];
    expect(facets[0]).toMatchObject({ code: 'fbrand', name: 'Brand' });
    expect(facets[0].values.find((value) => value.slug === 'acme')!.value).toBe('ACME Corp');

    expect((await cp.submitForm('/admin/attributes', { code: 'fcare', name: '' })).status).toBe(303);
    const care = await shop.dataSource.getRepository(Attribute).findOneByOrFail({ code: 'fcare' });
    expect(care.name).toBe('Fcare');
    const bad = await cp.post('/admin/attributes', { code: 'Not A Code' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toHaveProperty('code');

    const product = await shop.dataSource.getRepository(Product).findOneByOrFail({ sku: 'FACET-1' });
    const page = await cp.get(`/admin/products/${product.id}`).set('Accept', 'text/html').expect(200);
    expect(page.text).toMatch(/<textarea id="product-attributes" name="attributes"[^>]*>fbrand: [^<]+\nfmaterial: /);
    const set = await cp.submitForm(`/admin/products/${product.id}/attributes`, {
      attributes: 'fcare: Hand wash, Dry clean\nfbrand: Ember',
    });
    expect(set.status).toBe(303);
    const found = await json('/shop/catalog/products?f.fcare=hand-wash');
    expect(found.body.products.map((item: { sku: string }) => item.sku)).toEqual(['FACET-1']);
    const ember = await json('/shop/catalog/products?perPage=100&f.fbrand=ember');
    expect(ember.body.products.map((item: { sku: string }) => item.sku)).toContain('FACET-1');
    expect(
      await shop.dataSource
        .getRepository(AuditEntry)
        .findOneByOrFail({ action: 'attributes set', subject: String(product.id) }),
    ).toMatchObject({ actor: 'cp:admin@example.com' });
    const refused = await cp.post(`/admin/products/${product.id}/attributes`, { attributes: 'no colon here' });
    expect(refused.status).toBe(400);
    // Staff without accessProducts are refused.
    const other = await cpStaff(shop, 'orders-only@example.com', ['accessOrders']);
    await other.get('/admin/attributes').set('Accept', 'application/json').expect(403);
  });
});
