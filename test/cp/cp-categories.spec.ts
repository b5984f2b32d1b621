import { In } from 'typeorm';
import { AuditEntry } from '../../src/commerce/audit/audit-entry.entity';
import { CategoryTree } from '../../src/commerce/categories/category-tree';
import { Category } from '../../src/commerce/categories/category.entity';
import { ProductCategory } from '../../src/commerce/categories/product-category.entity';
import { Product } from '../../src/commerce/products/product.entity';
import { withoutDemoCategories } from '../support/catalog';
import { cpStaff } from '../support/cp-staff';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp } from '../support/test-app';

describe('CP categories: the tree, its edits and products in it', () => {
  let shop: TestApp;
  let admin: ShopClient;
  const categories = () => shop.dataSource.getRepository(Category);
  const links = () => shop.dataSource.getRepository(ProductCategory);
  const byPath = (path: string) => categories().findOneByOrFail({ path });
  const paths = async () => (await categories().find({ order: { path: 'ASC' } })).map((category) => category.path);
  const siblingNames = async (parentPath: string | null) => {
    const tree = await CategoryTree.load(shop.dataSource.manager, 1);
    const nodes = parentPath === null ? tree.roots : tree.atPath(parentPath)!.children;
    return nodes.map((node) => node.name);
  };

  /** Creates a category through the JSON form post; its row. */
  async function create(fields: Record<string, unknown>): Promise<Category> {
    const res = await admin.post('/admin/categories', { visible: '1', ...fields });
    expect(res.status).toBe(200);
    return categories().findOneByOrFail({ id: res.body.id });
  }

  /** Saves a category's form with `changes` over its current values. */
  function save(category: Category, changes: Record<string, unknown>) {
    return admin.post(`/admin/categories/${category.id}`, {
      name: category.name,
      slug: category.slug,
      parentId: category.parentId ?? '',
      description: category.description,
      image: category.image,
      visible: category.visible ? '1' : '',
      metaTitle: category.metaTitle,
      metaDescription: category.metaDescription,
      ...changes,
    });
  }

  beforeAll(async () => {
    shop = await startTestApp();
    await withoutDemoCategories(shop.dataSource);
    admin = new ShopClient(shop.server);
    await admin.loginCp();
  });
  afterAll(() => shop.close());

  it('creates a tree three levels deep, slugs made from names, each new one last among its siblings', async () => {
    const form = await admin.get('/admin/categories/new').set('Accept', 'text/html').expect(200);
    expect(form.text).toContain('action="/admin/categories"');
    const made = await admin.submitForm('/admin/categories', { name: 'Káva & Čaj', slug: '', visible: '1' });
    expect(made.status).toBe(303);
    expect(made.headers.location).toBe('/admin/categories');
    const coffee = await byPath('kava-caj');
    expect(coffee).toMatchObject({ name: 'Káva & Čaj', slug: 'kava-caj', parentId: null, visible: true });

    const childForm = await admin.get(`/admin/categories/new?parent=${coffee.id}`).set('Accept', 'text/html');
    expect(childForm.text).toContain(`<option value="${coffee.id}" selected>Káva &amp; Čaj</option>`);
    const brewing = await create({ name: 'Brewing', parentId: String(coffee.id), metaTitle: 'Brew at home' });
    const grinders = await create({ name: 'Grinders', slug: 'grinders', parentId: coffee.id });
    const filters = await create({ name: 'Paper filters', slug: 'filters', parentId: brewing.id, visible: '' });
    expect([brewing.path, grinders.path, filters.path]).toEqual([
      'kava-caj/brewing',
      'kava-caj/grinders',
      'kava-caj/brewing/filters',
    ]);
    expect([brewing.position, grinders.position, filters.position]).toEqual([0, 1, 0]);
    expect(brewing.metaTitle).toBe('Brew at home');
    expect(filters.visible).toBe(false);

    const list = await admin.get('/admin/categories').set('Accept', 'text/html').expect(200);
    expect(list.text).toMatch(/<li id="category-\d+">[\s\S]*Káva &amp; Čaj[\s\S]*<ul>[\s\S]*Brewing[\s\S]*<ul>/);
    expect(list.text).toContain('<code>kava-caj/brewing/filters</code>');
    expect(list.text).toContain(`href="/admin/categories/new?parent=${brewing.id}"`);

    const created = await shop.dataSource
      .getRepository(AuditEntry)
      .find({ where: { area: 'category', action: 'created' }, order: { id: 'ASC' } });
    expect(created.map((entry) => [entry.subjectLabel, entry.actor])).toEqual([
      ['kava-caj', 'cp:admin@example.com'],
      ['kava-caj/brewing', 'cp:admin@example.com'],
      ['kava-caj/grinders', 'cp:admin@example.com'],
      ['kava-caj/brewing/filters', 'cp:admin@example.com'],
    ]);
  });

  it('refuses bad input with a 400 naming each field; a browser gets the form back filled in', async () => {
    const before = await categories().count();
    const bad = await admin.post('/admin/categories', { name: '', slug: 'Not A Slug', parentId: 999999 });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('validation_failed');
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['name', 'parentId', 'slug']);
    const tooLong = await admin.post('/admin/categories', { name: 'x'.repeat(256), slug: 'a'.repeat(101) });
    expect(Object.keys(tooLong.body.error.fields).sort()).toEqual(['name', 'slug']);

    const page = await admin.submitForm('/admin/categories', { name: 'Tea', slug: 'Bad slug', description: 'Leaves' });
    expect(page.status).toBe(400);
    expect(page.text).toContain('value="Tea"');
    expect(page.text).toContain('>Leaves</textarea>');
    expect(page.text).toMatch(/Slug: must be lowercase letters/);
    expect(page.text).toContain('aria-invalid="true"');
    expect(await categories().count()).toBe(before);
  });

  it('a new slug or parent rewrites the paths of the category and of everything below it', async () => {
    const coffee = await byPath('kava-caj');
    const renamed = await save(coffee, { name: 'Coffee', slug: 'coffee' });
    expect(renamed.status).toBe(200);
    expect(await paths()).toEqual(['coffee', 'coffee/brewing', 'coffee/brewing/filters', 'coffee/grinders']);
    expect((await byPath('coffee')).name).toBe('Coffee');

    const tools = await create({ name: 'Tools' });
    await create({ name: 'Kettles', parentId: tools.id });
    const brewing = await byPath('coffee/brewing');
    const moved = await save(brewing, { parentId: tools.id });
    expect(moved.status).toBe(200);
    expect(moved.body.path).toBe('tools/brewing');
    expect(await paths()).toEqual([
      'coffee',
      'coffee/grinders',
      'tools',
      'tools/brewing',
      'tools/brewing/filters',
      'tools/kettles',
    ]);
    expect(await byPath('tools/brewing')).toMatchObject({ parentId: tools.id, position: 1 });
    expect(await siblingNames('tools')).toEqual(['Kettles', 'Brewing']);

    // Back to the top level with a slug made from the name (the field left empty).
    const up = await save(await byPath('tools/brewing'), { parentId: '', name: 'Brewing gear', slug: '' });
    expect(up.body.path).toBe('brewing-gear');
    expect(await paths()).toContain('brewing-gear/filters');
    const audit = await shop.dataSource
      .getRepository(AuditEntry)
      .findOneOrFail({ where: { area: 'category', subject: String(brewing.id) }, order: { id: 'DESC' } });
    expect(audit).toMatchObject({ action: 'moved', subjectLabel: 'brewing-gear' });
    expect(audit.changes).toMatchObject({
      path: { from: 'tools/brewing', to: 'brewing-gear' },
      'sub-categories re-pathed': { from: null, to: 1 },
    });
  });

  it('refuses a name with "/", which the import and export read as a level apart', async () => {
    const refused = await admin.submitForm('/admin/categories', { name: 'Tea/Herbal', slug: '', visible: '1' });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('must not contain &quot;/&quot;');
    expect(await shop.dataSource.getRepository(Category).findOneBy({ name: 'Tea/Herbal' })).toBeNull();
  });

  it('makes a slug that fits from a long name', async () => {
    const name = `${'Very long name '.repeat(12)}end`;
    expect((await admin.submitForm('/admin/categories', { name, slug: '', visible: '1' })).status).toBe(303);
    const made = await shop.dataSource.getRepository(Category).findOneByOrFail({ name });
    expect(made.slug).toBe('very-long-name-'.repeat(7).slice(0, 100).replace(/-+$/, ''));
    await shop.dataSource.getRepository(Category).delete({ id: made.id });
  });

  it('refuses moving a category under itself or one of its own sub-categories', async () => {
    const gear = await byPath('brewing-gear');
    const filters = await byPath('brewing-gear/filters');
    const before = await paths();
    for (const parentId of [gear.id, filters.id]) {
      const refused = await save(gear, { parentId });
      expect(refused.status).toBe(409);
      expect(refused.body.error.code).toBe('category_inside_itself');
    }
    expect(await paths()).toEqual(before);
    const form = await admin.get(`/admin/categories/${gear.id}`).set('Accept', 'text/html').expect(200);
    expect(form.text).not.toContain(`<option value="${filters.id}"`);
    expect(form.text).not.toContain(`<option value="${gear.id}"`);
    expect(form.text).toContain(`<option value="${(await byPath('coffee')).id}"`);
  });

  it("refuses a sibling's slug with a 409 and writes nothing, the category's descendants included", async () => {
    const before = await categories().find({ order: { id: 'ASC' } });
    const auditsBefore = await shop.dataSource.getRepository(AuditEntry).count();
    const clash = await admin.post('/admin/categories', { name: 'Coffee again', slug: 'coffee' });
    expect(clash.status).toBe(409);
    expect(clash.body.error.code).toBe('category_slug_taken');
    const gear = await byPath('brewing-gear');
    const renamed = await save(gear, { slug: 'tools', name: 'Tools gear' });
    expect(renamed.status).toBe(409);
    expect(renamed.body.error).toMatchObject({ code: 'category_slug_taken', fields: { slug: [expect.any(String)] } });
    const movedOnto = await save(await byPath('tools/kettles'), { parentId: '', slug: 'coffee' });
    expect(movedOnto.status).toBe(409);
    expect(await categories().find({ order: { id: 'ASC' } })).toEqual(before);
    expect(await shop.dataSource.getRepository(AuditEntry).count()).toBe(auditsBefore);

    const page = await admin.submitForm(`/admin/categories/${gear.id}`, { name: 'Tools gear', slug: 'tools' });
    expect(page.status).toBe(409);
    expect(page.text).toContain('value="Tools gear"');
    expect(page.text).toContain('Another category under the same parent has this slug');
  });

  it('reorders siblings up, down and to a place, and hides and shows a category', async () => {
    expect(await siblingNames(null)).toEqual(['Coffee', 'Tools', 'Brewing gear']);
    const gear = await byPath('brewing-gear');
    const up = await admin.submitForm(`/admin/categories/${gear.id}/position`, { move: 'up' });
    expect(up.status).toBe(303);
    expect(await siblingNames(null)).toEqual(['Coffee', 'Brewing gear', 'Tools']);
    expect((await admin.post(`/admin/categories/${gear.id}/position`, { place: 1 })).status).toBe(200);
    expect(await siblingNames(null)).toEqual(['Brewing gear', 'Coffee', 'Tools']);
    const top = await admin.post(`/admin/categories/${gear.id}/position`, { move: 'up' });
    expect(top.body.moved).toBe(false);
    expect(
      (await admin.post(`/admin/categories/${(await byPath('tools')).id}/position`, { move: 'down' })).status,
    ).toBe(200);
    expect(await siblingNames(null)).toEqual(['Brewing gear', 'Coffee', 'Tools']);
    const roots = await categories().find({ where: { path: In(['brewing-gear', 'coffee', 'tools']) } });
    expect(roots.map((root) => root.position).sort()).toEqual([0, 1, 2]);

    const coffee = await byPath('coffee');
    const hidden = await admin.submitForm(`/admin/categories/${coffee.id}/visibility`, { visible: '0' });
    expect(hidden.status).toBe(303);
    expect((await byPath('coffee')).visible).toBe(false);
    const list = await admin.get('/admin/categories').set('Accept', 'text/html');
    expect(list.text).toContain('under a hidden one');
    expect((await admin.post(`/admin/categories/${coffee.id}/visibility`, { visible: '1' })).status).toBe(200);
    expect((await byPath('coffee')).visible).toBe(true);
    const actions = await shop.dataSource
      .getRepository(AuditEntry)
      .find({ where: { area: 'category', subject: In([String(gear.id), String(coffee.id)]) }, order: { id: 'ASC' } });
    expect(
      actions.map((entry) => entry.action).filter((action) => action !== 'created' && action !== 'updated'),
    ).toEqual(['moved', 'moved', 'reordered', 'reordered', 'hidden', 'shown']);
  });

  it('puts a product in categories from its edit page, with exactly one primary, and shows the counts', async () => {
    const product = await shop.dataSource.getRepository(Product).findOneOrFail({ where: {}, order: { id: 'ASC' } });
    const [coffee, grinders, kettles] = await Promise.all(
      ['coffee', 'coffee/grinders', 'tools/kettles'].map((path) => byPath(path)),
    );
    const page = await admin.get(`/admin/products/${product.id}`).set('Accept', 'text/html').expect(200);
    expect(page.text).toContain(`action="/admin/products/${product.id}/categories"`);
    expect(page.text).toContain(`<input type="checkbox" name="categories" value="${grinders.id}">`);

    const saved = await admin.submitForm(`/admin/products/${product.id}/categories`, {
      categories: [String(coffee.id), String(grinders.id)],
      primary: String(grinders.id),
    });
    expect(saved.status).toBe(303);
    expect(saved.headers.location).toBe(`/admin/products/${product.id}#categories`);
    const rows = async () =>
      (await links().find({ where: { productId: product.id }, order: { categoryId: 'ASC' } })).map((link) => [
        link.categoryId,
        link.isPrimary,
      ]);
    expect(await rows()).toEqual([
      [coffee.id, false],
      [grinders.id, true],
    ]);
    const shown = await admin.get(`/admin/products/${product.id}`).set('Accept', 'text/html');
    expect(shown.text).toContain(`<input type="radio" name="primary" value="${grinders.id}" checked>`);

    // No primary chosen: the first ticked is; a primary not ticked is put in too.
    expect(
      (await admin.post(`/admin/products/${product.id}/categories`, { categories: [kettles.id, coffee.id] })).status,
    ).toBe(200);
    expect(await rows()).toEqual(
      [
        [coffee.id, false],
        [kettles.id, true],
      ].sort((a, b) => Number(a[0]) - Number(b[0])),
    );
    await admin.post(`/admin/products/${product.id}/categories`, { categories: [coffee.id], primary: kettles.id });
    expect((await rows()).filter(([, primary]) => primary)).toEqual([[kettles.id, true]]);
    expect(await rows()).toHaveLength(2);

    const unknown = await admin.post(`/admin/products/${product.id}/categories`, { categories: [coffee.id, 999999] });
    expect(unknown.status).toBe(400);
    expect(await rows()).toHaveLength(2);

    const list = await admin.get('/admin/categories').set('Accept', 'text/html');
    expect(list.text).toMatch(new RegExp(`<code>tools/kettles</code>[\\s\\S]*?<span>1 product</span>`));
    const audit = await shop.dataSource.getRepository(AuditEntry).findOneOrFail({
      where: { area: 'product', action: 'categories', subject: String(product.id) },
      order: { id: 'ASC' },
    });
    expect(audit.changes).toEqual({
      categories: { from: [], to: ['coffee', 'coffee/grinders'] },
      primaryCategory: { from: null, to: 'coffee/grinders' },
    });

    expect((await admin.submitForm(`/admin/products/${product.id}/categories`, {})).status).toBe(303);
    expect(await rows()).toEqual([]);
  });

  it('deletes only a category without sub-categories; its products get another primary', async () => {
    const [first, second] = await shop.dataSource.getRepository(Product).find({ order: { id: 'ASC' }, take: 2 });
    const [coffee, grinders, kettles] = await Promise.all(
      ['coffee', 'coffee/grinders', 'tools/kettles'].map((path) => byPath(path)),
    );
    await admin.post(`/admin/products/${first.id}/categories`, {
      categories: [grinders.id, kettles.id],
      primary: grinders.id,
    });
    await admin.post(`/admin/products/${second.id}/categories`, { categories: [grinders.id] });

    const refused = await admin.post(`/admin/categories/${coffee.id}/delete`, { confirm: 'yes' });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('category_has_children');
    const unconfirmed = await admin.post(`/admin/categories/${grinders.id}/delete`, {});
    expect(unconfirmed.status).toBe(400);
    expect(await categories().existsBy({ id: grinders.id })).toBe(true);

    const form = await admin.get(`/admin/categories/${grinders.id}`).set('Accept', 'text/html');
    expect(form.text).toContain(`action="/admin/categories/${grinders.id}/delete"`);
    expect(form.text).toContain('name="confirm"');
    const deleted = await admin.submitForm(`/admin/categories/${grinders.id}/delete`, { confirm: 'yes' });
    expect(deleted.status).toBe(303);
    expect(deleted.headers.location).toBe('/admin/categories');
    expect(await categories().existsBy({ id: grinders.id })).toBe(false);
    expect(await links().find({ where: { productId: first.id } })).toEqual([
      expect.objectContaining({ categoryId: kettles.id, isPrimary: true }),
    ]);
    expect(await links().countBy({ productId: second.id })).toBe(0);
    const emptied = await admin.post(`/admin/categories/${coffee.id}/delete`, { confirm: 'yes' });
    expect(emptied.status).toBe(200);
    expect(await categories().existsBy({ id: coffee.id })).toBe(false);
    const audit = await shop.dataSource
      .getRepository(AuditEntry)
      .findOneOrFail({ where: { area: 'category', action: 'deleted', subject: String(grinders.id) } });
    expect(audit.changes).toMatchObject({ path: { from: 'coffee/grinders', to: null }, products: { from: 2, to: 0 } });
  });

  it('is open to staff holding accessProducts only, and linked in their header', async () => {
    const clerk = await cpStaff(shop, 'categories-clerk@example.com', ['accessOrders']);
    await clerk.get('/admin/categories').set('Accept', 'text/html').expect(403);
    const tools = await byPath('tools');
    const refused = await clerk.post(`/admin/categories/${tools.id}/visibility`, { visible: '0' });
    expect(refused.status).toBe(403);
    expect((await byPath('tools')).visible).toBe(true);
    const product = await shop.dataSource.getRepository(Product).findOneOrFail({ where: {}, order: { id: 'ASC' } });
    expect((await clerk.post(`/admin/products/${product.id}/categories`, { categories: [tools.id] })).status).toBe(403);

    const manager = await cpStaff(shop, 'categories-manager@example.com', ['accessProducts']);
    const list = await manager.get('/admin/categories').set('Accept', 'text/html').expect(200);
    expect(list.text).toContain('<a href="/admin/categories">Categories</a>');
  });
});
