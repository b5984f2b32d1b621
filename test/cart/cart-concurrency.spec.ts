import { CartLine } from '../../src/commerce/carts/cart-line.entity';
import { productBySku } from '../support/catalog';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp, usingMysql } from '../support/test-app';

const AJAX = { 'X-Requested-With': 'XMLHttpRequest' };

/** 50 requests at one cart at once: every add counts, no line is lost or doubled. */
describe(`concurrent changes to one cart (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  beforeAll(async () => (shop = await startTestApp()));
  afterAll(() => shop.close());

  it('ends with exactly the quantities the requests add up to', async () => {
    const client = new ShopClient(shop.server);
    const token = await client.csrfToken();
    const matches = await productBySku(shop.dataSource, 'DEMO-MATCHES-STORM');
    const stickers = await productBySku(shop.dataSource, 'DEMO-STICKER-LOGO');
    const papers = await productBySku(shop.dataSource, 'DEMO-FILTER-PAPER');
    const add = (product: number, qty: number) =>
      client.agent.post('/shop/cart/add').set('X-CSRF-Token', token).set(AJAX).send({ product, qty });
    await add(papers.id, 1).expect(200);
    const papersLine = await shop.dataSource.getRepository(CartLine).findOneByOrFail({ productId: papers.id });

    const requests = Array.from({ length: 50 }, (_, i) => {
      if (i % 5 === 4) {
        return client.agent
          .post('/shop/cart/update-item')
          .set('X-CSRF-Token', token)
          .send({ id: papersLine.id, qty: 10 + i });
      }
      return i % 2 === 0 ? add(matches.id, 1) : add(stickers.id, 2);
    });
    const responses = await Promise.all(requests);
    expect(responses.map((res) => res.status)).toEqual(Array(50).fill(200));

    const lines = await shop.dataSource.getRepository(CartLine).findBy({ cartId: papersLine.cartId });
    const qtyOf = (productId: number) => lines.filter((line) => line.productId === productId).map((line) => line.qty);
    const matchAdds = requests.filter((_, i) => i % 5 !== 4 && i % 2 === 0).length;
    const stickerAdds = requests.filter((_, i) => i % 5 !== 4 && i % 2 === 1).length;
    expect(qtyOf(matches.id)).toEqual([matchAdds]);
    expect(qtyOf(stickers.id)).toEqual([stickerAdds * 2]);
    expect([14, 19, 24, 29, 34, 39, 44, 49, 54, 59]).toContain(qtyOf(papers.id)[0]);
    expect(lines).toHaveLength(3);
  });
});
