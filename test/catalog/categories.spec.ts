import request from 'supertest';
import { In } from 'typeorm';
import { CategoryAdmin } from '../../src/commerce/categories/category-admin.service';
import { Category } from '../../src/commerce/categories/category.entity';
import { ProductCategory } from '../../src/commerce/categories/product-category.entity';
import { ShopCategories } from '../../src/commerce/categories/shop-categories.service';
import { CatalogTransfer } from '../../src/commerce/products/catalog-transfer.service';
import { Product } from '../../src/commerce/products/product.entity';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The test's own tree, next to the demo's: Káva & Čaj (B) › Brewing (A, E) › Pots (C); Káva & Čaj › Cups (D);
 * Káva & Čaj › Secret (hidden) › Deeper (F); Gifts For Tea (A, second); Other Shelf (G).
 */
const ROWS = [
  { sku: 'CAT-A', name: 'Alpha Tea Kettle', price: 30, stock: 5, categories: ['Káva & Čaj/Brewing', 'Gifts For Tea'] },
  { sku: 'CAT-B', name: 'Bravo Leaf', price: 10, stock: 0, categories: ['Káva & Čaj'] },
  { sku: 'CAT-C', name: 'Charlie Pot', price: 20, stock: 3, categories: ['Káva & Čaj / Brewing / Pots'] },
  { sku: 'CAT-D', name: 'Delta Cup', price: 5, stock: 2, categories: ['Káva & Čaj/Cups'] },
  { sku: 'CAT-E', name: 'Echo Filter', price: 15, stock: 1, categories: ['Káva & Čaj/Brewing'] },
  { sku: 'CAT-F', name: 'Foxtrot Hidden', price: 12, stock: 4, categories: ['Káva & Čaj/Secret/Deeper'] },
  { sku: 'CAT-G', name: 'Golf Other', price: 8, stock: 4, categories: ['Other Shelf'] },
];
const OWN_PATHS = [
  'gifts-for-tea',
  'kava-caj',
  'kava-caj/brewing',
  'kava-caj/brewing/pots',
  'kava-caj/cups',
  'kava-caj/secret',
  'kava-caj/secret/deeper',
  'other-shelf',
];

type Listing = { products: Array<{ sku: string }>; total: number; page: number; perPage: number };

describe('categories in the shop', () => {
  let shop: TestApp;
  beforeAll(async () => {
    shop = await startTestApp();
    const report = await importRows(ROWS);
    expect(report).toMatchObject({ created: ROWS.length, updated: 0, rejected: [] });
    await shop.dataSource.getRepository(Category).update({ path: 'kava-caj/secret' }, { visible: false });
    await shop.dataSource
      .getRepository(Category)
      .update(
        { path: 'kava-caj/cups' },
        { metaTitle: 'Tea cups & mugs', metaDescription: 'Cups for tea.', description: 'Cups of every size.' },
      );
    // What the CP's category editor does after a change.
    shop.app.get(ShopCategories).forget();
  });
  afterAll(() => shop.close());

  const importRows = (rows: unknown[]) => shop.app.get(CatalogTransfer).importRows(rows, ['en', 'sk'], 'test');
  const json = (path: string) => request(shop.server).get(path).set('Accept', 'application/json');
  const html = (path: string) => request(shop.server).get(path).set('Accept', 'text/html');
  const skus = async (path: string) => {
    const body = (await json(path).expect(200)).body as Listing;
    return body.products.map((product) => product.sku);
  };
  const ownCategories = () =>
    shop.dataSource.getRepository(Category).find({ where: { path: In(OWN_PATHS) }, order: { path: 'ASC' } });
  /** The CP's catalog export, as a staff member logged in with `client` downloads it. */
  async function exportedRows(client: ShopClient) {
    await client.loginCp();
    const res = await client.get('/admin/products/export.json').expect(200);
    return JSON.parse(res.text) as Array<{ sku: string; categories: string[] }>;
  }
  /** Each CAT- product's categories as paths, the primary one first. */
  async function placements(): Promise<Record<string, string[]>> {
    const products = await shop.dataSource.getRepository(Product).findBy({ sku: In(ROWS.map((row) => row.sku)) });
    const places = await shop.dataSource.getRepository(ProductCategory).find({
      where: { productId: In(products.map((product) => product.id)) },
      order: { isPrimary: 'DESC', id: 'ASC' },
    });
    const paths = new Map((await ownCategories()).map((category) => [category.id, category.path]));
    return Object.fromEntries(
      products.map((product) => [
        product.sku,
        places.filter((place) => place.productId === product.id).map((place) => paths.get(place.categoryId)!),
      ]),
    );
  }
  const IMPORTED = {
    'CAT-A': ['kava-caj/brewing', 'gifts-for-tea'],
    'CAT-B': ['kava-caj'],
    'CAT-C': ['kava-caj/brewing/pots'],
    'CAT-D': ['kava-caj/cups'],
    'CAT-E': ['kava-caj/brewing'],
    'CAT-F': ['kava-caj/secret/deeper'],
    'CAT-G': ['other-shelf'],
  };

  describe('import', () => {
    it('creates the tree once, with names as given and slugs folded, shared new categories once', async () => {
      const categories = await ownCategories();
      expect(categories.map((category) => category.path)).toEqual(OWN_PATHS);
      const byPath = new Map(categories.map((category) => [category.path, category]));
      expect(byPath.get('kava-caj')).toMatchObject({ name: 'Káva & Čaj', slug: 'kava-caj', parentId: null });
      expect(byPath.get('kava-caj/brewing')).toMatchObject({
        name: 'Brewing',
        slug: 'brewing',
        parentId: byPath.get('kava-caj')!.id,
      });
      expect(byPath.get('kava-caj/brewing/pots')!.parentId).toBe(byPath.get('kava-caj/brewing')!.id);
      expect(await placements()).toEqual(IMPORTED);
      const primaries = await shop.dataSource.getRepository(ProductCategory).countBy({ isPrimary: true });
      const placed = await shop.dataSource.getRepository(ProductCategory).find({ select: { productId: true } });
      expect(primaries).toBe(new Set(placed.map((place) => place.productId)).size);
    });

    it('is idempotent on re-import, and a re-import replaces a product’s category set', async () => {
      const before = await ownCategories();
      expect(await importRows(ROWS)).toMatchObject({ created: 0, updated: ROWS.length, rejected: [] });
      expect(await ownCategories()).toEqual(before);
      expect(await placements()).toEqual(IMPORTED);

      await importRows([{ ...ROWS[0], categories: ['Gifts for tea', 'Káva & Čaj/Cups'] }]);
      expect((await placements())['CAT-A']).toEqual(['gifts-for-tea', 'kava-caj/cups']);
      await importRows([{ ...ROWS[0], categories: undefined }]);
      expect((await placements())['CAT-A']).toEqual([]);
      await importRows([ROWS[0]]);
      expect(await placements()).toEqual(IMPORTED);
      expect(await ownCategories()).toEqual(before);
    });

    it('reports bad category entries as row errors and imports nothing of those rows', async () => {
      const row = (sku: string, categories: unknown) => ({ sku, name: sku, price: 1, stock: 1, categories });
      const report = await importRows([
        row(
          'CAT-BAD-1',
          Array.from({ length: 21 }, (_, i) => `Many/${i}`),
        ),
        row('CAT-BAD-2', ['Coffee//Beans']),
        row('CAT-BAD-3', [Array.from({ length: 11 }, (_, i) => `L${i}`).join('/')]),
        row('CAT-BAD-4', ['Coffee/★★']),
        row('CAT-BAD-5', 'Coffee'),
        row('CAT-BAD-6', ['x'.repeat(256)]),
      ]);
      expect(report.created).toBe(0);
      expect(report.rejected).toEqual([
        {
          line: 1,
          sku: 'CAT-BAD-1',
          message: 'categories must be a list of up to 20 category paths like "Coffee/Brewing"',
        },
        {
          line: 2,
          sku: 'CAT-BAD-2',
          message: 'categories[0] must be category names separated by / (each 1 to 255 characters)',
        },
        { line: 3, sku: 'CAT-BAD-3', message: 'categories[0] is deeper than 10 levels' },
        { line: 4, sku: 'CAT-BAD-4', message: 'categories[0]: the name "★★" has no letter or digit for its URL' },
        {
          line: 5,
          sku: 'CAT-BAD-5',
          message: 'categories must be a list of up to 20 category paths like "Coffee/Brewing"',
        },
        {
          line: 6,
          sku: 'CAT-BAD-6',
          message: 'categories[0] must be category names separated by / (each 1 to 255 characters)',
        },
      ]);
      expect(await shop.dataSource.getRepository(Category).countBy({ path: In(['many', 'many/0']) })).toBe(0);
    });
  });

  describe('category page', () => {
    it('lists the category’s products and its shown descendants’, sorted and paged', async () => {
      expect(await skus('/shop/c/kava-caj?sort=name&perPage=2')).toEqual(['CAT-A', 'CAT-B']);
      expect(await skus('/shop/c/kava-caj?sort=name&perPage=2&page=2')).toEqual(['CAT-C', 'CAT-D']);
      expect(await skus('/shop/c/kava-caj?sort=name&perPage=2&page=3')).toEqual(['CAT-E']);
      expect(await skus('/shop/c/kava-caj?sort=price_asc&perPage=2')).toEqual(['CAT-D', 'CAT-B']);
      expect(await skus('/shop/c/kava-caj?sort=price_asc&perPage=2&page=2')).toEqual(['CAT-E', 'CAT-C']);
      expect(await skus('/shop/c/kava-caj?sort=price_desc&perPage=2&page=3')).toEqual(['CAT-D']);
      expect(await skus('/shop/c/kava-caj/brewing')).toEqual(['CAT-A', 'CAT-C', 'CAT-E']);
      expect(await skus('/shop/c/kava-caj/brewing/pots')).toEqual(['CAT-C']);
      expect(await skus('/shop/c/gifts-for-tea')).toEqual(['CAT-A']);
    });

    it('keeps the stock and price filters', async () => {
      expect(await skus('/shop/c/kava-caj?inStock=1')).toEqual(['CAT-A', 'CAT-C', 'CAT-D', 'CAT-E']);
      expect(await skus('/shop/c/kava-caj?minPrice=10&maxPrice=20')).toEqual(['CAT-B', 'CAT-C', 'CAT-E']);
      expect(await skus('/shop/c/kava-caj?inStock=1&minPrice=10&sort=price_desc')).toEqual(['CAT-A', 'CAT-C', 'CAT-E']);
      const bad = await json('/shop/c/kava-caj?minPrice=cheap').expect(400);
      expect(bad.body.error.fields).toHaveProperty('minPrice');
    });

    it('answers JSON in the listing shape with a category object', async () => {
      const res = await json('/shop/c/kava-caj/brewing?perPage=2').expect(200);
      expect(Object.keys(res.body).sort()).toEqual([
        'category',
        'facets',
        'page',
        'perPage',
        'products',
        'success',
        'total',
      ]);
      expect(res.body).toMatchObject({ success: true, page: 1, perPage: 2, total: 3 });
      const base = shop.config.baseUrl;
      expect(res.body.category).toEqual({
        name: 'Brewing',
        path: 'kava-caj/brewing',
        url: `${base}/shop/c/kava-caj/brewing`,
        description: '',
        breadcrumbs: [
          { name: 'Káva & Čaj', path: 'kava-caj', url: `${base}/shop/c/kava-caj` },
          { name: 'Brewing', path: 'kava-caj/brewing', url: `${base}/shop/c/kava-caj/brewing` },
        ],
        children: [{ name: 'Pots', path: 'kava-caj/brewing/pots', url: `${base}/shop/c/kava-caj/brewing/pots` }],
      });
      // The hidden branch is no child of its parent.
      const top = (await json('/shop/c/kava-caj').expect(200)).body.category;
      expect(top.children.map((child: { path: string }) => child.path)).toEqual(['kava-caj/brewing', 'kava-caj/cups']);
    });

    it('renders HTML with breadcrumbs, sub-categories, filters, a pager keeping the path, and SEO fields', async () => {
      const res = await html('/shop/c/kava-caj/brewing?perPage=2&sort=name').expect(200);
      expect(res.headers['cache-control']).toBe('public, max-age=60');
      expect(res.text).toContain('<h1>Brewing</h1>');
      expect(res.text).toContain('<title>Brewing · ');
      const crumbs = /<nav class="breadcrumbs" aria-label="Breadcrumbs">([\s\S]*?)<\/nav>/.exec(res.text)![1];
      expect([...crumbs.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((item) => item[1])).toEqual([
        '<a href="/">Home</a>',
        '<a href="/shop/c/kava-caj">Káva &amp; Čaj</a>',
        '<span aria-current="page">Brewing</span>',
      ]);
      expect(res.text).toMatch(
        /<nav class="subcategories"[^>]*>\s*<ul><li><a href="\/shop\/c\/kava-caj\/brewing\/pots">Pots<\/a>/,
      );
      expect(res.text).toContain('class="catalog-filters"');
      expect(res.text).toContain('3 products');
      expect(res.text.replace(/&#x3D;/g, '=').replace(/&amp;/g, '&')).toContain(
        'href="/shop/c/kava-caj/brewing?perPage=2&page=2" rel="next"',
      );
      expect(res.text).toContain('Alpha Tea Kettle');
      expect(res.text).not.toContain('Echo Filter');

      const cups = await html('/shop/c/kava-caj/cups').expect(200);
      expect(cups.text).toContain('<title>Tea cups &amp; mugs · ');
      expect(cups.text).toContain('<meta name="description" content="Cups for tea.">');
      expect(cups.text).toContain('<p class="category-description">Cups of every size.</p>');
    });

    it('answers 404 for a hidden category, one under a hidden parent and an unknown path', async () => {
      for (const path of ['kava-caj/secret', 'kava-caj/secret/deeper', 'nope', 'kava-caj/nope', 'kava-caj/brewing/x']) {
        const page = await html(`/shop/c/${path}`).expect(404);
        expect(page.text).toContain('<h1>Category not found</h1>');
        const body = (await json(`/shop/c/${path}`).expect(404)).body;
        expect(body).toEqual({ success: false, error: { code: 'category_not_found', message: 'Category not found' } });
      }
      // Its products stay out of the parent's page too.
      expect(await skus('/shop/c/kava-caj?perPage=100')).not.toContain('CAT-F');
    });
  });

  describe('navigation', () => {
    const menuOf = (page: string) =>
      /<nav class="category-nav" aria-label="Categories">([\s\S]*?)<\/nav>/.exec(page)![1];
    const topLevels = (menu: string) =>
      [...menu.matchAll(/<li><a href="(\/shop\/c\/[^/"]+)"[^>]*>/g)].map((link) => link[1]);

    it('lists the shown top levels with their shown children in the header of every shop page', async () => {
      const page = (await html('/shop/catalog/products').expect(200)).text;
      expect(page).toContain('<details class="category-menu">');
      expect(page).toContain('<a href="/shop/catalog/products">Products</a>');
      const menu = menuOf(page);
      expect(topLevels(menu)).toEqual(
        expect.arrayContaining(['/shop/c/kava-caj', '/shop/c/gifts-for-tea', '/shop/c/other-shelf', '/shop/c/coffee']),
      );
      expect(menu).toContain('<a href="/shop/c/kava-caj/cups">Cups</a>');
      expect(menu).not.toContain('secret');
      expect(menu).not.toContain('aria-current');
      // Grandchildren are on the category pages, not in the header.
      expect(menu).not.toContain('/shop/c/kava-caj/brewing/pots');
      expect(menuOf((await html('/').expect(200)).text)).toEqual(menu);
    });

    it('marks where the shopper is', async () => {
      const menu = menuOf((await html('/shop/c/kava-caj/brewing').expect(200)).text);
      expect(menu).toContain('<a href="/shop/c/kava-caj" aria-current="true">Káva &amp; Čaj</a>');
      expect(menu).toContain('<a href="/shop/c/kava-caj/brewing" aria-current="page">Brewing</a>');
    });

    it('drops a category hidden (with what is under it) from the menu', async () => {
      const categories = shop.dataSource.getRepository(Category);
      await categories.update({ path: 'other-shelf' }, { visible: false });
      shop.app.get(ShopCategories).forget();
      try {
        const menu = menuOf((await html('/shop/catalog/products').expect(200)).text);
        expect(menu).not.toContain('/shop/c/other-shelf');
        await html('/shop/c/other-shelf').expect(404);
      } finally {
        await categories.update({ path: 'other-shelf' }, { visible: true });
        shop.app.get(ShopCategories).forget();
      }
    });

    it('shows a product’s primary category trail and more from that category on its page', async () => {
      const slug = (await shop.dataSource.getRepository(Product).findOneByOrFail({ sku: 'CAT-A' })).slug;
      const page = (await html(`/shop/p/${slug}`).expect(200)).text;
      const crumbs = /<nav class="breadcrumbs" aria-label="Breadcrumbs">([\s\S]*?)<\/nav>/.exec(page)![1];
      expect([...crumbs.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((item) => item[1])).toEqual([
        '<a href="/">Home</a>',
        '<a href="/shop/c/kava-caj">Káva &amp; Čaj</a>',
        '<a href="/shop/c/kava-caj/brewing">Brewing</a>',
        '<span aria-current="page">Alpha Tea Kettle</span>',
      ]);
      const more = /<section class="more-from-category"[\s\S]*?<\/section>/.exec(page)![0];
      expect(more).toContain('<h2 id="more-from-category-heading">More from Brewing</h2>');
      expect([...more.matchAll(/<span class="name">([^<]+)<\/span>/g)].map((card) => card[1])).toEqual([
        'Charlie Pot',
        'Echo Filter',
      ]);
      // On a product page the menu marks its category's branch, not a page of its own.
      const menu = menuOf(page);
      expect(menu).toContain('<a href="/shop/c/kava-caj/brewing" aria-current="true">Brewing</a>');
      expect(menu).not.toContain('aria-current="page"');

      // A product in a hidden category only has no trail.
      const hidden = (await shop.dataSource.getRepository(Product).findOneByOrFail({ sku: 'CAT-F' })).slug;
      const hiddenPage = (await html(`/shop/p/${hidden}`).expect(200)).text;
      expect(hiddenPage).not.toContain('class="breadcrumbs"');
      expect(hiddenPage).not.toContain('more-from-category');
    });
  });

  it('exports categories that import back unchanged', async () => {
    const admin = new ShopClient(shop.server);
    const exported = await exportedRows(admin);
    const categoriesOf = (sku: string) => exported.find((row) => row.sku === sku)!.categories;
    expect(categoriesOf('CAT-A')).toEqual(['Káva & Čaj/Brewing', 'Gifts For Tea']);
    expect(categoriesOf('CAT-C')).toEqual(['Káva & Čaj/Brewing/Pots']);
    expect(categoriesOf('DEMO-KETTLE-CAMP')).toEqual(['Camping/Camp Kitchen', 'Coffee/Brewing']);
    const before = await shop.dataSource.getRepository(Category).find({ order: { id: 'ASC' } });
    const token = await admin.csrfToken();
    const report = await admin.agent
      .post('/admin/products/import')
      .set('Accept', 'text/html')
      .field('_csrf', token)
      .attach('file', Buffer.from(JSON.stringify(exported)), 'catalog.json')
      .expect(200);
    expect(report.text).toMatch(/<dt>Rejected<\/dt><dd>0<\/dd>/);
    expect(await shop.dataSource.getRepository(Category).find({ order: { id: 'ASC' } })).toEqual(before);
    expect(await placements()).toEqual(IMPORTED);
    const again = JSON.parse((await admin.get('/admin/products/export.json').expect(200)).text);
    expect(again).toEqual(exported);
  });
  it('finds a category whose slug staff changed by its name when its export is imported again', async () => {
    const categories = shop.dataSource.getRepository(Category);
    const brewing = await categories.findOneByOrFail({ path: 'kava-caj/brewing' });
    await shop.app.get(CategoryAdmin).update(
      brewing.id,
      {
        name: brewing.name,
        slug: 'brew',
        parentId: brewing.parentId,
        description: brewing.description,
        image: brewing.image,
        visible: brewing.visible,
        metaTitle: brewing.metaTitle,
        metaDescription: brewing.metaDescription,
      },
      'test',
    );
    const exported = await exportedRows(new ShopClient(shop.server));
    expect(exported.find((row) => row.sku === 'CAT-E')!.categories).toEqual(['Káva & Čaj/Brewing']);
    const before = await categories.find({ order: { id: 'ASC' } });
    const placed = () =>
      shop.dataSource.getRepository(ProductCategory).find({ order: { productId: 'ASC', categoryId: 'ASC' } });
    const placedBefore = await placed();
    expect(await importRows(exported)).toMatchObject({ rejected: [] });
    expect(await categories.find({ order: { id: 'ASC' } })).toEqual(before);
    expect(
      (await placed()).map(({ productId, categoryId, isPrimary }) => ({ productId, categoryId, isPrimary })),
    ).toEqual(placedBefore.map(({ productId, categoryId, isPrimary }) => ({ productId, categoryId, isPrimary })));
    // A name new under the re-slugged category lands under it, not under a new `brewing`.
    await importRows([{ ...ROWS[0], categories: ['Káva & Čaj/Brewing/Kettles'] }]);
    expect(await categories.findOneBy({ path: 'kava-caj/brewing' })).toBeNull();
    expect((await categories.findOneByOrFail({ path: 'kava-caj/brew/kettles' })).parentId).toBe(brewing.id);
  });
});
