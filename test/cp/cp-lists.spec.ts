import { In } from 'typeorm';
import { CouponService } from '../../src/commerce/coupons/coupon.service';
import { Coupon } from '../../src/commerce/coupons/coupon.entity';
import { GiftCardDesigns } from '../../src/commerce/gift-cards/gift-card-designs.service';
import { GiftCardProduct } from '../../src/commerce/gift-cards/gift-card-product.entity';
import { GiftCard } from '../../src/commerce/gift-cards/gift-card.entity';
import { OrderReturn } from '../../src/commerce/returns/return.entity';
import { FlowsService } from '../../src/flow/flows.service';
import { Flow } from '../../src/flow/flow.entity';
import { Job } from '../../src/jobs/job.entity';
import { formFields } from '../support/cp-forms';
import { insertOrder } from '../support/fixtures';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp } from '../support/test-app';

/** 55 rows: more than a page of 50. `scrambled(i)` puts a column out of the creation order. */
const ROWS = 55;
const scrambled = (i: number) => (i * 37) % ROWS;
const RETURN_STATES = ['requested', 'approved', 'refused', 'received'] as const;

/**
 * The CP lists page and sort on the server, and their links keep the list's other parameters; their destructive
 * actions are done only with the "I am sure" box ticked.
 */
describe('CP list paging and sorting', () => {
  let shop: TestApp;
  let staff: ShopClient;
  let cardIds: number[];
  let returnIds: number[];
  let jobIds: number[];

  beforeAll(async () => {
    shop = await startTestApp();
    staff = new ShopClient(shop.server);
    await staff.loginCp();
    const coupons = shop.app.get(CouponService);
    // Codes in a scrambled order, so the sort by code is not the creation order.
    for (let i = 0; i < ROWS; i++) {
      await coupons.create({ code: `LIST${String(scrambled(i)).padStart(2, '0')}`, type: 'percent', value: 5 });
    }
    const rows = Array.from({ length: ROWS }, (_, i) => i);
    // Values repeat (every fifth the same), so the sort by value needs its tie-break by id.
    const cards = await shop.dataSource.getRepository(GiftCard).save(
      rows.map((i) => ({
        code: `LISTCARD${String(i).padStart(8, '0')}`,
        initialAmount: (scrambled(i) % 11) * 100 + 100,
        balance: 100,
        currency: 'EUR',
        expiresAt: null,
        status: 'active' as const,
        issuedBy: 'cli',
      })),
    );
    cardIds = cards.map((card) => card.id);
    const order = await insertOrder(shop.dataSource, 'completed');
    const returns = await shop.dataSource.getRepository(OrderReturn).save(
      rows.map((i) => ({
        orderId: order.id,
        status: RETURN_STATES[scrambled(i) % RETURN_STATES.length],
        reason: `List return ${i}`,
        language: 'en',
      })),
    );
    returnIds = returns.map((ret) => ret.id);
    // Failed jobs: the workers leave them alone, and `?status=failed` lists only these.
    const jobs = await shop.dataSource.getRepository(Job).save(
      rows.map((i) => ({
        name: `list.job${String(scrambled(i)).padStart(2, '0')}`,
        payload: {},
        status: 'failed' as const,
        attempts: 1,
        maxAttempts: 1,
        runAt: Date.now(),
        lastError: 'test',
      })),
    );
    jobIds = jobs.map((job) => job.id);
  });
  afterAll(() => shop.close());

  /** The page as a browser reads its attributes (handlebars writes `=` and `&` in URLs as entities). */
  const page = async (path: string) =>
    (await staff.get(path).set('Accept', 'text/html').expect(200)).text
      .replaceAll('&#x3D;', '=')
      .replaceAll('&amp;', '&');
  const codes = (html: string) => [...html.matchAll(/<code>(LIST\d\d)<\/code>/g)].map((match) => match[1]);
  const idsIn = (html: string, pattern: RegExp) => [...html.matchAll(pattern)].map((match) => Number(match[1]));
  /** `ids` ordered by `key` then id, both one way: what a sorted list shows. */
  const sorted = <T extends { id: number }>(rows: T[], key: (row: T) => string | number, direction = 1) =>
    [...rows]
      .sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id - b.id) * direction)
      .map((row) => row.id);

  describe('coupons', () => {
    it('links the next page, newest first by default', async () => {
      const res = await page('/admin/coupons');
      expect(res).toContain('Page 1 of 2');
      expect(res).toContain('<a rel="next" href="/admin/coupons?page=2">');
      expect(res).not.toContain('rel="prev"');
      expect(codes(res)[0]).toBe(`LIST${String(scrambled(54)).padStart(2, '0')}`);

      const second = await page('/admin/coupons?page=2');
      expect(second).toContain('<a rel="prev" href="/admin/coupons?page=1">');
      expect(codes(second)).toHaveLength(5);
    });

    it('sorts by a column both ways, and pages keep the sort', async () => {
      const ascending = await page('/admin/coupons?sort=code');
      expect(codes(ascending).slice(0, 3)).toEqual(['LIST00', 'LIST01', 'LIST02']);
      expect(ascending).toContain('<th scope="col" aria-sort="ascending"><a href="/admin/coupons?sort=-code">Code ▲');
      expect(ascending).toContain('<a rel="next" href="/admin/coupons?sort=code&page=2">');

      const lastPage = await page('/admin/coupons?sort=code&page=2');
      expect(codes(lastPage)).toEqual(['LIST50', 'LIST51', 'LIST52', 'LIST53', 'LIST54']);

      const descending = await page('/admin/coupons?sort=-code');
      expect(codes(descending).slice(0, 2)).toEqual(['LIST54', 'LIST53']);
      expect(descending).toContain('aria-sort="descending"><a href="/admin/coupons?sort=code">Code ▼');
    });

    it('answers a page far past the end with an empty list, not an error', async () => {
      for (const list of ['coupons', 'customers', 'orders', 'products', 'audit', 'users', 'jobs']) {
        const res = await staff.get(`/admin/${list}?page=${'9'.repeat(25)}`).set('Accept', 'text/html');
        expect(`${list}: ${res.status}`).toBe(`${list}: 200`);
      }
    });

    it('lists in the default order for a sort it does not know', async () => {
      const res = await page('/admin/coupons?sort=passwordHash');
      expect(codes(res)).toEqual(codes(await page('/admin/coupons')));
      expect(res).not.toContain('aria-sort');
    });
  });

  describe('gift cards', () => {
    const listed = (html: string) => idsIn(html, /action="\/admin\/gift-cards\/(\d+)\/status"/g);

    it('pages newest first, and sorts by value with the id breaking ties', async () => {
      const first = await page('/admin/gift-cards');
      expect(listed(first)).toEqual([...cardIds].reverse().slice(0, 50));
      expect(first).toContain('<a rel="next" href="/admin/gift-cards?page=2">');

      const mine = await shop.dataSource.getRepository(GiftCard).findBy({ id: In(cardIds) });
      const byValue = sorted(mine, (card) => card.initialAmount);
      const ascending = await page('/admin/gift-cards?sort=initialAmount');
      expect(listed(ascending)).toEqual(byValue.slice(0, 50));
      expect(ascending).toContain('<a rel="next" href="/admin/gift-cards?sort=initialAmount&page=2">');
      expect(listed(await page('/admin/gift-cards?sort=initialAmount&page=2'))).toEqual(byValue.slice(50));

      const descending = await page('/admin/gift-cards?sort=-initialAmount');
      expect(listed(descending)).toEqual(sorted(mine, (card) => card.initialAmount, -1).slice(0, 50));
      expect(descending).toContain('aria-sort="descending"><a href="/admin/gift-cards?sort=initialAmount">Value ▼');
      // The code search keeps the sort.
      expect(descending).toContain('<input type="hidden" name="sort" value="-initialAmount">');
    });
  });

  describe('returns', () => {
    const listed = (html: string) => idsIn(html, /<a href="\/admin\/returns\/(\d+)">/g);

    it('pages newest first, sorts by status, and keeps the status filter in its links', async () => {
      const first = await page('/admin/returns');
      expect(listed(first)).toEqual([...returnIds].reverse().slice(0, 50));
      expect(first).toContain('Page 1 of 2');

      const rows = await shop.dataSource.getRepository(OrderReturn).find();
      const byStatus = sorted(rows, (ret) => ret.status);
      const ascending = await page('/admin/returns?sort=status');
      expect(listed(ascending)).toEqual(byStatus.slice(0, 50));
      expect(listed(await page('/admin/returns?sort=status&page=2'))).toEqual(byStatus.slice(50));
      expect(ascending).toContain('aria-sort="ascending"><a href="/admin/returns?sort=-status">Status ▲');

      const requested = await page('/admin/returns?status=requested&sort=-id');
      const requestedIds = rows.filter((ret) => ret.status === 'requested').map((ret) => ret.id);
      expect(listed(requested)).toEqual(requestedIds.reverse());
      expect(requested).toContain('<a href="/admin/returns?status=requested&sort=id">Return');
    });
  });

  describe('jobs', () => {
    const listed = (html: string) => idsIn(html, /<tr>\s*<td>(\d+)<\/td><td>list\.job/g);

    it('pages newest first and sorts by name, keeping the status tab', async () => {
      const first = await page('/admin/jobs?status=failed');
      expect(listed(first)).toEqual([...jobIds].reverse().slice(0, 50));
      expect(first).toContain('<a rel="next" href="/admin/jobs?status=failed&page=2">');
      expect(listed(await page('/admin/jobs?status=failed&page=2'))).toEqual([...jobIds].reverse().slice(50));

      const rows = await shop.dataSource.getRepository(Job).findBy({ status: 'failed' });
      const byName = await page('/admin/jobs?status=failed&sort=name');
      expect(listed(byName)).toEqual(sorted(rows, (job) => job.name).slice(0, 50));
      expect(byName).toContain('aria-sort="ascending"><a href="/admin/jobs?status=failed&sort=-name">Job ▲');
      expect(listed(await page('/admin/jobs?status=failed&sort=-name'))).toEqual(
        sorted(rows, (job) => job.name, -1).slice(0, 50),
      );
    });

    it('answers 400 for a status that is none', async () => {
      await staff.get('/admin/jobs?status=bogus').set('Accept', 'text/html').expect(400);
    });
  });

  it("sorts the withdrawals, the abandoned carts and a flow's runs by their columns", async () => {
    const withdrawals = await page('/admin/withdrawals?sort=-deadline');
    expect(withdrawals).toContain(
      '<th scope="col" aria-sort="descending"><a href="/admin/withdrawals?sort=deadline">Period ends ▼',
    );
    const carts = await page('/admin/marketing/abandoned-carts?sort=email');
    expect(carts).toContain(
      '<th scope="col" aria-sort="ascending"><a href="/admin/marketing/abandoned-carts?sort=-email">E-mail ▲',
    );
    const { flow } = await shop.app
      .get(FlowsService)
      .create({ name: 'Runs flow', actions: '[{"type":"log","message":"hi"}]' }, true);
    const runs = await page(`/admin/flows/${flow.id}/runs?sort=status`);
    expect(runs).toContain(`aria-sort="ascending"><a href="/admin/flows/${flow.id}/runs?sort=-status">Outcome ▲`);
    expect(runs).toContain('Page 1 of 1');
  });

  /**
   * A destructive form as the page renders it, posted untouched (the box not ticked) is refused with a flash and
   * changes nothing; ticked, it is done.
   */
  describe('"I am sure" on destructive actions', () => {
    /** Posts the page's form to `action` as a browser would, optionally ticking "I am sure"; the flash shown next. */
    async function submitFrom(pagePath: string, action: string, ticked: boolean, typed: Record<string, string> = {}) {
      const html = (await staff.get(pagePath).set('Accept', 'text/html').expect(200)).text;
      const form = html.slice(html.indexOf(`action="${action}"`));
      expect(form.slice(0, form.indexOf('</form>'))).toContain(
        '<label class="confirm"><input type="checkbox" name="confirm" value="yes" required> I am sure',
      );
      const fields = { ...formFields(html, action), ...typed };
      delete fields._csrf;
      const res = await staff.submitForm(action, ticked ? { ...fields, confirm: 'yes' } : fields);
      expect(res.status).toBe(303);
      const next = await page(res.headers.location as string);
      return [...next.matchAll(/<p class="flash flash-(\w+)"[^>]*>([^<]*)</g)].pop()?.slice(1, 3);
    }

    it('disables a coupon', async () => {
      const coupon = await shop.dataSource.getRepository(Coupon).findOneByOrFail({ code: 'LIST07' });
      const action = `/admin/coupons/${coupon.id}/enabled`;
      expect(await submitFrom('/admin/coupons?sort=code', action, false)).toEqual([
        'error',
        'Disabling the coupon was not done: tick &quot;I am sure&quot; to confirm it.',
      ]);
      expect((await shop.dataSource.getRepository(Coupon).findOneByOrFail({ id: coupon.id })).enabled).toBe(true);
      const script = await staff.post(action, { enabled: 'false' });
      expect(script.status).toBe(400);
      expect(script.body.error.fields).toEqual({ confirm: ['tick "I am sure" to confirm'] });

      expect(await submitFrom('/admin/coupons?sort=code', action, true)).toEqual([
        'success',
        'Coupon LIST07 disabled.',
      ]);
      expect((await shop.dataSource.getRepository(Coupon).findOneByOrFail({ id: coupon.id })).enabled).toBe(false);
      // Enabling again asks nothing.
      expect((await staff.submitForm(action, { enabled: 'true' })).status).toBe(303);
      expect((await shop.dataSource.getRepository(Coupon).findOneByOrFail({ id: coupon.id })).enabled).toBe(true);
    });

    it('disables a gift card', async () => {
      const id = cardIds[54];
      const action = `/admin/gift-cards/${id}/status`;
      expect((await submitFrom('/admin/gift-cards', action, false))?.[0]).toBe('error');
      expect((await shop.dataSource.getRepository(GiftCard).findOneByOrFail({ id })).status).toBe('active');
      expect((await submitFrom('/admin/gift-cards', action, true))?.[0]).toBe('success');
      expect((await shop.dataSource.getRepository(GiftCard).findOneByOrFail({ id })).status).toBe('disabled');
    });

    it('stops a product selling gift cards', async () => {
      const designs = shop.app.get(GiftCardDesigns);
      const design = await designs.create({ name: 'List design', backgroundColor: '#ffffff', textColor: '#000000' });
      const product = await designs.attachProduct(design.id, 'DEMO-BLANKET-WOOL');
      const action = `/admin/gift-cards/designs/${design.id}/products/${product.id}/remove`;
      const attached = () => shop.dataSource.getRepository(GiftCardProduct).findOneBy({ productId: product.id });
      expect((await submitFrom(`/admin/gift-cards/designs/${design.id}`, action, false))?.[0]).toBe('error');
      expect(await attached()).not.toBeNull();
      expect((await submitFrom(`/admin/gift-cards/designs/${design.id}`, action, true))?.[0]).toBe('success');
      expect(await attached()).toBeNull();
    });

    it('refuses a return', async () => {
      const ret = await shop.dataSource.getRepository(OrderReturn).findOneByOrFail({ status: 'requested' });
      const action = `/admin/returns/${ret.id}/refuse`;
      const reload = () => shop.dataSource.getRepository(OrderReturn).findOneByOrFail({ id: ret.id });
      const refused = await staff.post(action, { message: 'Worn.' });
      expect(refused.status).toBe(400);
      expect((await reload()).status).toBe('requested');
      expect(await submitFrom(`/admin/returns/${ret.id}`, action, false, { message: 'Worn.' })).toEqual([
        'error',
        'Refusing the return was not done: tick &quot;I am sure&quot; to confirm it.',
      ]);
      expect((await staff.post(action, { message: 'Worn.', confirm: 'yes' })).status).toBe(200);
      expect(await reload()).toMatchObject({ status: 'refused', staffMessage: 'Worn.' });
    });

    it('disables a flow and rotates its secret', async () => {
      const { flow } = await shop.app
        .get(FlowsService)
        .create({ name: 'List flow', actions: '[{"type":"log","message":"hi"}]' }, true);
      const reload = () => shop.dataSource.getRepository(Flow).findOneByOrFail({ id: flow.id });
      const toggle = `/admin/flows/${flow.id}/enabled`;
      expect((await submitFrom('/admin/flows', toggle, false))?.[0]).toBe('error');
      expect((await reload()).enabled).toBe(true);
      expect((await submitFrom(`/admin/flows/${flow.id}`, toggle, true))?.[0]).toBe('success');
      expect((await reload()).enabled).toBe(false);

      const digest = (await reload()).secretDigest;
      const rotate = `/admin/flows/${flow.id}/rotate-secret`;
      expect((await submitFrom(`/admin/flows/${flow.id}`, rotate, false))?.[0]).toBe('error');
      expect((await staff.post(rotate)).status).toBe(400);
      expect((await reload()).secretDigest).toBe(digest);
      const rotated = await staff.post(rotate, { confirm: 'yes' });
      expect(rotated.status).toBe(200);
      expect(rotated.body.secret).toEqual(expect.any(String));
      expect((await reload()).secretDigest).not.toBe(digest);
    });
  });
});
