import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { unitPriceMinor } from '../../src/commerce/products/net-quantity';
import { ProductSafety } from '../../src/commerce/products/product-safety.entity';
import { ProductVariant } from '../../src/commerce/products/product-variant.entity';
import { Product } from '../../src/commerce/products/product.entity';
import { productBySku } from '../support/catalog';
import { addToCart } from '../support/checkout';
import { runCli } from '../support/cli';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp } from '../support/test-app';

/** Intl puts a no-break space between a number and its unit; the pages keep it. */
const NBSP = '\u00a0';

const SAFETY = {
  manufacturerName: 'Kaffa Roasters Ltd.',
  manufacturerAddress: '12 Harbour Street\nPortland, OR 97201\nUSA',
  manufacturerContact: 'https://kaffa.example/contact',
  responsibleName: 'EU Rep s.r.o.',
  responsibleAddress: 'Hlavná 1\n040 01 Košice\nSlovakia',
  responsibleContact: 'rep@eu-rep.example',
  identifier: 'Batch K-2611',
  warnings: { en: 'Hot drinks burn. <script>alert(1)</script>', sk: 'Horúce nápoje popália.' },
};

describe('unit prices and product safety data', () => {
  let shop: TestApp;
  let dir: string;
  let cp: ShopClient;
  beforeAll(async () => {
    shop = await startTestApp();
    dir = mkdtempSync(join(tmpdir(), 'unit-prices-'));
    cp = new ShopClient(shop.server);
    await cp.loginCp();
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await shop.close();
  });

  const json = (path: string) => request(shop.server).get(path).set('Accept', 'application/json').expect(200);
  const html = (path: string, client?: ShopClient) =>
    (client ? client.get(path) : request(shop.server).get(path))
      .set('Accept', 'text/html')
      .expect(200)
      .then((res) => res.text);
  const importFile = async (rows: unknown[]) => {
    const file = join(dir, `import-${Date.now()}.json`);
    writeFileSync(file, JSON.stringify(rows));
    return runCli(shop.place, 'catalog:import', file);
  };

  it('rounds the unit price half up in minor units', () => {
    expect(unitPriceMinor(1290, { quantity: 250_000, unit: 'g' })).toBe(5160);
    expect(unitPriceMinor(749, { quantity: 750, unit: 'l' })).toBe(999); // 9.98666… per l
    expect(unitPriceMinor(1, { quantity: 2_000, unit: 'ml' })).toBe(500); // 2 ml for 0.01
    expect(unitPriceMinor(5, { quantity: 2_000, unit: 'kg' })).toBe(3); // 2.5 → 3
    expect(unitPriceMinor(4990, { quantity: 1_440, unit: 'm2' })).toBe(3465); // 34.652…
    expect(unitPriceMinor(350, { quantity: 50_000, unit: 'cm' })).toBe(700);
  });

  it('imports net quantities and safety data, and reports bad ones by line', async () => {
    const result = await importFile([
      {
        sku: 'UP-COFFEE',
        name: 'Unit Test Coffee',
        price: 12.9,
        stock: 9,
        netQuantity: 250,
        netUnit: 'g',
        safety: SAFETY,
      },
      { sku: 'UP-OIL', name: 'Unit Test Lamp Oil', price: 7.49, stock: 4, netQuantity: 0.75, netUnit: 'l' },
      { sku: 'UP-ZERO', name: 'Zero', price: 1, stock: 1, netQuantity: 0, netUnit: 'g' },
      { sku: 'UP-POUND', name: 'Pound', price: 1, stock: 1, netQuantity: 1, netUnit: 'lb' },
      { sku: 'UP-HALF', name: 'Half', price: 1, stock: 1, netQuantity: 1 },
      { sku: 'UP-FINE', name: 'Fine', price: 1, stock: 1, netQuantity: 0.0001, netUnit: 'kg' },
      { sku: 'UP-NOADDR', name: 'No address', price: 1, stock: 1, safety: { manufacturerName: 'Acme' } },
      {
        sku: 'UP-BADLINK',
        name: 'Bad link',
        price: 1,
        stock: 1,
        safety: { ...SAFETY, manufacturerContact: 'javascript:alert(1)', warnings: { de: 'Achtung' } },
      },
      { sku: 'UP-LONG', name: 'Long', price: 1, stock: 1, safety: { ...SAFETY, responsibleName: 'x'.repeat(256) } },
      { sku: 'UP-NOREP', name: 'Half a rep', price: 1, stock: 1, safety: { ...SAFETY, responsibleAddress: '' } },
    ]);
    expect(result.json).toMatchObject({ ok: true, created: 2, updated: 0, rejected: 8 });
    expect(result.json.errors).toEqual([
      { line: 3, sku: 'UP-ZERO', message: expect.stringContaining('netQuantity must be a number > 0') },
      { line: 4, sku: 'UP-POUND', message: 'netUnit must be one of kg, g, l, ml, m, cm, m2' },
      { line: 5, sku: 'UP-HALF', message: 'netUnit must be one of kg, g, l, ml, m, cm, m2' },
      { line: 6, sku: 'UP-FINE', message: expect.stringContaining('netQuantity must be a number > 0 with at most 3') },
      {
        line: 7,
        sku: 'UP-NOADDR',
        message:
          'safety.manufacturerAddress is required when the product has safety data; ' +
          'safety.manufacturerContact is required when the product has safety data',
      },
      {
        line: 8,
        sku: 'UP-BADLINK',
        message:
          'safety.warnings.de is not a shop language (en, sk); ' +
          'safety.manufacturerContact must be an e-mail address or an http(s) URL',
      },
      { line: 9, sku: 'UP-LONG', message: 'safety.responsibleName must be at most 255 characters' },
      { line: 10, sku: 'UP-NOREP', message: 'safety.responsibleAddress is required for the EU responsible person' },
    ]);
    const coffee = await productBySku(shop.dataSource, 'UP-COFFEE');
    expect(coffee).toMatchObject({ netQuantity: 250_000, netUnit: 'g' });
    expect(await shop.dataSource.getRepository(ProductSafety).findOneByOrFail({ productId: coffee.id })).toMatchObject(
      SAFETY,
    );
    expect(await productBySku(shop.dataSource, 'UP-OIL')).toMatchObject({ netQuantity: 750, netUnit: 'l' });
  });

  it('shows the unit price on the listing, as JSON and HTML', async () => {
    const listed = (await json('/shop/catalog/products?sort=newest&perPage=100')).body.products;
    const coffee = listed.find((product: { sku: string }) => product.sku === 'UP-COFFEE');
    expect(coffee.price).toBe(12.9);
    expect(coffee.unitPrice).toEqual({ quantity: 250, unit: 'g', price: 51.6, per: 'kg' });
    expect(listed.find((product: { sku: string }) => product.sku === 'UP-OIL').unitPrice).toEqual({
      quantity: 0.75,
      unit: 'l',
      price: 9.99,
      per: 'l',
    });
    expect(listed.find((product: { sku: string }) => product.sku === 'DEMO-TENT-2P').unitPrice).toBeNull();

    const page = await html('/shop/catalog/products?sort=newest&perPage=100');
    expect(page).toContain(`<span class="unit-price">250${NBSP}g (€51.60 per kg)</span>`);
    expect(page).toContain(`<span class="unit-price">0.75${NBSP}l (€9.99 per l)</span>`);
    // The demo's coffee: 11.90 for 250 g.
    expect(page).toContain(`250${NBSP}g (€47.60 per kg)`);
  });

  it('shows the unit price and the product safety section on the product page, escaped, in the page language', async () => {
    const product = (await json('/shop/p/unit-test-coffee')).body.product;
    expect(product.unitPrice).toEqual({ quantity: 250, unit: 'g', price: 51.6, per: 'kg' });
    expect(product.safety).toEqual(SAFETY);

    const page = await html('/shop/p/unit-test-coffee');
    expect(page).toContain(`<p class="unit-price" data-product-unit-price>250${NBSP}g (€51.60 per kg)</p>`);
    expect(page).toContain('<h2 id="product-safety-heading">Product safety</h2>');
    expect(page).toContain(
      'Kaffa Roasters Ltd.<span class="safety-address">12 Harbour Street\nPortland, OR 97201\nUSA',
    );
    expect(page).toContain('<a href="https://kaffa.example/contact" rel="nofollow">https://kaffa.example/contact</a>');
    expect(page).toContain('<dt>Responsible person in the EU</dt>');
    expect(page).toContain('<a href="mailto:rep@eu-rep.example" rel="nofollow">rep@eu-rep.example</a>');
    expect(page).toContain('<dd>Batch K-2611</dd>');
    expect(page).toContain('Hot drinks burn. &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).not.toContain('<script>alert(1)</script>');

    const slovak = new ShopClient(shop.server);
    expect((await slovak.submitForm('/shop/language/set', { language: 'sk' })).status).toBe(303);
    const sk = await html('/shop/p/unit-test-coffee', slovak);
    expect(sk).toContain(`250${NBSP}g (51,60${NBSP}€ za kg)`);
    expect(sk).toContain('Bezpečnosť výrobku');
    expect(sk).toContain('Horúce nápoje popália.');
    expect(sk).not.toContain('Hot drinks burn.');

    // A product without either shows neither.
    const tent = await html('/shop/p/ridgeline-2-person-tent');
    expect(tent).not.toContain('unit-price');
    expect(tent).not.toContain('product-safety');
  });

  it('gives a variant with its own net quantity its own unit price', async () => {
    const beans = (await json('/shop/p/cafe-house-blend-beans')).body.product;
    expect(beans.unitPrice).toEqual({ quantity: 250, unit: 'g', price: 47.6, per: 'kg' });
    const bySku = (sku: string) => beans.variants.find((variant: { sku: string }) => variant.sku === sku);
    expect(bySku('DEMO-BEANS-HOUSE-250G-WHOLE').unitPrice).toEqual({
      quantity: 250,
      unit: 'g',
      price: 47.6,
      per: 'kg',
    });
    expect(bySku('DEMO-BEANS-HOUSE-1KG-WHOLE').unitPrice).toEqual({ quantity: 1, unit: 'kg', price: 39.9, per: 'kg' });
    const page = await html('/shop/p/cafe-house-blend-beans');
    expect(page).toContain(`<small class="unit-price" data-variant-unit-price>1${NBSP}kg (€39.90 per kg)</small>`);
  });

  it('shows the unit price in the cart, as JSON and HTML, in the cart currency', async () => {
    const coffee = await productBySku(shop.dataSource, 'UP-COFFEE');
    const client = new ShopClient(shop.server);
    await addToCart(client, coffee.id, 2);
    const summary = (await client.post('/shop/currency/set', { currency: 'EUR' })).body.cart;
    expect(summary.items[0]).toMatchObject({
      sku: 'UP-COFFEE',
      price: 12.9,
      total: 25.8,
      unitPrice: { quantity: 250, unit: 'g', price: 51.6, per: 'kg' },
    });
    expect(await html('/shop/cart', client)).toContain(`<small class="unit-price">250${NBSP}g (€51.60 per kg)</small>`);

    // In another currency the unit price is the converted price's, not a converted unit price.
    const czk = (await client.post('/shop/currency/set', { currency: 'CZK' })).body.cart.items[0];
    expect(czk.unitPrice.price).toBeCloseTo(czk.price * 4, 6);
  });

  it('computes the unit price from the sale price while a sale runs, and from the price before a sale starts', async () => {
    const nextYear = new Date(Date.now() + 365 * 24 * 60 * 60 * 1000).toISOString();
    const result = await importFile([
      {
        sku: 'UP-SALE-BEANS',
        name: 'Unit Test Sale Beans',
        price: 18,
        sale: { price: 13.5 },
        stock: 6,
        netQuantity: 500,
        netUnit: 'g',
        options: [{ code: 'pack', label: 'Pack', values: ['500G', '1KG'] }],
        variants: [
          { sku: 'UP-SALE-BEANS-500G', options: { pack: '500G' }, stock: 3 },
          {
            sku: 'UP-SALE-BEANS-1KG',
            options: { pack: '1KG' },
            price: 30,
            sale: { price: 24 },
            stock: 3,
            netQuantity: 1,
            netUnit: 'kg',
          },
        ],
      },
      // A sale planned for later leaves today's unit price as it is.
      {
        sku: 'UP-SALE-LATER',
        name: 'Unit Test Later Sale Oil',
        price: 7.49,
        sale: { price: 5, startsAt: nextYear },
        stock: 2,
        netQuantity: 0.75,
        netUnit: 'l',
      },
    ]);
    expect(result.json).toMatchObject({ ok: true, created: 2, rejected: 0 });

    const listed = (await json('/shop/catalog/products?sort=newest&perPage=100')).body.products;
    const bySku = (rows: Array<{ sku: string }>, sku: string) => rows.find((row) => row.sku === sku) as never;
    expect(bySku(listed, 'UP-SALE-BEANS')).toMatchObject({
      price: 13.5,
      reduction: null, // nothing cheaper in the 30 days before: the product is new
      unitPrice: { quantity: 500, unit: 'g', price: 27, per: 'kg' },
    });
    expect(bySku(listed, 'UP-SALE-LATER')).toMatchObject({
      price: 7.49,
      unitPrice: { quantity: 0.75, unit: 'l', price: 9.99, per: 'l' },
    });

    const product = (await json('/shop/p/unit-test-sale-beans')).body.product;
    expect(product.unitPrice).toEqual({ quantity: 500, unit: 'g', price: 27, per: 'kg' });
    expect(bySku(product.variants, 'UP-SALE-BEANS-500G')).toMatchObject({
      price: 13.5,
      unitPrice: { quantity: 500, unit: 'g', price: 27, per: 'kg' },
    });
    expect(bySku(product.variants, 'UP-SALE-BEANS-1KG')).toMatchObject({
      price: 24,
      unitPrice: { quantity: 1, unit: 'kg', price: 24, per: 'kg' },
    });
    const page = await html('/shop/p/unit-test-sale-beans');
    expect(page).toContain(`<p class="unit-price" data-product-unit-price>500${NBSP}g (€27.00 per kg)</p>`);
    expect(page).toContain(`<small class="unit-price" data-variant-unit-price>1${NBSP}kg (€24.00 per kg)</small>`);

    const beans = await productBySku(shop.dataSource, 'UP-SALE-BEANS');
    const client = new ShopClient(shop.server);
    await addToCart(client, beans.id, 2, { configuration: { pack: '1KG' } });
    const cart = (await client.post('/shop/currency/set', { currency: 'EUR' })).body.cart;
    expect(cart.items[0]).toMatchObject({
      sku: 'UP-SALE-BEANS-1KG',
      price: 24,
      total: 48,
      unitPrice: { quantity: 1, unit: 'kg', price: 24, per: 'kg' },
    });
    expect(await html('/shop/cart', client)).toContain(`<small class="unit-price">1${NBSP}kg (€24.00 per kg)</small>`);
  });

  it('edits the net quantity and the safety data in the CP, with CSRF', async () => {
    const coffee = await productBySku(shop.dataSource, 'UP-COFFEE');
    const form = await html(`/admin/products/${coffee.id}`, cp);
    expect(form).toContain('name="netQuantity" value="250"');
    expect(form).toContain('<option value="g" selected>g</option>');
    expect(form).toContain('name="safety[manufacturerName]" value="Kaffa Roasters Ltd."');
    expect(form).toContain('name="safety[warnings][sk]"');

    const fields = {
      price: '12.90',
      stock: '9',
      visible: '1',
      enabled: '1',
      netQuantity: '0,5',
      netUnit: 'kg',
      'safety[manufacturerName]': 'Kaffa Roasters EU GmbH',
      'safety[manufacturerAddress]': 'Hafenstraße 3\n20457 Hamburg\nGermany',
      'safety[manufacturerContact]': 'safety@kaffa.example',
      'safety[identifier]': 'Type KR-500',
      'safety[warnings][en]': 'Store dry.',
      'safety[warnings][sk]': '',
    };
    // Without the CSRF token nothing is saved.
    await cp.agent.post(`/admin/products/${coffee.id}`).type('form').send(fields).expect(403);
    expect(await productBySku(shop.dataSource, 'UP-COFFEE')).toMatchObject({ netQuantity: 250_000, netUnit: 'g' });

    const saved = await cp.submitForm(`/admin/products/${coffee.id}`, fields);
    expect(saved.status).toBe(303);
    expect(await productBySku(shop.dataSource, 'UP-COFFEE')).toMatchObject({ netQuantity: 500, netUnit: 'kg' });
    expect(await shop.dataSource.getRepository(ProductSafety).findOneByOrFail({ productId: coffee.id })).toMatchObject({
      manufacturerName: 'Kaffa Roasters EU GmbH',
      manufacturerContact: 'safety@kaffa.example',
      responsibleName: null,
      responsibleAddress: null,
      responsibleContact: null,
      identifier: 'Type KR-500',
      warnings: { en: 'Store dry.' },
    });
    const page = await html('/shop/p/unit-test-coffee');
    expect(page).toContain(`0.5${NBSP}kg (€25.80 per kg)`);
    expect(page).toContain('<a href="mailto:safety@kaffa.example" rel="nofollow">safety@kaffa.example</a>');
    expect(page).not.toContain('Responsible person in the EU');

    // A JSON client that leaves both out keeps them.
    const kept = await cp.post(`/admin/products/${coffee.id}`, {
      price: '12.50',
      stock: '9',
      visible: '1',
      enabled: '1',
    });
    expect(kept.status).toBe(303);
    expect(await productBySku(shop.dataSource, 'UP-COFFEE')).toMatchObject({ price: 1250, netQuantity: 500 });
    expect(await shop.dataSource.getRepository(ProductSafety).countBy({ productId: coffee.id })).toBe(1);

    // A variant's own net quantity, and emptying the safety fields removes the data.
    const beans = await productBySku(shop.dataSource, 'DEMO-BEANS-HOUSE');
    const variants = await shop.dataSource
      .getRepository(ProductVariant)
      .find({ where: { productId: beans.id }, order: { id: 'ASC' } });
    const beanFields: Record<string, string> = {
      price: '11.90',
      visible: '1',
      enabled: '1',
      netQuantity: '250',
      netUnit: 'g',
    };
    for (const variant of variants) {
      beanFields[`variantStock[v${variant.id}]`] = String(variant.stock);
      beanFields[`variantNetQuantity[v${variant.id}]`] = variant.sku.includes('1KG') ? '1000' : '';
      beanFields[`variantNetUnit[v${variant.id}]`] = variant.sku.includes('1KG') ? 'g' : '';
    }
    expect((await cp.submitForm(`/admin/products/${beans.id}`, beanFields)).status).toBe(303);
    const oneKilo = await shop.dataSource
      .getRepository(ProductVariant)
      .findOneByOrFail({ sku: 'DEMO-BEANS-HOUSE-1KG-WHOLE' });
    expect(oneKilo).toMatchObject({ netQuantity: 1_000_000, netUnit: 'g' });
    const stove = await productBySku(shop.dataSource, 'DEMO-STOVE-MINI');
    expect(await shop.dataSource.getRepository(ProductSafety).countBy({ productId: stove.id })).toBe(1);
    expect(
      (
        await cp.submitForm(`/admin/products/${stove.id}`, {
          price: '44.90',
          stock: '0',
          visible: '1',
          enabled: '1',
          'safety[identifier]': '',
        })
      ).status,
    ).toBe(303);
    expect(await shop.dataSource.getRepository(ProductSafety).countBy({ productId: stove.id })).toBe(0);
  });

  it('refuses bad net quantities and safety data with field errors, saving nothing', async () => {
    const oil = await productBySku(shop.dataSource, 'UP-OIL');
    const res = await cp.post(`/admin/products/${oil.id}`, {
      price: '7.49',
      stock: '4',
      netQuantity: 'lots',
      netUnit: 'lb',
      safety: {
        manufacturerName: 'x'.repeat(256),
        manufacturerAddress: 'Somewhere 1',
        manufacturerContact: 'javascript:alert(1)',
        responsibleContact: 'rep@eu-rep.example',
        warnings: { de: 'Achtung', en: ['not', 'text'] },
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.fields).toEqual({
      netQuantity: ['must be a number > 0 with at most 3 decimals, up to 1000000'],
      netUnit: ['must be one of kg, g, l, ml, m, cm, m2'],
      'safety.manufacturerName': ['must be at most 255 characters'],
      'safety.manufacturerContact': ['must be an e-mail address or an http(s) URL'],
      'safety.responsibleName': ['is required for the EU responsible person'],
      'safety.responsibleAddress': ['is required for the EU responsible person'],
      'safety.warnings.de': ['is not a shop language (en, sk)'],
      'safety.warnings.en': ['must be text'],
    });
    expect(await productBySku(shop.dataSource, 'UP-OIL')).toMatchObject({ netQuantity: 750, netUnit: 'l' });
    expect(await shop.dataSource.getRepository(ProductSafety).countBy({ productId: oil.id })).toBe(0);

    // A browser form gets the messages on the form page.
    const token = await cp.csrfToken();
    const form = await cp.agent
      .post(`/admin/products/${oil.id}`)
      .type('form')
      .set('Accept', 'text/html')
      .set('Referer', `${shop.config.baseUrl}/admin/products/${oil.id}`)
      .send({ price: '7.49', stock: '4', netQuantity: '0.75', _csrf: token });
    expect(form.status).toBe(303);
    const page = await html(`/admin/products/${oil.id}`, cp);
    expect(page).toContain('The product was not saved');
    expect(page).toContain('unit must be one of kg, g, l, ml, m, cm, m2');
    const variant = await cp.post(`/admin/products/${oil.id}`, {
      price: '7.49',
      stock: '4',
      variantNetQuantity: { v999999: '1' },
      variantNetUnit: { v999999: 'l' },
    });
    expect(variant.status).toBe(400);
    expect(variant.body.error.fields).toEqual({ 'variantNetQuantity.v999999': ['is not a variant of UP-OIL'] });
    expect(await shop.dataSource.getRepository(Product).countBy({ sku: 'UP-OIL', netUnit: 'l' })).toBe(1);
  });
});
