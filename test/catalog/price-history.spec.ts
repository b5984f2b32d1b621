import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { IsNull } from 'typeorm';
import { CouponService } from '../../src/commerce/coupons/coupon.service';
import { shopDateTime } from '../../src/commerce/delivery/shop-calendar';
import { PriceChange } from '../../src/commerce/products/price-history.entity';
import { ProductVariant } from '../../src/commerce/products/product-variant.entity';
import { Product } from '../../src/commerce/products/product.entity';
import { CatalogListingPaidPrice1795815000000 } from '../../src/database/migrations/1795815000000-catalog-listing-paid-price';
import { PriceHistory1795787259002 } from '../../src/database/migrations/1795787259002-price-history';
import { addToCart } from '../support/checkout';
import { runCli } from '../support/cli';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp, usingMysql } from '../support/test-app';

const DAY = 24 * 60 * 60 * 1000;

/**
 * Honest discounts (Directive 98/6/EC Art. 6a): the price history, sale prices, and the reference price an
 * announced reduction is computed from. Time is not faked: past prices are history rows written with past times.
 */
describe(`price history and sales (${usingMysql ? 'mysql' : 'sqlite'})`, () => {
  let shop: TestApp;
  let staff: ShopClient;
  let dir: string;
  beforeAll(async () => {
    shop = await startTestApp();
    staff = new ShopClient(shop.server);
    await staff.loginCp();
    await shop.app.get(CouponService).create({ code: 'TENPERCENT', type: 'percent', value: 10 });
    dir = mkdtempSync(join(tmpdir(), 'price-history-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await shop.close();
  });

  const product = (sku: string) => shop.dataSource.getRepository(Product).findOneByOrFail({ sku });
  const history = async (sku: string, variantId: number | null = null) =>
    shop.dataSource.getRepository(PriceChange).find({
      where: { productId: (await product(sku)).id, variantId: variantId ?? IsNull() },
      order: { changedAt: 'ASC', id: 'ASC' },
    });

  /** Replaces a product's history with `prices` ([price, days ago]) and sets it at the last one, no sale. */
  async function pastPrices(sku: string, prices: Array<[number, number]>) {
    const { id } = await product(sku);
    await shop.dataSource.getRepository(PriceChange).delete({ productId: id, variantId: IsNull() });
    const now = Date.now();
    for (const [price, daysAgo] of prices) {
      await shop.dataSource
        .getRepository(PriceChange)
        .insert({ productId: id, variantId: null, currency: 'EUR', price, changedAt: now - daysAgo * DAY });
    }
    await shop.dataSource
      .getRepository(Product)
      .update({ id }, { price: prices.at(-1)![0], salePrice: null, saleStartsAt: null, saleEndsAt: null });
  }

  /** Saves the CP form of a simple product: its price, sale fields, and the stock and switches it had. */
  async function saveForm(sku: string, fields: Record<string, string>) {
    const current = await product(sku);
    return staff.submitForm(`/admin/products/${current.id}`, {
      stock: String(current.stock),
      visible: '1',
      enabled: '1',
      ...fields,
    });
  }

  const listed = async (sku: string, query = 'perPage=100') => {
    const res = await request(shop.server)
      .get(`/shop/catalog/products?${query}`)
      .set('Accept', 'application/json')
      .expect(200);
    return res.body.products.find((entry: { sku: string }) => entry.sku === sku);
  };
  const page = (slug: string) =>
    request(shop.server)
      .get(`/shop/p/${slug}`)
      .set('Accept', 'text/html')
      .expect(200)
      .then((res) => res.text);

  it('was 100, then 80 for 40 days: a sale at 60 announces 80 as the reference and -25 %', async () => {
    await pastPrices('DEMO-TENT-2P', [
      [10000, 70],
      [8000, 40],
    ]);
    const before = Date.now();
    expect((await saveForm('DEMO-TENT-2P', { price: '80', salePrice: '60' })).status).toBe(303);

    const tent = await product('DEMO-TENT-2P');
    expect(tent).toMatchObject({ price: 8000, salePrice: 6000, saleEndsAt: null });
    expect(tent.saleStartsAt).toBeGreaterThanOrEqual(before);
    // The CP edit wrote the sale's start into the history, in the same save.
    expect((await history('DEMO-TENT-2P')).map((row) => row.price)).toEqual([10000, 8000, 6000]);

    const card = await listed('DEMO-TENT-2P');
    expect(card).toMatchObject({
      price: 60,
      currency: 'EUR',
      reduction: {
        referencePrice: 80,
        referencePriceMinor: 8000,
        percent: 25,
        startsAt: new Date(tent.saleStartsAt!).toISOString(),
        endsAt: null,
      },
    });
    const json = await request(shop.server)
      .get('/shop/p/ridgeline-2-person-tent')
      .set('Accept', 'application/json')
      .expect(200);
    expect(json.body.product).toMatchObject({ price: 60, reduction: { referencePrice: 80, percent: 25 } });

    const html = await page('ridgeline-2-person-tent');
    expect(html).toContain('<span class="sale-badge">-25 %</span>');
    expect(html).toMatch(/<s class="reference-price">.*€80\.00<\/s> <span class="sale-price">€60\.00<\/span>/);
    expect(html).toContain('Lowest price of the 30 days before the sale: €80.00');
    const listing = await request(shop.server)
      .get('/shop/catalog/products?perPage=100')
      .set('Accept', 'text/html')
      .expect(200);
    expect(listing.text).toContain('-25 %');

    // The reference follows the shopper's currency; the percentage stays the one computed in the base currency.
    const czk = new ShopClient(shop.server);
    await czk.post('/shop/currency/set', { currency: 'CZK' });
    const inCzk = (await czk.get('/shop/catalog/products?perPage=100').set('Accept', 'application/json')).body.products;
    expect(inCzk.find((entry: { sku: string }) => entry.sku === 'DEMO-TENT-2P')).toMatchObject({
      price: 1518,
      currency: 'CZK',
      reduction: { referencePrice: 2024, referencePriceMinor: 202400, percent: 25 },
    });

    // The cart charges the sale price.
    const shopper = new ShopClient(shop.server);
    expect((await addToCart(shopper, tent.id)).body.product).toMatchObject({ sku: 'DEMO-TENT-2P', price: 60 });
    const init = await shopper.get('/shop/checkout/get-init-values').expect(200);
    expect(init.body.cart).toMatchObject({ subtotal: 60, items: [{ sku: 'DEMO-TENT-2P', price: 60 }] });
  });

  it('filters and sorts the listing by the price a shopper pays', async () => {
    expect(await listed('DEMO-TENT-2P', 'perPage=100&maxPrice=60')).toMatchObject({ price: 60 });
    expect(await listed('DEMO-TENT-2P', 'perPage=100&minPrice=61')).toBeUndefined();
    const cheapestFirst = await request(shop.server)
      .get('/shop/catalog/products?perPage=100&sort=price_asc')
      .set('Accept', 'application/json')
      .expect(200);
    const prices = cheapestFirst.body.products.map((entry: { price: number }) => entry.price);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect(prices).toContain(60);
  });

  it('once the sale has ended, the regular price is back and no reduction is announced', async () => {
    const tent = await product('DEMO-TENT-2P');
    // Time passing: the sale was set to end a moment ago, so the history holds its end from then.
    const ended = Date.now() - 1;
    await shop.dataSource.getRepository(Product).update({ id: tent.id }, { saleEndsAt: ended });
    await shop.dataSource
      .getRepository(PriceChange)
      .insert({ productId: tent.id, variantId: null, currency: 'EUR', price: 8000, changedAt: ended });
    expect(await listed('DEMO-TENT-2P')).toMatchObject({ price: 80, reduction: null });
    const html = await page('ridgeline-2-person-tent');
    expect(html).not.toContain('sale-badge');
    expect(html).not.toContain('reference-price');
    expect(html).toContain('€80.00');
    const shopper = new ShopClient(shop.server);
    expect((await addToCart(shopper, tent.id)).body.product).toMatchObject({ price: 80 });

    // Staff clearing the ended sale change no price: the history gets no row.
    expect((await saveForm('DEMO-TENT-2P', { price: '80', salePrice: '' })).status).toBe(303);
    expect(await product('DEMO-TENT-2P')).toMatchObject({ salePrice: null, saleStartsAt: null, saleEndsAt: null });
    expect((await history('DEMO-TENT-2P')).map((row) => row.price)).toEqual([10000, 8000, 6000, 8000]);
  });

  it('a sale within 30 days after a price drop is measured against the lower price', async () => {
    await pastPrices('DEMO-TENT-4P', [
      [10000, 100],
      [9000, 10],
    ]);
    await saveForm('DEMO-TENT-4P', { price: '90', salePrice: '60' });
    expect(await listed('DEMO-TENT-4P')).toMatchObject({
      price: 60,
      reduction: { referencePrice: 90, percent: 33 },
    });
  });

  it('announces no reduction when the reference is not above the sale price', async () => {
    // A sale at 60 ended five days ago; a new sale at 60 is no reduction from the 30 days before it.
    await pastPrices('DEMO-TENT-4P', [
      [10000, 100],
      [6000, 20],
      [10000, 5],
    ]);
    await saveForm('DEMO-TENT-4P', { price: '100', salePrice: '60' });
    expect(await listed('DEMO-TENT-4P')).toMatchObject({ price: 60, reduction: null });
    const html = await page((await product('DEMO-TENT-4P')).slug);
    expect(html).not.toContain('sale-badge');
    expect(html).toContain('€60.00');
  });

  it('plans a future sale in the history and keeps a running sale’s start when the form is saved again', async () => {
    const { id } = await product('DEMO-TENT-4P');
    await saveForm('DEMO-TENT-4P', { price: '100', salePrice: '' });
    // The form takes whole minutes.
    const start = Math.ceil((Date.now() + 2 * DAY) / 60_000) * 60_000;
    const end = start + 7 * DAY;
    const zone = 'Europe/Bratislava';
    const saved = await saveForm('DEMO-TENT-4P', {
      price: '100',
      salePrice: '75',
      saleStartsAt: shopDateTime(zone, start),
      saleEndsAt: shopDateTime(zone, end),
    });
    expect(saved.status).toBe(303);
    const planned = (await history('DEMO-TENT-4P')).filter((row) => row.changedAt > Date.now());
    expect(planned.map((row) => [row.price, (row.changedAt - start) / 60_000])).toEqual([
      [7500, 0],
      [10000, 7 * 24 * 60],
    ]);
    expect(await listed('DEMO-TENT-4P')).toMatchObject({ price: 100, reduction: null });

    // Called off: the plan goes with it.
    await saveForm('DEMO-TENT-4P', { price: '100', salePrice: '' });
    expect((await history('DEMO-TENT-4P')).filter((row) => row.changedAt > Date.now())).toEqual([]);

    // A running sale saved again as the form shows it keeps its start, and so its reference.
    await saveForm('DEMO-TENT-4P', { price: '100', salePrice: '70' });
    const running = await product('DEMO-TENT-4P');
    const form = await staff.get(`/admin/products/${id}`).set('Accept', 'text/html').expect(200);
    const shownStart = /name="saleStartsAt" value="([^"]+)"/.exec(form.text)![1];
    expect(form.text).toContain('name="salePrice" value="70.00"');
    await saveForm('DEMO-TENT-4P', { price: '100', salePrice: '70.00', saleStartsAt: shownStart });
    expect((await product('DEMO-TENT-4P')).saleStartsAt).toBe(running.saleStartsAt);
  });

  it('refuses a sale price not below the price and an end before the start, naming the fields', async () => {
    const { id } = await product('DEMO-TENT-4P');
    const res = await staff.post(`/admin/products/${id}`, {
      price: '50',
      salePrice: '70',
      saleStartsAt: '2099-01-02T10:00',
      saleEndsAt: '2099-01-01T10:00',
      stock: '1',
    });
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toEqual({
      salePrice: ['must be below the price'],
      saleEndsAt: ['must be after the sale start'],
    });
    const bad = await staff.post(`/admin/products/${id}`, {
      price: '50',
      salePrice: 'cheap',
      saleStartsAt: 'tomorrow',
      stock: '1',
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['salePrice', 'saleStartsAt']);
    expect(await product('DEMO-TENT-4P')).toMatchObject({ price: 10000, salePrice: 7000 });
  });

  it('an ended sale saved again with its old start starts anew: no reduction from before it ended', async () => {
    // 100, then a sale at 80 from 25 to 15 days ago; the regular price since.
    await pastPrices('DEMO-TENT-4P', [
      [10000, 100],
      [8000, 25],
      [10000, 15],
    ]);
    const { id } = await product('DEMO-TENT-4P');
    const oldStart = Date.now() - 25 * DAY;
    await shop.dataSource
      .getRepository(Product)
      .update({ id }, { salePrice: 8000, saleStartsAt: oldStart, saleEndsAt: Date.now() - 15 * DAY });
    // Staff restart it as the form pre-fills it: the old start, no end.
    const saved = await saveForm('DEMO-TENT-4P', {
      price: '100',
      salePrice: '80.00',
      saleStartsAt: shopDateTime('Europe/Bratislava', Math.ceil(oldStart / 60_000) * 60_000),
    });
    expect(saved.status).toBe(303);
    const restarted = await product('DEMO-TENT-4P');
    expect(restarted.saleStartsAt).toBeGreaterThan(Date.now() - 60_000);
    // The 30 days before the new start held 80: no reduction may be announced (the old start would show -20 %).
    expect(await listed('DEMO-TENT-4P')).toMatchObject({ price: 80, reduction: null });
  });

  it('a coupon is no price reduction: the cart shows no reference price', async () => {
    const tent = await product('DEMO-TENT-2P');
    const shopper = new ShopClient(shop.server);
    await addToCart(shopper, tent.id);
    const withCoupon = await shopper.post('/shop/cart/add-coupon', { coupon_code: 'tenpercent' });
    expect(withCoupon.status).toBe(200);
    expect(withCoupon.body.cart).toMatchObject({ couponCode: 'TENPERCENT', subtotal: 80, discount: 8, total: 72 });
    for (const item of withCoupon.body.cart.items) expect(Object.keys(item)).not.toContain('reduction');
    const cartPage = await shopper.get('/shop/cart').set('Accept', 'text/html').expect(200);
    expect(cartPage.text).not.toContain('reference-price');
    expect(cartPage.text).not.toContain('sale-badge');
    expect(await listed('DEMO-TENT-2P')).toMatchObject({ price: 80, reduction: null });
  });

  // Four runs of the CLI, each a process that starts the application.
  it('catalog:import sets sales, writes the history once per change, and refuses a sale that is no sale', async () => {
    const file = join(dir, 'sale.json');
    const rows = [
      {
        sku: 'SALE-LAMP',
        name: 'Sale Lamp',
        price: 40,
        stock: 5,
        sale: { price: 30, endsAt: '2099-01-01T00:00:00+01:00' },
      },
      {
        sku: 'SALE-SOCKS',
        name: 'Sale Socks',
        price: 12,
        stock: 0,
        options: [{ code: 'size', label: 'Size', values: ['S', 'L'] }],
        variants: [
          { sku: 'SALE-SOCKS-S', options: { size: 'S' }, stock: 3 },
          { sku: 'SALE-SOCKS-L', options: { size: 'L' }, price: 14, sale: { price: 10 }, stock: 3 },
        ],
      },
    ];
    writeFileSync(file, JSON.stringify(rows));
    const first = await runCli(shop.place, 'catalog:import', file);
    expect(first.code).toBe(0);
    expect(await product('SALE-LAMP')).toMatchObject({
      price: 4000,
      salePrice: 3000,
      saleEndsAt: Date.parse('2099-01-01T00:00:00+01:00'),
    });
    const lampHistory = await history('SALE-LAMP');
    // New with a sale already on: its first price is the sale price, and the sale's end is planned.
    expect(lampHistory.map((row) => row.price)).toEqual([3000, 4000]);
    // No price known before the sale: no reduction is announced.
    expect(await listed('SALE-LAMP')).toMatchObject({ price: 30, reduction: null });

    const variants = await shop.dataSource
      .getRepository(ProductVariant)
      .find({ where: { productId: (await product('SALE-SOCKS')).id }, order: { id: 'ASC' } });
    expect((await history('SALE-SOCKS', variants[0].id)).map((row) => row.price)).toEqual([1200]);
    expect((await history('SALE-SOCKS', variants[1].id)).map((row) => row.price)).toEqual([1000]);

    // The same file again changes nothing, the history included.
    const count = await shop.dataSource.getRepository(PriceChange).count();
    const { saleStartsAt } = await product('SALE-LAMP');
    expect((await runCli(shop.place, 'catalog:import', file)).code).toBe(0);
    expect(await shop.dataSource.getRepository(PriceChange).count()).toBe(count);
    expect((await product('SALE-LAMP')).saleStartsAt).toBe(saleStartsAt);

    // A new price is a new row; the socks' product price reaches the variant that follows it.
    rows[0] = { ...rows[0], sale: undefined as never };
    rows[1] = { ...rows[1], price: 11 };
    writeFileSync(file, JSON.stringify(rows));
    expect((await runCli(shop.place, 'catalog:import', file)).code).toBe(0);
    expect((await history('SALE-LAMP')).map((row) => row.price)).toEqual([3000, 4000]);
    expect((await history('SALE-SOCKS')).map((row) => row.price)).toEqual([1200, 1100]);
    expect((await history('SALE-SOCKS', variants[0].id)).map((row) => row.price)).toEqual([1200, 1100]);

    writeFileSync(
      file,
      JSON.stringify([
        { sku: 'SALE-BAD', name: 'Bad Sale', price: 10, stock: 1, sale: { price: 10 } },
        { sku: 'SALE-BAD-2', name: 'Bad Sale 2', price: 10, stock: 1, sale: { price: 5, startsAt: 'soon' } },
        {
          sku: 'SALE-BAD-3',
          name: 'Bad Sale 3',
          price: 10,
          stock: 1,
          options: [{ code: 'size', values: ['S'] }],
          variants: [{ sku: 'SALE-BAD-3-S', options: { size: 'S' }, stock: 1, sale: { price: 5 } }],
        },
        {
          sku: 'SALE-BAD-4',
          name: 'Bad Sale 4',
          price: 10,
          stock: 1,
          sale: { price: 5, endsAt: '2020-01-01T00:00:00Z' },
        },
      ]),
    );
    const refused = await runCli(shop.place, 'catalog:import', file);
    const output = JSON.stringify(refused.json.errors);
    expect(output).toContain('sale.price must be below the price');
    expect(output).toContain('sale.startsAt must be a date and time with a zone');
    expect(output).toContain("variants[0].sale needs a price of the variant's own");
    expect(output).toContain('the sale of SALE-BAD-4 ends before it can start');
    expect(await shop.dataSource.getRepository(Product).countBy({ sku: 'SALE-BAD' })).toBe(0);
    expect(await shop.dataSource.getRepository(Product).countBy({ sku: 'SALE-BAD-4' })).toBe(0);
  }, 240_000);

  // Last: it takes the schema back before the migration and forward again.
  it('the migration gives every product and variant a first history row at its price', async () => {
    const runner = shop.dataSource.createQueryRunner();
    try {
      // The later price index holds the sale columns this migration adds: it goes first and comes back last.
      await new CatalogListingPaidPrice1795815000000().down(runner);
      await new PriceHistory1795787259002().down(runner);
      await new PriceHistory1795787259002().up(runner);
      await new CatalogListingPaidPrice1795815000000().up(runner);
    } finally {
      await runner.release();
    }
    const rows = await shop.dataSource.getRepository(PriceChange).find();
    const products = await shop.dataSource.getRepository(Product).find();
    const variants = await shop.dataSource.getRepository(ProductVariant).find();
    expect(rows).toHaveLength(products.length + variants.length);
    const byId = new Map(products.map((entry) => [entry.id, entry]));
    for (const row of rows) {
      const variant = variants.find((entry) => entry.id === row.variantId);
      expect(row).toMatchObject({
        currency: 'EUR',
        price: variant?.price ?? byId.get(row.productId)!.price,
      });
      expect(row.changedAt).toBeGreaterThan(Date.now() - 60_000);
    }
    expect(products.every((entry) => entry.salePrice === null)).toBe(true);
  });
});
