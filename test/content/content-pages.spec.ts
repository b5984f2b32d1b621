import request from 'supertest';
import { CONTENT_PAGE_SLUGS } from '../../src/commerce/content/content-page-slugs';
import { ContentPage } from '../../src/commerce/content/content-page.entity';
import { CpUsersService } from '../../src/commerce/staff/cp-users.service';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp, usingMysql } from '../support/test-app';

/**
 * The content pages (docs/shop.md, _Content pages_): default texts per shop language, served at stable shop URLs and
 * linked in the footer; staff edit them in the CP behind `accessContent`, each save a new version, and what they
 * type is shown as text, never as markup.
 */
describe(`content pages (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  let admin: ShopClient;
  beforeAll(async () => {
    shop = await startTestApp();
    admin = new ShopClient(shop.server);
    await admin.loginCp();
  });
  afterAll(() => shop.close());

  const pages = () => shop.dataSource.getRepository(ContentPage);

  async function slovak(): Promise<ShopClient> {
    const client = new ShopClient(shop.server);
    expect((await client.submitForm('/shop/language/set', { language: 'sk' })).status).toBe(303);
    return client;
  }

  async function staff(email: string, permissions: string[]): Promise<ShopClient> {
    await shop.app.get(CpUsersService).create({ email, password: 'staff-password-1', permissions });
    const client = new ShopClient(shop.server);
    await client.loginCp(email, 'staff-password-1');
    return client;
  }

  /** A CP save as the edit form sends it, answered as JSON. */
  async function save(client: ShopClient, slug: string, language: string, fields: object) {
    return client.post(`/admin/content-pages/${slug}/${language}`, fields);
  }

  it('seeds every page in every shop language once, and serves each at its shop URL', async () => {
    const rows = await pages().find({ order: { slug: 'ASC', language: 'ASC' } });
    expect(rows.map((row) => `${row.slug}:${row.language}:${row.version}`).sort()).toEqual(
      CONTENT_PAGE_SLUGS.flatMap((slug) => [`${slug}:en:1`, `${slug}:sk:1`]).sort(),
    );

    for (const slug of CONTENT_PAGE_SLUGS) {
      const res = await request(shop.server).get(`/shop/page/${slug}`).expect(200);
      expect(res.headers['cache-control']).toBe('public, max-age=60');
      expect(res.text).toContain('Version 1, updated');
    }
    const privacy = (await request(shop.server).get('/shop/page/privacy').expect(200)).text;
    expect(privacy).toContain('<h1>Privacy policy</h1>');
    // The cookie the shop sets, named as src/web/sessions.ts names it; the CSRF token lives in that session.
    expect(privacy).toContain('shop.sid: the session cookie.');
    expect(privacy).toContain('the CSRF token is kept in the session this cookie names');
    const accessibility = (await request(shop.server).get('/shop/page/accessibility').expect(200)).text;
    for (const heading of ['Conformance status', 'Known gaps', 'Feedback and contact']) {
      expect(accessibility).toContain(`<h2>${heading}</h2>`);
    }
    expect(accessibility).toContain('<li>Checkout needs JavaScript to list the shipping and payment methods.</li>');

    const sk = await slovak();
    const terms = (await sk.get('/shop/page/terms').expect(200)).text;
    expect(terms).toContain('<h1>Obchodné podmienky</h1>');
    expect(terms).toContain('Verzia 1, aktualizované');
    expect(terms).toContain('>Predávajúci</h2>');

    const missing = await request(shop.server).get('/shop/page/imprint').set('Accept', 'application/json').expect(404);
    expect(missing.body).toEqual({ success: false, error: { code: 'not_found', message: 'There is no such page.' } });
  });

  it('links every page in the footer, in the page language', async () => {
    const home = (await request(shop.server).get('/').expect(200)).text;
    const footer = /<footer class="site-footer">([\s\S]*?)<\/footer>/.exec(home)![1];
    const links = [...footer.matchAll(/<a href="(\/shop\/page\/[a-z]+)">([^<]+)<\/a>/g)].map((m) => [m[1], m[2]]);
    expect(links).toEqual([
      ['/shop/page/terms', 'Terms and conditions'],
      ['/shop/page/privacy', 'Privacy policy'],
      ['/shop/page/withdrawal', 'Withdrawal and returns'],
      ['/shop/page/contact', 'Contact'],
      ['/shop/page/accessibility', 'Accessibility statement'],
    ]);
    const skPage = (await (await slovak()).get('/shop/page/contact').expect(200)).text;
    expect(skPage).toContain('<a href="/shop/page/accessibility">Vyhlásenie o prístupnosti</a>');
    expect(skPage).toContain('<a href="/shop/page/withdrawal">Odstúpenie od zmluvy a vrátenie</a>');
    // The withdrawal information leads to the withdrawal function itself.
    const withdrawal = (await request(shop.server).get('/shop/page/withdrawal').expect(200)).text;
    expect(withdrawal).toContain('<a class="button" href="/shop/withdrawal">Withdraw from contract</a>');
  });

  it('saves a CP edit as the next version, shown in the shop in its language only', async () => {
    const list = await admin.get('/admin/content-pages').set('Accept', 'text/html').expect(200);
    expect(list.text).toContain('<a href="/admin/content-pages/contact/en">Contact</a>');
    const form = await admin.get('/admin/content-pages/contact/en').set('Accept', 'text/html').expect(200);
    expect(form.text).toContain('<input type="hidden" name="version" value="1">');
    expect(form.text).toMatch(/<input type="hidden" name="_csrf" value="[^"]{20,}">/);

    const saved = await admin.submitForm('/admin/content-pages/contact/en', {
      title: 'Talk to us',
      body: 'Call us on weekdays.\n\n## Opening hours\n- Monday to Friday\n- 9:00 to 17:00',
      version: '1',
    });
    expect(saved.status).toBe(303);
    expect(saved.headers.location).toBe('/admin/content-pages/contact/en');

    const page = (await request(shop.server).get('/shop/page/contact').expect(200)).text;
    expect(page).toContain('<h1>Talk to us</h1>');
    expect(page).toContain('Version 2, updated');
    expect(page).toContain('<p>Call us on weekdays.</p>');
    expect(page).toContain('<h2>Opening hours</h2>');
    expect(page).toContain('<ul><li>Monday to Friday</li><li>9:00 to 17:00</li></ul>');
    // The Slovak page is a page of its own.
    expect((await (await slovak()).get('/shop/page/contact').expect(200)).text).toContain('<h1>Kontakt</h1>');

    const versions = await pages().find({ where: { slug: 'contact', language: 'en' }, order: { version: 'ASC' } });
    expect(versions.map(({ version, title, editedBy }) => ({ version, title, editedBy }))).toEqual([
      { version: 1, title: 'Contact', editedBy: null },
      { version: 2, title: 'Talk to us', editedBy: 'cp:admin@example.com' },
    ]);
  });

  it('shows what staff type as text: a script comes back escaped, never raw', async () => {
    const attack = '<script>alert("x")</script><img src=x onerror=alert(1)>';
    const res = await save(admin, 'privacy', 'en', { title: `Privacy ${attack}`, body: `Hello ${attack}`, version: 1 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, slug: 'privacy', language: 'en', version: 2 });

    for (const html of [
      (await request(shop.server).get('/shop/page/privacy').expect(200)).text,
      (await admin.get('/admin/content-pages/privacy/en').set('Accept', 'text/html').expect(200)).text,
      (await admin.get('/admin/content-pages').set('Accept', 'text/html').expect(200)).text,
    ]) {
      expect(html).not.toContain('<script>alert');
      expect(html).not.toContain('<img src=x');
      expect(html).toContain(
        '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src&#x3D;x onerror&#x3D;alert(1)&gt;',
      );
    }
    // Stored as typed: escaping is the view's job, so the form shows the text back unchanged.
    expect((await pages().findOneByOrFail({ slug: 'privacy', language: 'en', version: 2 })).body).toBe(
      `Hello ${attack}`,
    );
  });

  it('refuses a save over a newer version, and lets only one of two saves from the same version through', async () => {
    const stale = await save(admin, 'terms', 'sk', { title: 'Podmienky', body: 'Text.', version: 0 });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toEqual({
      code: 'content_page_changed',
      message: 'Someone saved this page meanwhile (now version 1). Open it again and make your change there.',
    });

    const other = new ShopClient(shop.server);
    await other.loginCp();
    const both = await Promise.all([
      save(admin, 'terms', 'sk', { title: 'Podmienky A', body: 'A', version: 1 }),
      save(other, 'terms', 'sk', { title: 'Podmienky B', body: 'B', version: 1 }),
    ]);
    expect(both.map((res) => res.status).sort()).toEqual([200, 409]);
    expect(await pages().countBy({ slug: 'terms', language: 'sk' })).toBe(2);
  });

  it('answers bad input with the fields to fix, an unknown page or language with 404', async () => {
    const bad = await save(admin, 'withdrawal', 'en', { title: ' ', body: '', version: 'one' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('validation_failed');
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['body', 'title', 'version']);
    expect((await save(admin, 'withdrawal', 'en', { title: '   ', body: 'x', version: 1 })).status).toBe(400);
    expect((await save(admin, 'imprint', 'en', { title: 'x', body: 'x', version: 1 })).status).toBe(404);
    expect((await save(admin, 'withdrawal', 'de', { title: 'x', body: 'x', version: 1 })).status).toBe(404);
    await admin.get('/admin/content-pages/withdrawal/de').expect(404);
    expect(await pages().countBy({ slug: 'withdrawal' })).toBe(2);
  });

  it('needs the CSRF token and the accessContent permission', async () => {
    const noToken = await admin.agent
      .post('/admin/content-pages/contact/sk')
      .send({ title: 'x', body: 'x', version: 1 });
    expect(noToken.status).toBe(403);

    const clerk = await staff('orders-clerk@example.com', ['accessOrders']);
    for (const res of [
      await clerk.get('/admin/content-pages'),
      await clerk.get('/admin/content-pages/contact/sk'),
      await save(clerk, 'contact', 'sk', { title: 'x', body: 'x', version: 1 }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.error.message).toBe('You need the accessContent permission to open this page.');
    }
    const editor = await staff('editor@example.com', ['accessContent']);
    const nav = (await editor.get('/admin').set('Accept', 'text/html').expect(200)).text;
    expect(nav).toContain('<a href="/admin/content-pages">Content pages</a>');
    expect((await save(editor, 'contact', 'sk', { title: 'Kontakt', body: 'Píšte nám.', version: 1 })).status).toBe(
      200,
    );
    expect(await pages().countBy({ slug: 'contact', language: 'sk' })).toBe(2);
  });
});
