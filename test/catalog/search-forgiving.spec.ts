import request from 'supertest';
import { AuditEntry } from '../../src/commerce/audit/audit-entry.entity';
import { SearchMiss } from '../../src/commerce/catalog/search-miss.entity';
import { SearchMisses, MAX_SEARCH_MISSES } from '../../src/commerce/catalog/search-misses.service';
import { SearchSynonym } from '../../src/commerce/catalog/search-synonym.entity';
import { Category } from '../../src/commerce/categories/category.entity';
import { Product } from '../../src/commerce/products/product.entity';
import { TransactionRunner } from '../../src/database/transaction-runner';
import { cpStaff } from '../support/cp-staff';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp } from '../support/test-app';

const HTML = { Accept: 'text/html' };

describe('search that forgives', () => {
  let shop: TestApp;
  let admin: ShopClient;

  beforeAll(async () => {
    shop = await startTestApp();
    // Before the first search: the vocabulary is read then, and kept for minutes.
    await shop.app.get(TransactionRunner).run(async ({ manager }) => {
      const base = { storeId: 1, description: 'A shop test product.', price: 900, stock: 4, images: [], options: [] };
      await manager.save(Product, [
        { ...base, sku: 'T-SCOOP', slug: 't-coffee-scoop', name: 'Coffee Scoop' },
        { ...base, sku: 'T-SOFA', slug: 't-camp-sofa', name: 'Inflatable Camp Sofa' },
        { ...base, sku: 'T-SECRET', slug: 't-secret-grinder', name: 'Secret Grinder Prototype', visible: false },
      ]);
      const category = { storeId: 1, parentId: null, description: '', position: 0 };
      await manager.save(Category, [
        { ...category, name: 'Coffee Grinders', slug: 'coffee-grinders', path: 'coffee-grinders', visible: true },
        { ...category, name: 'Grinder Spares', slug: 'grinder-spares', path: 'grinder-spares', visible: false },
      ]);
    });
    admin = new ShopClient(shop.server);
    await admin.loginCp();
  });
  afterAll(() => shop.close());

  const json = (path: string) => request(shop.server).get(path).set('Accept', 'application/json');
  const html = (path: string) => request(shop.server).get(path).set(HTML);
  const search = async (q: string) =>
    (await json(`/shop/catalog/search-results?q=${encodeURIComponent(q)}&perPage=100`).expect(200)).body as {
      products: Array<{ sku: string; name: string }>;
      total: number;
      didYouMean: string | null;
    };
  const skus = (body: { products: Array<{ sku: string }> }) => body.products.map((product) => product.sku);
  const misses = () => shop.dataSource.getRepository(SearchMiss).find({ order: { term: 'ASC' } });

  it('finds words by their beginning, as typed', async () => {
    const found = await search('espre');
    expect(skus(found)).toEqual(expect.arrayContaining(['DEMO-ESPRESSO-LEVER', 'DEMO-TAMPER']));
    expect(found.didYouMean).toBeNull();
  });

  it('forgives typos in longer words and says which spelling it searched for', async () => {
    const coffee = await search('cofe');
    expect(skus(coffee)).toContain('T-SCOOP');
    expect(coffee.didYouMean).toBe('coffee');

    const espresso = await search('expresso');
    expect(skus(espresso)).toEqual(expect.arrayContaining(['DEMO-ESPRESSO-LEVER', 'DEMO-TAMPER']));
    expect(espresso.didYouMean).toBe('espresso');

    const grinder = await search('grnder');
    expect(skus(grinder)).toEqual(['DEMO-GRINDER-HAND']);
    expect(grinder.didYouMean).toBe('grinder');

    // Two typos in a word of 7 letters, and a word of two words corrected alone.
    expect(skus(await search('expreso'))).toContain('DEMO-ESPRESSO-LEVER');
    const both = await search('hand grnider');
    expect(skus(both)).toEqual(['DEMO-GRINDER-HAND']);
    expect(both.didYouMean).toBe('hand grinder');

    const page = await html('/shop/catalog/search-results?q=expresso').expect(200);
    expect(page.text).toContain('<p class="search-respelt">Showing results for <strong>espresso</strong></p>');
    expect(page.text).toContain('Leverette Espresso Maker');
  });

  it('does not fuzz short words, and never finds a hidden product', async () => {
    expect(await search('mig')).toMatchObject({ total: 0, didYouMean: null });
    const hidden = await search('prototype');
    expect(hidden.total).toBe(0);
    expect(skus(await search('secret grnder'))).toEqual([]);
  });

  it('offers a looser spelling as "did you mean" when nothing is found', async () => {
    const found = await search('grnd');
    expect(found).toMatchObject({ total: 0, products: [], didYouMean: 'grinder' });
    const page = await html('/shop/catalog/search-results?q=grnd').expect(200);
    expect(page.text).toContain(
      '<p class="search-respelt">Did you mean: <a href="/shop/catalog/search-results?q&#x3D;grinder">grinder</a>?</p>',
    );
    // The link keeps the shopper's language and filters.
    const slovak = await html('/shop/catalog/search-results?q=grnd&lang=sk&f.brand=leverette').expect(200);
    expect(slovak.text).toContain(
      '<a href="/shop/catalog/search-results?q&#x3D;grinder&amp;f.brand&#x3D;leverette&amp;lang&#x3D;sk">grinder</a>',
    );
    expect(await search('zzqx')).toMatchObject({ total: 0, didYouMean: null });
  });

  it('counts searches without results per normalised term and lists them in the CP', async () => {
    await shop.app.get(SearchMisses).flush(); // what the tests before noted
    await shop.dataSource.getRepository(SearchMiss).clear();
    await search('Qwyrtz  Blorp');
    await search('qwyrtz blorp!');
    await search('plonkity');
    // 99 letters then letters outside the BMP: the 100-character cut falls between two halves of one.
    await search(`${'x'.repeat(99)}${'𝐚'.repeat(3)}`);
    await search('grinder'); // found: not counted
    await json('/shop/catalog/suggest?q=zzzzzz').expect(200); // typing is not searching
    expect(await misses()).toEqual([]); // noted in memory, written together (every 30 s in a running shop)
    await shop.app.get(SearchMisses).flush();
    expect((await misses()).map(({ term, searches }) => ({ term, searches }))).toEqual([
      { term: 'plonkity', searches: 1 },
      { term: 'qwyrtz blorp', searches: 2 },
      { term: `${'x'.repeat(99)}𝐚`, searches: 1 },
    ]);

    const list = await admin.get('/admin/search/misses').set(HTML).expect(200);
    const rows = [...list.text.matchAll(/<tr>\s*<td>([^<]+)<\/td>\s*<td>(\d+)<\/td>/g)].map((row) => [row[1], row[2]]);
    expect(rows).toEqual([
      ['qwyrtz blorp', '2'],
      [`${'x'.repeat(99)}𝐚`, '1'],
      ['plonkity', '1'],
    ]);
    expect(list.text).toContain('href="/admin/search?words&#x3D;plonkity%2C+"');
    const prefilled = await admin.get('/admin/search?words=plonkity%2C+').set(HTML).expect(200);
    expect(prefilled.text).toContain('value="plonkity, "');
  });

  it('keeps the misses bounded: old terms go, and the least searched beyond the limit', async () => {
    const repository = shop.dataSource.getRepository(SearchMiss);
    await repository.clear();
    const now = Date.now();
    const day = 24 * 60 * 60_000;
    await repository.insert([
      { storeId: 1, term: 'ancient', searches: 9, lastSearchedAt: now - 91 * day },
      { storeId: 1, term: 'recent', searches: 1, lastSearchedAt: now - day },
    ]);
    const noted = shop.app.get(SearchMisses);
    noted.note(1, 'brandnew', now);
    await noted.flush(now);
    expect((await misses()).map(({ term }) => term)).toEqual(['brandnew', 'recent']);

    await repository.clear();
    const rows = Array.from({ length: MAX_SEARCH_MISSES }, (_, index) => ({
      storeId: 1,
      term: `term${index}`,
      // term0 is searched most, so the flood of single searches beyond the limit cannot push it out.
      searches: index === 0 ? 50 : 1,
      lastSearchedAt: now - day + index,
    }));
    for (let start = 0; start < rows.length; start += 500) await repository.insert(rows.slice(start, start + 500));
    noted.note(1, 'one more', now);
    await noted.flush(now);
    expect(await repository.count()).toBe(MAX_SEARCH_MISSES);
    expect(await repository.findOneBy({ term: 'term0' })).not.toBeNull();
    expect(await repository.findOneBy({ term: 'term1' })).toBeNull();
    expect(await repository.findOneBy({ term: 'one more' })).not.toBeNull();
    await repository.clear();
  });

  it('takes synonym groups from the CP: add, validate, edit, delete, each audited', async () => {
    expect(skus(await search('couch'))).toEqual([]);
    const created = await admin.submitForm('/admin/search/synonyms', { words: 'Sofa, couch ,settee, sofa' });
    expect(created.status).toBe(303);
    expect(created.headers.location).toBe('/admin/search');
    const [group] = await shop.dataSource.getRepository(SearchSynonym).find();
    expect(group.words).toEqual(['sofa', 'couch', 'settee']);
    const page = await admin.get('/admin/search').set(HTML).expect(200);
    expect(page.text).toContain('Synonyms “sofa, couch, settee” added.');
    expect(page.text).toContain('<td>sofa, couch, settee</td>');
    expect(skus(await search('couch'))).toEqual(['T-SOFA']);
    expect(skus(await search('settee camp'))).toEqual(['T-SOFA']);

    for (const words of ['sofa', 'sofa, so fa', 'sofa, <b>', `sofa, ${'x'.repeat(51)}`, '']) {
      const refused = await admin.submitForm('/admin/search/synonyms', { words }, 'http://localhost/admin/search');
      expect({ words, status: refused.status }).toEqual({ words, status: 303 });
    }
    const tooMany = Array.from({ length: 21 }, (_, index) => `w${index}`).join(', ');
    const refusedJson = await admin.post('/admin/search/synonyms', { words: tooMany });
    expect(refusedJson.status).toBe(400);
    expect(refusedJson.body.error.fields.words).toEqual(['give 2 to 20 different words, separated by commas']);
    expect(await shop.dataSource.getRepository(SearchSynonym).count()).toBe(1);

    const form = await admin.get(`/admin/search/synonyms/${group.id}`).set(HTML).expect(200);
    expect(form.text).toContain('value="sofa, couch, settee"');
    await admin.submitForm(`/admin/search/synonyms/${group.id}`, { words: 'sofa, divan' });
    expect(skus(await search('divan'))).toEqual(['T-SOFA']);
    expect(skus(await search('couch'))).toEqual([]);

    const unconfirmed = await admin.submitForm(`/admin/search/synonyms/${group.id}/delete`, {});
    expect(unconfirmed.status).toBe(303);
    expect(await shop.dataSource.getRepository(SearchSynonym).count()).toBe(1);
    await admin.submitForm(`/admin/search/synonyms/${group.id}/delete`, { confirm: 'yes' });
    expect(await shop.dataSource.getRepository(SearchSynonym).count()).toBe(0);
    expect(skus(await search('divan'))).toEqual([]);

    const audit = await shop.dataSource
      .getRepository(AuditEntry)
      .find({ where: { subject: `synonyms:${group.id}` }, order: { id: 'ASC' } });
    expect(audit.map(({ actor, action, changes }) => ({ actor, action, changes }))).toEqual([
      {
        actor: 'cp:admin@example.com',
        action: 'search-synonyms-created',
        changes: { words: { from: null, to: ['sofa', 'couch', 'settee'] } },
      },
      {
        actor: 'cp:admin@example.com',
        action: 'search-synonyms-updated',
        changes: { words: { from: ['sofa', 'couch', 'settee'], to: ['sofa', 'divan'] } },
      },
      {
        actor: 'cp:admin@example.com',
        action: 'search-synonyms-deleted',
        changes: { words: { from: ['sofa', 'divan'], to: null } },
      },
    ]);
  });

  it('lets only staff with accessProducts in', async () => {
    const marketer = await cpStaff(shop, 'marketer@example.com', ['accessMarketing']);
    await marketer.get('/admin/search').set(HTML).expect(403);
    await marketer.get('/admin/search/misses').set(HTML).expect(403);
    expect((await marketer.post('/admin/search/synonyms', { words: 'a, b' })).status).toBe(403);
    const clerk = await cpStaff(shop, 'clerk@example.com', ['accessProducts']);
    await clerk.get('/admin/search').set(HTML).expect(200);
  });

  it('suggests products and shown categories while typing, cheaply cacheable', async () => {
    const res = await json('/shop/catalog/suggest?q=grind').expect(200);
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    expect(Object.keys(res.body).sort()).toEqual(['categories', 'didYouMean', 'products', 'query', 'success']);
    expect(res.body).toMatchObject({ success: true, query: 'grind', didYouMean: null });
    expect(res.body.products).toEqual([
      {
        name: 'Hand Burr Grinder',
        sku: 'DEMO-GRINDER-HAND',
        url: expect.stringMatching(/\/shop\/p\/hand-burr-grinder$/),
        image: expect.stringMatching(/\.svg$/),
        price: expect.stringMatching(/^€\d+\.\d\d$/),
        inStock: true,
      },
    ]);
    // Other categories of the demo tree may match too; the hidden one never does.
    const names = (body: { categories: Array<{ name: string }> }) => body.categories.map((category) => category.name);
    expect(res.body.categories).toContainEqual({
      name: 'Coffee Grinders',
      url: `${shop.config.baseUrl}/shop/c/coffee-grinders`,
    });
    expect(names(res.body)).not.toContain('Grinder Spares');
    expect(res.body.categories.length).toBeLessThanOrEqual(4);

    const many = (await json('/shop/catalog/suggest?q=ca').expect(200)).body;
    expect(many.products).toHaveLength(6);
    expect((await search('ca')).total).toBeGreaterThan(6);

    const typo = (await json('/shop/catalog/suggest?q=cofe').expect(200)).body;
    expect(typo.products.map((product: { name: string }) => product.name)).toContain('Coffee Scoop');
    expect(names(typo)).toContain('Coffee Grinders');
    expect(typo.didYouMean).toBe('coffee');

    for (const q of ['', 'g', ' g ']) {
      expect((await json(`/shop/catalog/suggest?q=${encodeURIComponent(q)}`).expect(200)).body).toEqual({
        success: true,
        query: q,
        products: [],
        categories: [],
        didYouMean: null,
      });
    }
    const hidden = (await json('/shop/catalog/suggest?q=barista').expect(200)).body;
    expect(hidden.products).toEqual([]);
    const spares = (await json('/shop/catalog/suggest?q=spares').expect(200)).body;
    expect(names(spares)).not.toContain('Grinder Spares');
    expect((await json(`/shop/catalog/suggest?q=${'a'.repeat(201)}`).expect(400)).body.error.fields).toHaveProperty(
      'q',
    );
  });

  it('wires the header field for the suggestions script, and the form still searches without it', async () => {
    const page = await html('/').expect(200);
    expect(page.text).toContain('<script src="/public/js/search-suggest.js" defer></script>');
    expect(page.text).toContain(
      '<ul id="site-search-suggestions" class="site-search-suggestions" role="listbox" aria-label="Suggestions" hidden></ul>',
    );
    expect(page.text).toContain(
      '<form role="search" class="site-search" action="/shop/catalog/search-results" method="get">',
    );
    await request(shop.server).get('/public/js/search-suggest.js').expect(200);
  });
});
