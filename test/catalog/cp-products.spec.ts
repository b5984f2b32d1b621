import request from 'supertest';
import { ProductVariant } from '../../src/commerce/products/product-variant.entity';
import { Product } from '../../src/commerce/products/product.entity';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp } from '../support/test-app';

describe('CP products', () => {
  let shop: TestApp;
  let client: ShopClient;
  const productBySku = (sku: string) => shop.dataSource.getRepository(Product).findOneByOrFail({ sku });
  beforeAll(async () => {
    shop = await startTestApp();
    client = new ShopClient(shop.server);
    await client.loginCp();
  });
  afterAll(() => shop.close());

  const listed = (path: string) =>
    request(shop.server)
      .get(path)
      .set('Accept', 'application/json')
      .expect(200)
      .then((res) => res.body.products);

  it('needs a CP login', async () => {
    const res = await request(shop.server).get('/admin/products').expect(302);
    expect(res.headers.location).toBe('/admin/login?next=%2Fadmin%2Fproducts');
    await request(shop.server).get('/admin/products/1').expect(302);
  });

  it('lists and searches products by SKU or name, with paging', async () => {
    const all = await client.get('/admin/products').set('Accept', 'text/html').expect(200);
    expect(all.text).toContain('<a href="/admin/products">Products</a>');
    expect(all.text).toContain('35 products');
    expect(all.text).toContain('DEMO-TENT-4P');
    expect(all.text).toContain('Page 1 of 1');

    const bySku = await client.get('/admin/products?q=DEMO-TENT-2P').expect(200);
    expect(bySku.text).toContain('1 product<');
    expect(bySku.text).toContain('Ridgeline 2-Person Tent');
    const byName = await client.get('/admin/products?q=grinder').expect(200);
    expect(byName.text).toContain('2 products');
    expect(byName.text).toContain('DEMO-GRINDER-HAND');
    expect(byName.text).toContain('DEMO-GRINDER-PRO');
    // LIKE wildcards in the query are plain characters.
    expect((await client.get('/admin/products?q=%25').expect(200)).text).toContain('No products match.');
    expect((await client.get('/admin/products?page=2').expect(200)).text).toContain('Page 2 of 1');
  });

  it('edits price, stock and the visible/enabled switches of a simple product', async () => {
    const tent = await productBySku('DEMO-TENT-2P');
    const form = await client.get(`/admin/products/${tent.id}`).set('Accept', 'text/html').expect(200);
    expect(form.text).toContain('name="price" value="329.00"');
    expect(form.text).toContain('name="stock" value="14"');
    expect(form.text).toMatch(/name="visible" value="1" checked/);

    const saved = await client.submitForm(`/admin/products/${tent.id}`, { price: '299.90', stock: '3', enabled: '1' });
    expect(saved.status).toBe(303);
    expect(saved.headers.location).toBe(`/admin/products/${tent.id}`);
    expect(await productBySku('DEMO-TENT-2P')).toMatchObject({
      price: 29990,
      stock: 3,
      visible: false,
      enabled: true,
    });
    const after = await client.get(`/admin/products/${tent.id}`).set('Accept', 'text/html').expect(200);
    expect(after.text).toContain('Ridgeline 2-Person Tent saved.');

    // Hidden now: out of the listing, still sold by its URL; disabled: the product-404.
    expect((await listed('/shop/catalog/products?perPage=100')).map((p: { sku: string }) => p.sku)).not.toContain(
      'DEMO-TENT-2P',
    );
    await request(shop.server).get('/shop/p/ridgeline-2-person-tent').expect(200);
    await client.submitForm(`/admin/products/${tent.id}`, { price: '299.90', stock: '3', visible: '1' });
    await request(shop.server).get('/shop/p/ridgeline-2-person-tent').set('Accept', 'text/html').expect(404);
    await client.submitForm(`/admin/products/${tent.id}`, { price: '329', stock: '14', visible: '1', enabled: '1' });
    expect((await listed('/shop/catalog/products?perPage=100')).map((p: { sku: string }) => p.sku)).toContain(
      'DEMO-TENT-2P',
    );
  });

  it('edits the stock of each variant of a configurable product', async () => {
    const mug = await productBySku('DEMO-MUG-ENAMEL');
    const variants = await shop.dataSource
      .getRepository(ProductVariant)
      .find({ where: { productId: mug.id }, order: { id: 'ASC' } });
    const form = await client.get(`/admin/products/${mug.id}`).expect(200);
    expect(form.text).toContain(`name="variantStock[v${variants[0].id}]"`);
    expect(form.text).not.toContain('<input id="stock" name="stock"');

    const fields: Record<string, string> = { price: '13', visible: '1', enabled: '1' };
    variants.forEach((variant, index) => (fields[`variantStock[v${variant.id}]`] = String(index * 5)));
    expect((await client.submitForm(`/admin/products/${mug.id}`, fields)).status).toBe(303);
    const stocks = await shop.dataSource
      .getRepository(ProductVariant)
      .find({ where: { productId: mug.id }, order: { id: 'ASC' } });
    expect(stocks.map((variant) => variant.stock)).toEqual([0, 5, 10]);
    expect(await productBySku('DEMO-MUG-ENAMEL')).toMatchObject({ stock: 15, price: 1300 });
  });

  it('refuses bad input with a message on the form and changes nothing', async () => {
    const lantern = await productBySku('DEMO-LANTERN-LED');
    const referer = `${shop.config.baseUrl}/admin/products/${lantern.id}`;
    const post = async (fields: Record<string, string>) => {
      const token = await client.csrfToken();
      return client.agent
        .post(`/admin/products/${lantern.id}`)
        .type('form')
        .set('Accept', 'text/html')
        .set('Referer', referer)
        .send({ ...fields, _csrf: token });
    };
    for (const [fields, message] of [
      [{ price: '12.345', stock: '1' }, 'price must be an amount ≥ 0 with at most 2 decimals, like 12.50'],
      [{ price: 'free', stock: '1' }, 'price must be an amount'],
      [{ price: '-1', stock: '1' }, 'price must be an amount'],
      [{ price: '10', stock: '-3' }, 'stock must be a whole number ≥ 0'],
      [{ price: '10', stock: 'lots' }, 'stock must be a whole number ≥ 0'],
      [{ price: '10' }, 'stock must be a whole number ≥ 0'],
    ] as const) {
      const res = await post({ ...fields, visible: '1', enabled: '1' });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe(`/admin/products/${lantern.id}`);
      const page = await client.get(`/admin/products/${lantern.id}`).set('Accept', 'text/html').expect(200);
      expect(page.text).toContain('The product was not saved');
      expect(page.text).toContain(message);
    }
    const json = await client.post(`/admin/products/${lantern.id}`, { price: '1.999', stock: 'x' });
    expect(json.status).toBe(400);
    expect(Object.keys(json.body.error.fields).sort()).toEqual(['price', 'stock']);
    expect(await productBySku('DEMO-LANTERN-LED')).toMatchObject({
      price: lantern.price,
      stock: lantern.stock,
      visible: true,
      enabled: true,
    });

    const mug = await productBySku('DEMO-MUG-ENAMEL');
    const missingVariant = await client.post(`/admin/products/${mug.id}`, { price: '13', variantStock: {} });
    expect(missingVariant.status).toBe(400);
    expect(Object.keys(missingVariant.body.error.fields)).toHaveLength(3);
    await client.get('/admin/products/999999').expect(404);
  });
});
