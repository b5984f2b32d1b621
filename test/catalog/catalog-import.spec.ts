import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { In } from 'typeorm';
import { CartLine } from '../../src/commerce/carts/cart-line.entity';
import { ProductRelation } from '../../src/commerce/products/product-relation.entity';
import { ProductVariant } from '../../src/commerce/products/product-variant.entity';
import { Product } from '../../src/commerce/products/product.entity';
import { AJAX } from '../support/checkout';
import { runCli } from '../support/cli';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp } from '../support/test-app';

const NOUNS = ['Tent', 'Mug', 'Stove', 'Lantern', 'Kettle', 'Blanket', 'Bottle', 'Chair', 'Grinder', 'Beanie'];
const ADJECTIVES = ['Alpine', 'Coastal', 'Forest', 'Urban', 'Desert', 'Polar', 'Summit', 'Valley', 'River', 'Canyon'];
const FILLER = 'sturdy light warm packable durable classic compact roomy quiet bright'.split(' ');

/** `count` products; a few carry the rare word "quokka": four in the name, five in the description only. */
function generateCatalog(count: number) {
  return Array.from({ length: count }, (_, i) => {
    const inName = i % 3001 === 7;
    const inDescription = i % 1999 === 11;
    const name = `${ADJECTIVES[i % 10]} ${NOUNS[Math.floor(i / 10) % 10]}${inName ? ' Quokka' : ''} ${i}`;
    const words = Array.from({ length: 12 }, (_, k) => FILLER[(i * 7 + k * 3) % FILLER.length]);
    if (inDescription) words.splice(6, 0, 'quokka');
    return {
      sku: `BULK-${String(i).padStart(5, '0')}`,
      name,
      price: (i % 500) + 0.99,
      stock: i % 17,
      visible: i % 50 !== 0,
      description: `${words.join(' ')}.`,
      images: [`/public/images/products/bulk-${i}.svg`],
      // Relations point forward into later batches as well as back.
      related: [`BULK-${String((i + 600) % count).padStart(5, '0')}`],
    };
  });
}

describe('catalog:import', () => {
  let shop: TestApp;
  let dir: string;
  beforeAll(async () => {
    shop = await startTestApp();
    dir = mkdtempSync(join(tmpdir(), 'catalog-import-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await shop.close();
  });

  const writeJson = (name: string, value: unknown) => {
    const file = join(dir, name);
    writeFileSync(file, JSON.stringify(value));
    return file;
  };
  const search = (q: string) =>
    request(shop.server)
      .get(`/shop/catalog/search-results?q=${encodeURIComponent(q)}&perPage=100`)
      .set('Accept', 'application/json')
      .expect(200)
      .then((res) => res.body as { products: Array<{ sku: string; name: string }>; total: number });

  it('imports 10,000 products in one run, idempotently, and they are searchable by relevance', async () => {
    const catalog = generateCatalog(10_000);
    const file = writeJson('bulk.json', catalog);

    const started = Date.now();
    const first = await runCli(shop.place, 'catalog:import', file);
    const seconds = (Date.now() - started) / 1000;
    expect(first.json).toEqual({
      ok: true,
      created: 10_000,
      updated: 0,
      rejected: 0,
      errors: [],
      rejectedImages: 0,
      imageErrors: [],
    });
    expect(seconds).toBeLessThan(40);
    process.stdout.write(`catalog:import of 10,000 products took ${seconds.toFixed(1)} s\n`);

    const products = shop.dataSource.getRepository(Product);
    expect(await products.countBy({ sku: In(['BULK-00000', 'BULK-09999']) })).toBe(2);
    const sample = await products.findOneByOrFail({ sku: 'BULK-00123' });
    expect(sample).toMatchObject({ name: 'Urban Stove 123', price: 12399, stock: 4, visible: true, type: 'simple' });
    const forward = await shop.dataSource.getRepository(ProductRelation).findOneByOrFail({ productId: sample.id });
    expect((await products.findOneByOrFail({ id: forward.relatedProductId })).sku).toBe('BULK-00723');
    const lastToFirst = await shop.dataSource
      .getRepository(ProductRelation)
      .findOneByOrFail({ productId: (await products.findOneByOrFail({ sku: 'BULK-09999' })).id });
    expect((await products.findOneByOrFail({ id: lastToFirst.relatedProductId })).sku).toBe('BULK-00599');

    // The rare word: name hits (i % 3001 === 7) first, then description-only hits (i % 1999 === 11).
    const found = await search('quokka');
    const skus = found.products.map((product) => product.sku);
    expect(found.total).toBe(9);
    expect(skus.slice(0, 4).sort()).toEqual(['BULK-00007', 'BULK-03008', 'BULK-06009', 'BULK-09010']);
    expect(skus.slice(4).sort()).toEqual(['BULK-00011', 'BULK-02010', 'BULK-04009', 'BULK-06008', 'BULK-08007']);
    const narrowed = await search('quokka river');
    // Both words in the name beats "river" in the name and "quokka" in the description.
    expect(narrowed.products.map((product) => product.sku)).toEqual(['BULK-03008', 'BULK-06008']);
    // Hidden rows (every 50th) are imported but never found.
    expect((await search('BULK-00050')).products.map((product) => product.sku)).not.toContain('BULK-00050');
    expect((await search('BULK-00051')).products[0].sku).toBe('BULK-00051');

    const restarted = Date.now();
    const again = await runCli(shop.place, 'catalog:import', file);
    process.stdout.write(
      `catalog:import of the same 10,000 again took ${((Date.now() - restarted) / 1000).toFixed(1)} s\n`,
    );
    expect(again.json).toEqual({
      ok: true,
      created: 0,
      updated: 10_000,
      rejected: 0,
      errors: [],
      rejectedImages: 0,
      imageErrors: [],
    });
    expect(await products.count()).toBe(35 + 10_000);
    expect(await shop.dataSource.getRepository(ProductRelation).countBy({ productId: sample.id })).toBe(1);
    expect((await search('quokka')).total).toBe(9);
  });

  it('reports bad rows by line, skips them whole and imports the rest', async () => {
    const good = { sku: 'IMP-GOOD', name: 'Good Import Lamp', price: 19.99, stock: 3, crossSell: ['IMP-TEE'] };
    const rows: unknown[] = [
      good,
      { sku: 'IMP-PRICE', name: 'Too Precise', price: 1.005, stock: 1 },
      { sku: 'IMP-NEG', name: 'Negative', price: -1, stock: -2 },
      'not an object',
      { name: 'No SKU', price: 1, stock: 1 },
      { sku: 'IMP-GOOD', name: 'Duplicate', price: 1, stock: 1 },
      {
        sku: 'IMP-TEE',
        name: 'Import Tee',
        price: 20,
        stock: 0,
        options: [{ code: 'size', label: 'Size', values: ['S', 'M'] }],
        variants: [
          { sku: 'IMP-TEE-S', options: { size: 'S' }, stock: 4 },
          { sku: 'IMP-TEE-M', options: { size: 'M' }, price: 22.5, stock: 1 },
        ],
      },
      {
        sku: 'IMP-HALF',
        name: 'Half Valid Tee',
        price: 20,
        stock: 0,
        options: [{ code: 'size', label: 'Size', values: ['S', 'M'] }],
        variants: [
          { sku: 'IMP-HALF-S', options: { size: 'S' }, stock: 4 },
          { sku: 'IMP-HALF-X', options: { size: 'XL' }, stock: 1 },
        ],
      },
      {
        sku: 'IMP-OPTS',
        name: 'Options Without Variants',
        price: 5,
        stock: 1,
        options: [{ code: 'c', values: ['a'] }],
      },
      { sku: 'IMP-REL', name: 'Bad Relations', price: 5, stock: 1, related: 'IMP-GOOD' },
      // Clashes only the database can see: another product's variant SKU, another product's slug.
      {
        sku: 'IMP-CLASH',
        name: 'Clash Tee',
        price: 5,
        stock: 0,
        options: [{ code: 'size', label: 'Size', values: ['S'] }],
        variants: [{ sku: 'DEMO-PACK-DAY-20L', options: { size: 'S' }, stock: 1 }],
      },
      { sku: 'IMP-SLUG', name: 'Slug Thief', slug: 'ridgeline-2-person-tent', price: 5, stock: 1 },
      { sku: 'IMP-STOCK', name: 'Fractional Stock', price: 5, stock: 1.5 },
    ];
    const res = await runCli(shop.place, 'catalog:import', writeJson('mixed.json', rows));
    expect(res.code).toBe(0);
    expect(res.json).toMatchObject({ ok: true, created: 2, updated: 0, rejected: 11 });
    const errors = res.json.errors as Array<{ line: number; sku: string | null; message: string }>;
    expect(errors.map((error) => [error.line, error.sku])).toEqual([
      [2, 'IMP-PRICE'],
      [3, 'IMP-NEG'],
      [4, null],
      [5, null],
      [6, 'IMP-GOOD'],
      [8, 'IMP-HALF'],
      [9, 'IMP-OPTS'],
      [10, 'IMP-REL'],
      [11, 'IMP-CLASH'],
      [12, 'IMP-SLUG'],
      [13, 'IMP-STOCK'],
    ]);
    const message = (line: number) => errors.find((error) => error.line === line)!.message;
    expect(message(2)).toBe('price must be a number ≥ 0 with at most 2 decimals');
    expect(message(3)).toBe('price must be a number ≥ 0 with at most 2 decimals; stock must be a whole number ≥ 0');
    expect(message(4)).toBe('must be an object');
    expect(message(5)).toContain('sku is required');
    expect(message(6)).toBe('duplicate SKU IMP-GOOD, first given on line 1');
    expect(message(8)).toContain('variants[1].options must pick one value of each option (size)');
    expect(message(9)).toContain('options need variants');
    expect(message(10)).toContain('related must be a list of texts');
    expect(message(11)).toBe('variant SKU DEMO-PACK-DAY-20L belongs to another product');
    expect(message(12)).toBe('slug ridgeline-2-person-tent is already used by SKU DEMO-TENT-2P');

    const products = shop.dataSource.getRepository(Product);
    const imported = await products.findBy({ sku: In(rows.map((row) => (row as { sku?: string }).sku ?? '')) });
    expect(imported.map((product) => product.sku).sort()).toEqual(['IMP-GOOD', 'IMP-TEE']);
    // Nothing of a rejected row was written, not even its valid variants.
    expect(await shop.dataSource.getRepository(ProductVariant).countBy({ sku: 'IMP-HALF-S' })).toBe(0);
    expect((await products.findOneByOrFail({ sku: 'DEMO-TENT-2P' })).name).toBe('Ridgeline 2-Person Tent');

    const tee = imported.find((product) => product.sku === 'IMP-TEE')!;
    expect(tee).toMatchObject({ type: 'configurable', stock: 5, price: 2000, slug: 'import-tee' });
    const variants = await shop.dataSource.getRepository(ProductVariant).find({ where: { productId: tee.id } });
    expect(variants.map((variant) => [variant.sku, variant.price, variant.stock]).sort()).toEqual([
      ['IMP-TEE-M', 2250, 1],
      ['IMP-TEE-S', null, 4],
    ]);
    const lamp = imported.find((product) => product.sku === 'IMP-GOOD')!;
    expect(await shop.dataSource.getRepository(ProductRelation).findBy({ productId: lamp.id })).toEqual([
      expect.objectContaining({ relatedProductId: tee.id, kind: 'cross_sell' }),
    ]);

    const page = await request(shop.server)
      .get('/shop/p/good-import-lamp')
      .set('Accept', 'application/json')
      .expect(200);
    expect(page.body.product).toMatchObject({ sku: 'IMP-GOOD', price: 19.99 });
  });

  it('gives a product whose name slug is taken a slug of its own and keeps it on re-import', async () => {
    const file = writeJson('same-name.json', [
      { sku: 'IMP-TENT-COPY', name: 'Ridgeline 2-Person Tent', price: 1, stock: 1 },
    ]);
    expect((await runCli(shop.place, 'catalog:import', file)).json).toMatchObject({ created: 1, rejected: 0 });
    const copy = await shop.dataSource.getRepository(Product).findOneByOrFail({ sku: 'IMP-TENT-COPY' });
    expect(copy.slug).toBe('ridgeline-2-person-tent-imp-tent-copy');
    expect((await runCli(shop.place, 'catalog:import', file)).json).toMatchObject({ created: 0, updated: 1 });
    expect((await shop.dataSource.getRepository(Product).findOneByOrFail({ sku: 'IMP-TENT-COPY' })).slug).toBe(
      copy.slug,
    );
  });

  it("runs beside a shop that keeps selling, and neither fails for the other's writes", async () => {
    const file = writeJson(
      'live.json',
      Array.from({ length: 3_000 }, (_, i) => ({ sku: `LIVE-${i}`, name: `Live Import ${i}`, price: 5, stock: 3 })),
    );
    const products = shop.dataSource.getRepository(Product);
    const product = await products.findOneByOrFail({ slug: 'ridgeline-2-person-tent' });
    await products.update(product.id, { stock: 1_000_000 });
    const client = new ShopClient(shop.server);
    const token = await client.csrfToken();

    let importing = true;
    const imported = runCli(shop.place, 'catalog:import', file).finally(() => (importing = false));
    // Each add reads the product and the cart, then writes: the shape of transaction another process's writes
    // between its read and its write used to fail at once.
    const statuses: number[] = [];
    while (importing) {
      const res = await client.agent
        .post('/shop/cart/add')
        .set('X-CSRF-Token', token)
        .set(AJAX)
        .send({ product: product.id, qty: 1 });
      statuses.push(res.status);
    }

    expect((await imported).json).toEqual({
      ok: true,
      created: 3_000,
      updated: 0,
      rejected: 0,
      errors: [],
      rejectedImages: 0,
      imageErrors: [],
    });
    expect(statuses.length).toBeGreaterThan(5);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const lines = await shop.dataSource.getRepository(CartLine).findBy({ productId: product.id });
    expect(lines.map((line) => line.qty)).toEqual([statuses.length]);
  });

  it('fails with one JSON error line for a file it cannot use', async () => {
    const missing = await runCli(shop.place, 'catalog:import', join(dir, 'missing.json'));
    expect(missing.code).toBe(1);
    expect(missing.json).toMatchObject({ ok: false, error: { code: 'validation_failed' } });
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '[{"sku": ');
    expect((await runCli(shop.place, 'catalog:import', broken)).json).toMatchObject({
      ok: false,
      error: { fields: { file: ['is not valid JSON'] } },
    });
    const object = await runCli(shop.place, 'catalog:import', writeJson('object.json', { sku: 'X' }));
    expect(object.json).toMatchObject({ ok: false, error: { message: expect.stringContaining('JSON array') } });
  });
});
