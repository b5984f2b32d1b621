import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { IsNull } from 'typeorm';
import { AuditEntry } from '../../src/commerce/audit/audit-entry.entity';
import { OrderLine } from '../../src/commerce/orders/order-line.entity';
import { ProductImage } from '../../src/commerce/products/product-image.entity';
import { ProductRelation } from '../../src/commerce/products/product-relation.entity';
import { ProductVariant } from '../../src/commerce/products/product-variant.entity';
import { Product } from '../../src/commerce/products/product.entity';
import { CpUsersService } from '../../src/commerce/staff/cp-users.service';
import { insertOrder } from '../support/fixtures';
import { testPng } from '../support/images';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp } from '../support/test-app';

describe('CP products: create, variants, duplicate, delete or archive, bulk, import and export', () => {
  let shop: TestApp;
  let admin: ShopClient;
  const products = () => shop.dataSource.getRepository(Product);
  const bySku = (sku: string) => products().findOneBy({ sku });
  const audits = (subject: string | number, area = 'product') =>
    shop.dataSource
      .getRepository(AuditEntry)
      .find({ where: { subject: String(subject), area: area as AuditEntry['area'] }, order: { id: 'ASC' } });

  beforeAll(async () => {
    shop = await startTestApp();
    admin = new ShopClient(shop.server);
    await admin.loginCp();
  });
  afterAll(() => shop.close());

  /** Creates a product through the form; its id. */
  async function create(fields: Record<string, string>): Promise<number> {
    const res = await admin.submitForm('/admin/products/new', { visible: '1', enabled: '1', ...fields });
    expect(res.status).toBe(303);
    return (await products().findOneByOrFail({ sku: fields.sku })).id;
  }

  it('creates a product with a variant that the shop lists and sells, with its meta texts', async () => {
    const form = await admin.get('/admin/products/new').set('Accept', 'text/html').expect(200);
    expect(form.text).toContain('action="/admin/products/new"');

    const id = await create({
      sku: 'CP-SOCKS',
      name: 'Merino Hiking Socks',
      description: 'Warm socks.',
      price: '18.50',
      stock: '4',
      metaTitle: 'Merino socks for hikers',
      metaDescription: 'Socks that stay dry.',
    });
    expect(await products().findOneByOrFail({ id })).toMatchObject({
      slug: 'merino-hiking-socks',
      price: 1850,
      stock: 4,
      type: 'simple',
      visible: true,
    });
    const added = await admin.submitForm(`/admin/products/${id}/variants`, {
      sku: 'CP-SOCKS-M',
      options: 'Size: M',
      price: '',
      stock: '7',
    });
    expect(added.status).toBe(303);
    expect(await products().findOneByOrFail({ id })).toMatchObject({
      type: 'configurable',
      stock: 7,
      options: [{ code: 'size', label: 'Size', values: ['M'] }],
    });

    const listed = await request(shop.server)
      .get('/shop/catalog/products?perPage=100')
      .set('Accept', 'application/json')
      .expect(200);
    expect(listed.body.products.map((p: { sku: string }) => p.sku)).toContain('CP-SOCKS');
    const page = await request(shop.server).get('/shop/p/merino-hiking-socks').set('Accept', 'application/json');
    expect(page.body.product).toMatchObject({
      sku: 'CP-SOCKS',
      price: 18.5,
      variants: [{ sku: 'CP-SOCKS-M', options: { size: 'M' }, stock: 7 }],
    });
    const html = await request(shop.server).get('/shop/p/merino-hiking-socks').set('Accept', 'text/html').expect(200);
    expect(html.text).toContain('<title>Merino socks for hikers');
    expect(html.text).toContain('<meta name="description" content="Socks that stay dry.">');

    expect((await audits(id)).map((entry) => [entry.action, entry.actor])).toEqual([
      ['created', 'cp:admin@example.com'],
      ['variant added', 'cp:admin@example.com'],
    ]);
    const [created] = await audits(id);
    expect(created.changes).toMatchObject({ sku: { from: null, to: 'CP-SOCKS' }, price: { from: null, to: 1850 } });
    expect((await audits(id, 'stock'))[0].changes).toEqual({
      stock: { from: 4, to: 7 },
      'stock CP-SOCKS-M': { from: null, to: 7 },
    });
  });

  it('refuses bad input with a 400 naming each field, writing nothing', async () => {
    const before = await products().count();
    const auditsBefore = await shop.dataSource.getRepository(AuditEntry).count();
    const unreadable = await admin.post('/admin/products/new', {
      sku: 'CP-BAD',
      name: 'Bad',
      price: '12.345',
      stock: 'many',
    });
    expect(unreadable.status).toBe(400);
    expect(Object.keys(unreadable.body.error.fields).sort()).toEqual(['price', 'stock']);
    const clashing = await admin.post('/admin/products/new', {
      sku: 'DEMO-TENT-2P',
      name: ' ',
      slug: 'ridgeline-2-person-tent',
      price: '10',
    });
    expect(clashing.status).toBe(400);
    expect(clashing.body.error.fields).toEqual({
      sku: ['DEMO-TENT-2P is already in use'],
      name: ['is required (up to 255 characters)'],
      slug: ['is already used by DEMO-TENT-2P'],
    });
    const tent = (await bySku('DEMO-TENT-2P'))!;
    const related = await admin.post(`/admin/products/${tent.id}`, {
      price: '329',
      stock: '14',
      related: 'NO-SUCH-SKU',
    });
    expect(related.status).toBe(400);
    expect(related.body.error.fields).toEqual({ related: ['name no product: NO-SUCH-SKU'] });
    const variant = await admin.post(`/admin/products/${tent.id}/variants`, {
      sku: 'DEMO-TENT-2P',
      options: 'Size',
      stock: '1',
    });
    expect(variant.status).toBe(400);
    expect(Object.keys(variant.body.error.fields).sort()).toEqual(['options']);
    expect(await products().count()).toBe(before);
    expect(await shop.dataSource.getRepository(AuditEntry).count()).toBe(auditsBefore);
    // A browser gets the message back on the form.
    const browser = await admin.submitForm('/admin/products/new', { sku: 'CP-BAD', name: 'Bad', price: 'free' });
    expect(browser.status).toBe(303);
    expect(browser.headers.location).toBe('/admin/products/new');
  });

  it('edits the meta texts and related products, and audits price and stock from/to', async () => {
    const lantern = (await bySku('DEMO-LANTERN-LED'))!;
    const saved = await admin.submitForm(`/admin/products/${lantern.id}`, {
      price: '40',
      stock: String(lantern.stock + 2),
      visible: '1',
      enabled: '1',
      metaTitle: 'LED lantern',
      related: 'DEMO-TENT-2P, DEMO-TENT-4P',
      crossSell: '',
    });
    expect(saved.status).toBe(303);
    const relations = await shop.dataSource
      .getRepository(ProductRelation)
      .find({ where: { productId: lantern.id, kind: 'related' }, order: { position: 'ASC' } });
    expect(relations.map((relation) => relation.relatedProductId)).toEqual([
      (await bySku('DEMO-TENT-2P'))!.id,
      (await bySku('DEMO-TENT-4P'))!.id,
    ]);
    const form = await admin.get(`/admin/products/${lantern.id}`).set('Accept', 'text/html').expect(200);
    expect(form.text).toContain('name="related" value="DEMO-TENT-2P DEMO-TENT-4P"');
    // One price, in the base currency; the others are shown converted, read-only.
    expect(form.text).toMatch(/converted at today's rate: [^<]*43\.20/);
    const [updated] = await audits(lantern.id);
    expect(updated.action).toBe('updated');
    expect(updated.changes).toMatchObject({
      price: { from: lantern.price, to: 4000 },
      metaTitle: { from: '', to: 'LED lantern' },
    });
    expect((await audits(lantern.id, 'stock'))[0].changes).toEqual({
      stock: { from: lantern.stock, to: lantern.stock + 2 },
    });
  });

  it('edits and removes variants; an ordered variant stays', async () => {
    const socks = (await bySku('CP-SOCKS'))!;
    await admin.submitForm(`/admin/products/${socks.id}/variants`, {
      sku: 'CP-SOCKS-L',
      options: 'Size: L',
      price: '19.90',
      stock: '2',
    });
    const large = await shop.dataSource.getRepository(ProductVariant).findOneByOrFail({ sku: 'CP-SOCKS-L' });
    const form = await admin
      .get(`/admin/products/${socks.id}/variants/${large.id}`)
      .set('Accept', 'text/html')
      .expect(200);
    expect(form.text).toContain('name="options" value="Size: L"');
    expect(form.text).toContain('name="price" value="19.90"');
    const clash = await admin.post(`/admin/products/${socks.id}/variants/${large.id}`, {
      sku: 'CP-SOCKS-L',
      options: 'Size: M',
      stock: '2',
    });
    expect(clash.body.error.fields).toEqual({ options: ['are those of another variant'] });
    const saved = await admin.submitForm(`/admin/products/${socks.id}/variants/${large.id}`, {
      sku: 'CP-SOCKS-XL',
      options: 'Size: XL',
      price: '',
      stock: '5',
    });
    expect(saved.status).toBe(303);
    expect(await shop.dataSource.getRepository(ProductVariant).findOneByOrFail({ id: large.id })).toMatchObject({
      sku: 'CP-SOCKS-XL',
      options: { size: 'XL' },
      price: null,
      stock: 5,
    });
    expect(await products().findOneByOrFail({ id: socks.id })).toMatchObject({
      stock: 12,
      options: [{ code: 'size', label: 'Size', values: ['M', 'XL'] }],
    });

    const medium = await shop.dataSource.getRepository(ProductVariant).findOneByOrFail({ sku: 'CP-SOCKS-M' });
    const order = await insertOrder(shop.dataSource);
    await shop.dataSource.getRepository(OrderLine).save({
      orderId: order.id,
      productId: socks.id,
      variantId: medium.id,
      sku: medium.sku,
      name: socks.name,
      qty: 1,
      price: 1850,
      total: 1850,
    });
    const ordered = await admin.post(`/admin/products/${socks.id}/variants/${medium.id}/remove`, { confirm: 'yes' });
    expect(ordered.status).toBe(409);
    expect((await admin.post(`/admin/products/${socks.id}/variants/${large.id}/remove`, {})).status).toBe(400);
    const removed = await admin.post(`/admin/products/${socks.id}/variants/${large.id}/remove`, { confirm: 'yes' });
    expect(removed.status).toBe(200);
    expect(await shop.dataSource.getRepository(ProductVariant).countBy({ productId: socks.id })).toBe(1);
    expect(await products().findOneByOrFail({ id: socks.id })).toMatchObject({ stock: 7 });
    expect((await audits(socks.id)).map((entry) => entry.action)).toEqual([
      'created',
      'variant added',
      'variant added',
      'variant updated',
      'variant removed',
    ]);
  });

  it('duplicates a product as a hidden copy without stock', async () => {
    const mug = (await bySku('DEMO-MUG-ENAMEL'))!;
    const res = await admin.submitForm(`/admin/products/${mug.id}/duplicate`, {});
    expect(res.status).toBe(303);
    const copy = (await bySku('DEMO-MUG-ENAMEL-COPY'))!;
    expect(res.headers.location).toBe(`/admin/products/${copy.id}`);
    expect(copy).toMatchObject({ visible: false, stock: 0, price: mug.price, type: 'configurable' });
    const variants = await shop.dataSource.getRepository(ProductVariant).find({ where: { productId: copy.id } });
    expect(variants.length).toBeGreaterThan(0);
    expect(variants.every((variant) => variant.sku.endsWith('-COPY') && variant.stock === 0)).toBe(true);
    await admin.submitForm(`/admin/products/${mug.id}/duplicate`, {});
    expect(await bySku('DEMO-MUG-ENAMEL-COPY-2')).not.toBeNull();
    expect((await audits(copy.id))[0]).toMatchObject({
      action: 'duplicated',
      changes: { duplicateOf: { from: null, to: 'DEMO-MUG-ENAMEL' } },
    });
  });

  it('duplicates a product whose SKU and slug fill their columns, keeping the suffix', async () => {
    const sku = `CP-LONG-${'S'.repeat(54)}`;
    const slug = `long-${'s'.repeat(184)}`;
    const id = await create({ sku, slug, name: 'Long Thing', price: '1' });
    expect((await admin.submitForm(`/admin/products/${id}/duplicate`, {})).status).toBe(303);
    expect((await admin.submitForm(`/admin/products/${id}/duplicate`, {})).status).toBe(303);
    expect(await bySku(`${sku.slice(0, 59)}-COPY`)).toMatchObject({ slug: `${slug.slice(0, 186)}-copy` });
    expect(await bySku(`${sku.slice(0, 57)}-COPY-2`)).toMatchObject({ slug: `${slug.slice(0, 184)}-copy-2` });
  });

  it('answers 409, writing nothing, when a copy would take a SKU that is taken', async () => {
    const id = await create({ sku: 'CP-TWINS', name: 'Twins', price: '1' });
    for (const last of ['A', 'B']) {
      const added = await admin.submitForm(`/admin/products/${id}/variants`, {
        sku: `${'V'.repeat(63)}${last}`,
        options: `Size: ${last}`,
        price: '',
        stock: '1',
      });
      expect(added.status).toBe(303);
    }
    // Both variants' copies cut to the same `VVV…-COPY`.
    const refused = await admin.post(`/admin/products/${id}/duplicate`, {});
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'sku_or_slug_taken' });
    expect(await bySku('CP-TWINS-COPY')).toBeNull();
  });

  it('deletes a product no order names, and archives one that was ordered', async () => {
    const id = await create({ sku: 'CP-DELETE-ME', name: 'Delete me', price: '1' });
    const confirm = await admin.get(`/admin/products/${id}/delete`).set('Accept', 'text/html').expect(200);
    expect(confirm.text).toContain('name="confirm" value="yes" required');
    expect(confirm.text).toContain(`action="/admin/products/${id}/delete"`);
    expect(confirm.text).toContain('deleted');
    const unconfirmed = await admin.post(`/admin/products/${id}/delete`, {});
    expect(confirm.text).toContain('this product');
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.body.error.fields).toEqual({ confirm: ['tick "I am sure" to confirm'] });
    const deleted = await admin.post(`/admin/products/${id}/delete`, { confirm: 'yes' });
    expect(deleted.body).toMatchObject({ success: true, removal: 'deleted' });
    expect(await products().findOneBy({ id })).toBeNull();
    expect((await audits(id)).map((entry) => entry.action)).toEqual(['created', 'deleted']);

    const grinder = (await bySku('DEMO-GRINDER-HAND'))!;
    const order = await insertOrder(shop.dataSource);
    await shop.dataSource.getRepository(OrderLine).save({
      orderId: order.id,
      productId: grinder.id,
      variantId: null,
      sku: grinder.sku,
      name: grinder.name,
      qty: 1,
      price: grinder.price,
      total: grinder.price,
    });
    const page = await admin.get(`/admin/products/${grinder.id}/delete`).set('Accept', 'text/html').expect(200);
    expect(page.text).toContain('archived (ordered)');
    const archived = await admin.post(`/admin/products/${grinder.id}/delete`, { confirm: 'yes' });
    expect(archived.body).toMatchObject({ success: true, removal: 'archived' });
    expect(await products().findOneByOrFail({ id: grinder.id })).toMatchObject({ visible: false, enabled: false });
    expect((await products().findOneByOrFail({ id: grinder.id })).archivedAt).toEqual(expect.any(Number));
    expect(await shop.dataSource.getRepository(OrderLine).countBy({ orderId: order.id, productId: grinder.id })).toBe(
      1,
    );
    await admin.get(`/admin/orders/${order.id}`).expect(200);
    await request(shop.server).get(`/shop/p/${grinder.slug}`).set('Accept', 'text/html').expect(404);
    expect((await admin.get('/admin/products?q=DEMO-GRINDER-HAND').expect(200)).text).toContain('No products match.');
    const archivedList = await admin.get('/admin/products?archived=1').set('Accept', 'text/html').expect(200);
    expect(archivedList.text).toContain('DEMO-GRINDER-HAND');
    const edit = await admin.post(`/admin/products/${grinder.id}`, {
      price: '1',
      stock: '1',
      visible: '1',
      enabled: '1',
    });
    expect(edit.status).toBe(409);
    expect(edit.body.error.code).toBe('product_archived');
    expect((await audits(grinder.id)).at(-1)).toMatchObject({
      action: 'archived',
      changes: { visible: { from: true, to: false }, enabled: { from: true, to: false } },
    });
  });

  it('hides selected products in bulk after a confirmation page, and sorts the list on the server', async () => {
    const ids = await Promise.all(['DEMO-HEADLAMP', 'DEMO-CARABINER'].map(async (sku) => (await bySku(sku))!.id));
    const confirm = await admin
      .get(`/admin/products/bulk?action=hide&ids=${ids[0]}&ids=${ids[1]}`)
      .set('Accept', 'text/html')
      .expect(200);
    expect(confirm.text).toContain('DEMO-HEADLAMP');
    expect(confirm.text).toContain('DEMO-CARABINER');
    expect(confirm.text).toContain('these 2 products');
    expect(await products().countBy({ visible: false, sku: 'DEMO-HEADLAMP' })).toBe(0);
    const done = await admin.submitForm('/admin/products/bulk', {
      action: 'hide',
      ids: String(ids[0]),
      confirm: 'yes',
    });
    expect(done.status).toBe(303);
    const both = await admin.post('/admin/products/bulk', { action: 'hide', ids: ids.map(String), confirm: 'yes' });
    expect(both.body).toMatchObject({ success: true, changed: 1 });
    for (const id of ids) expect(await products().findOneByOrFail({ id })).toMatchObject({ visible: false });
    expect((await audits(ids[1])).at(-1)).toMatchObject({
      action: 'updated',
      changes: { visible: { from: true, to: false } },
    });

    const byPrice = await admin.get('/admin/products?sort=-price').set('Accept', 'text/html').expect(200);
    const [mostExpensive] = await products().find({
      where: { archivedAt: IsNull() },
      order: { price: 'DESC', id: 'DESC' },
      take: 1,
    });
    expect(/<tbody>\s*<tr>[\s\S]*?<a href="\/admin\/products\/\d+">([^<]+)<\/a>/.exec(byPrice.text)![1]).toBe(
      mostExpensive.sku,
    );
    expect(byPrice.text).toContain('aria-sort="descending"');
  });

  /** Uploads `rows` as the import form does; the report page. */
  async function uploadCatalog(rows: unknown) {
    const token = await admin.csrfToken();
    return admin.agent
      .post('/admin/products/import')
      .set('Accept', 'text/html')
      .field('_csrf', token)
      .attach('file', Buffer.from(JSON.stringify(rows)), 'catalog.json')
      .expect(200);
  }

  it('imports an uploaded file with a report of rejected rows, and round-trips the export', async () => {
    const token = await admin.csrfToken();
    const report = await uploadCatalog([
      { sku: 'CP-IMPORTED', name: 'Imported Thing', price: 9.9, stock: 3 },
      { sku: 'CP-BROKEN', name: 'Broken', price: -1, stock: 1 },
    ]);
    expect(report.text).toMatch(/<dt>Created<\/dt><dd>1<\/dd>/);
    expect(report.text).toMatch(/<dt>Rejected<\/dt><dd>1<\/dd>/);
    expect(report.text).toContain(
      '<td>2</td><td><code>CP-BROKEN</code></td><td>price must be a number ≥ 0 with at most 2 decimals</td>',
    );
    expect(await bySku('CP-IMPORTED')).toMatchObject({ price: 990, stock: 3 });
    expect(await bySku('CP-BROKEN')).toBeNull();
    const imported = await shop.dataSource.getRepository(AuditEntry).findOneByOrFail({ action: 'imported' });
    expect(imported).toMatchObject({ actor: 'cp:admin@example.com', changes: { created: { to: ['CP-IMPORTED'] } } });
    const notJson = await admin.agent
      .post('/admin/products/import')
      .set('Accept', 'application/json')
      .field('_csrf', token)
      .attach('file', Buffer.from('{"sku":'), 'broken.json');
    expect(notJson.status).toBe(400);
    expect(notJson.body.error.fields).toEqual({ file: ['is not valid JSON'] });
    const tooLarge = await admin.agent
      .post('/admin/products/import')
      .set('Accept', 'application/json')
      .field('_csrf', token)
      .attach('file', Buffer.alloc(5 * 1024 * 1024 + 1, ' '), 'huge.json');
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.body.error.fields).toEqual({ file: ['must be at most 5 MB'] });

    const exported = await admin.get('/admin/products/export.json').expect(200);
    expect(exported.headers['content-disposition']).toMatch(/^attachment; filename="catalog-\d{4}-\d{2}-\d{2}\.json"$/);
    const rows = JSON.parse(exported.text) as Array<Record<string, unknown>>;
    const socks = rows.find((row) => row.sku === 'CP-SOCKS');
    expect(socks).toMatchObject({
      price: 18.5,
      metaTitle: 'Merino socks for hikers',
      variants: [{ sku: 'CP-SOCKS-M', options: { size: 'M' }, stock: 7 }],
    });
    expect(rows.find((row) => row.sku === 'DEMO-LANTERN-LED')).toMatchObject({
      related: ['DEMO-TENT-2P', 'DEMO-TENT-4P'],
    });
    expect(rows.some((row) => row.sku === 'DEMO-GRINDER-HAND')).toBe(false);
    const before = await products().find({ order: { id: 'ASC' } });
    const roundTrip = await uploadCatalog(rows);
    expect(roundTrip.text).toMatch(/<dt>Created<\/dt><dd>0<\/dd>/);
    expect(roundTrip.text).toMatch(new RegExp(`<dt>Updated</dt><dd>${rows.length}</dd>`));
    expect(roundTrip.text).toMatch(/<dt>Rejected<\/dt><dd>0<\/dd>/);
    const after = await products().find({ order: { id: 'ASC' } });
    const columns = (list: Product[]) =>
      list.map(({ sku, slug, name, price, stock, visible, options, metaTitle, netQuantity }) => ({
        sku,
        slug,
        name,
        price,
        stock,
        visible,
        options,
        metaTitle,
        netQuantity,
      }));
    expect(columns(after)).toEqual(columns(before));
  });

  it('reads no file of the server for an uploaded catalog, whatever the path looks like', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'cp-import-'));
    try {
      const secret = join(outside, 'secret.png');
      writeFileSync(secret, await testPng(8, 8, '#c0392b'));
      const paths = [`file://${secret}`, `file:${secret}`, `/${secret}`, 'file:///dev/zero', 'secret.png'];
      const report = await uploadCatalog([{ sku: 'CP-FILES', name: 'Files Thing', price: 1, stock: 1, images: paths }]);
      expect(report.text).toMatch(/<dt>Created<\/dt><dd>1<\/dd>/);
      expect(report.text).toMatch(/<dt>Pictures left out<\/dt><dd>5<\/dd>/);
      for (const path of paths) {
        expect(report.text).toContain(
          `<td class="wrap">${path}</td><td>is a file path, read only by catalog:import</td>`,
        );
      }
      const product = await bySku('CP-FILES');
      expect(await shop.dataSource.getRepository(ProductImage).countBy({ productId: product!.id })).toBe(0);
      expect(product!.images).toEqual([]);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('leaves out a malformed data: URL and imports its row', async () => {
    const report = await uploadCatalog([
      { sku: 'CP-BAD-DATA', name: 'Bad Data Thing', price: 1, stock: 1, images: ['data:image/png,%E0%A4%A'] },
    ]);
    expect(report.text).toMatch(/<dt>Created<\/dt><dd>1<\/dd>/);
    expect(report.text).toContain('<td>is not a valid data: URL</td>');
    expect(await bySku('CP-BAD-DATA')).toMatchObject({ images: [] });
  });

  it('keeps only paths on this site as site paths, never one a browser loads from another host', async () => {
    const offSite = ['/\\evil.example/x.png', '//evil.example/x.png', '/public/images\\x.png'];
    const report = await uploadCatalog([
      {
        sku: 'CP-SITE-PATHS',
        name: 'Site Paths Thing',
        price: 1,
        stock: 1,
        images: [...offSite, '/public/images/products/firefly-led-lantern.svg'],
      },
    ]);
    expect(report.text).toMatch(/<dt>Pictures left out<\/dt><dd>3<\/dd>/);
    expect(await bySku('CP-SITE-PATHS')).toMatchObject({
      images: ['/public/images/products/firefly-led-lantern.svg'],
    });
  });

  it('reads an import upload only with a CP login, and no field of it over 64 KB', async () => {
    const visitor = new ShopClient(shop.server);
    const token = await visitor.csrfToken();
    // Over multer's 1 MB default: had the body been read, this would be the upload's 400.
    const anonymous = await visitor.agent
      .post('/admin/products/import')
      .set('Accept', 'application/json')
      .field('_csrf', token)
      .field('note', 'x'.repeat(1024 * 1024 + 1))
      .attach('file', Buffer.from('[]'), 'catalog.json');
    expect(anonymous.status).toBe(403);
    expect(anonymous.body.error.code).toBe('csrf_invalid'); // the token in the unread body never reached the guard
    const padded = await admin.agent
      .post('/admin/products/import')
      .set('Accept', 'application/json')
      .field('_csrf', await admin.csrfToken())
      .field('note', 'x'.repeat(64 * 1024 + 1))
      .attach('file', Buffer.from('[]'), 'catalog.json');
    expect(padded.status).toBe(400);
    expect(padded.body.error.fields).toEqual({ file: ['must be one JSON file sent from the import form'] });
  });

  it('refuses a clerk without accessProducts every product page and action', async () => {
    await shop.app.get(CpUsersService).create({
      email: 'orders-clerk@example.com',
      password: 'staff-password-1',
      permissions: ['accessOrders'],
    });
    const clerk = new ShopClient(shop.server);
    await clerk.loginCp('orders-clerk@example.com', 'staff-password-1');
    const tent = (await bySku('DEMO-TENT-2P'))!;
    for (const page of [
      '/admin/products/new',
      '/admin/products/import',
      '/admin/products/export.json',
      `/admin/products/bulk?action=hide&ids=${tent.id}`,
      `/admin/products/${tent.id}/delete`,
    ]) {
      const res = await clerk.get(page);
      expect({ page, status: res.status }).toEqual({ page, status: 403 });
    }
    for (const [path, body] of [
      ['/admin/products/new', { sku: 'CLERK', name: 'Clerk', price: '1' }],
      ['/admin/products/bulk', { action: 'hide', ids: [String(tent.id)], confirm: 'yes' }],
      [`/admin/products/${tent.id}/duplicate`, {}],
      [`/admin/products/${tent.id}/delete`, { confirm: 'yes' }],
      [`/admin/products/${tent.id}/variants`, { sku: 'X', options: 'Size: S', stock: '1' }],
    ] as const) {
      const res = await clerk.post(path, body);
      expect({ path, status: res.status }).toEqual({ path, status: 403 });
    }
    expect(await bySku('CLERK')).toBeNull();
    expect(await products().findOneByOrFail({ id: tent.id })).toMatchObject({ visible: true });
    const nav = await clerk.get('/admin').set('Accept', 'text/html').expect(200);
    expect(nav.text).not.toContain('href="/admin/products"');
  });
});
