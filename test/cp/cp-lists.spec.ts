import { CouponService } from '../../src/commerce/coupons/coupon.service';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp } from '../support/test-app';

/** The CP lists page and sort on the server, and their links keep the list's other parameters. */
describe('CP list paging and sorting', () => {
  let shop: TestApp;
  let staff: ShopClient;

  beforeAll(async () => {
    shop = await startTestApp();
    staff = new ShopClient(shop.server);
    await staff.loginCp();
    const coupons = shop.app.get(CouponService);
    // 55 coupons: more than a page of 50. Codes in a scrambled order, so the sort by code is not the creation order.
    for (let i = 0; i < 55; i++) {
      await coupons.create({ code: `LIST${String((i * 37) % 55).padStart(2, '0')}`, type: 'percent', value: 5 });
    }
  });
  afterAll(() => shop.close());

  /** The page as a browser reads its attributes (handlebars writes `=` and `&` in URLs as entities). */
  const page = async (path: string) =>
    (await staff.get(path).expect(200)).text.replaceAll('&#x3D;', '=').replaceAll('&amp;', '&');
  const codes = (html: string) => [...html.matchAll(/<code>(LIST\d\d)<\/code>/g)].map((match) => match[1]);

  it('links the next page, newest first by default', async () => {
    const res = await page('/admin/coupons');
    expect(res).toContain('Page 1 of 2');
    expect(res).toContain('<a rel="next" href="/admin/coupons?page=2">');
    expect(res).not.toContain('rel="prev"');
    expect(codes(res)[0]).toBe(`LIST${String((54 * 37) % 55).padStart(2, '0')}`);

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

  it('lists in the default order for a sort it does not know', async () => {
    const res = await page('/admin/coupons?sort=passwordHash');
    expect(codes(res)).toEqual(codes(await page('/admin/coupons')));
    expect(res).not.toContain('aria-sort');
  });
});
