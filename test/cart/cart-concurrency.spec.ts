import { CartLine } from '../../src/commerce/carts/cart-line.entity';
import { Cart } from '../../src/commerce/carts/cart.entity';
import { productBySku } from '../support/catalog';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp, usingMysql } from '../support/test-app';

const AJAX = { 'X-Requested-With': 'XMLHttpRequest' };

/**
 * Requests at one cart at once: every add counts, no line is lost or doubled, and the first adds of a session that
 * has no cart yet make one cart between them.
 */
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

  it.each([10, 30])('puts %i concurrent first adds of a new session into one cart line', async (count) => {
    const client = new ShopClient(shop.server);
    const token = await client.csrfToken();
    const matches = await productBySku(shop.dataSource, 'DEMO-MATCHES-STORM');
    const carts = shop.dataSource.getRepository(Cart);
    const before = await carts.count();
    const responses = await Promise.all(
      Array.from({ length: count }, () =>
        client.agent.post('/shop/cart/add').set('X-CSRF-Token', token).set(AJAX).send({ product: matches.id, qty: 1 }),
      ),
    );
    expect(responses.map((res) => res.status)).toEqual(Array(count).fill(200));
    expect(await carts.count()).toBe(before + 1);
    const miniCart = await client.get('/shop/customer/section-load/mini-cart').expect(200);
    expect(miniCart.body).toMatchObject({ itemCount: count });
    const [cart] = await carts.find({ order: { id: 'DESC' }, take: 1 });
    const lines = await shop.dataSource.getRepository(CartLine).findBy({ cartId: cart.id });
    expect(lines.map(({ productId, qty }) => ({ productId, qty }))).toEqual([{ productId: matches.id, qty: count }]);
  });

  it('keeps both a currency chosen and a first add made at the same time', async () => {
    const client = new ShopClient(shop.server);
    const token = await client.csrfToken();
    const matches = await productBySku(shop.dataSource, 'DEMO-MATCHES-STORM');
    const [currency, added] = await Promise.all([
      client.agent.post('/shop/currency/set').set('X-CSRF-Token', token).set(AJAX).send({ currency: 'CZK' }),
      client.agent.post('/shop/cart/add').set('X-CSRF-Token', token).set(AJAX).send({ product: matches.id, qty: 2 }),
    ]);
    expect([currency.status, added.status]).toEqual([200, 200]);
    const miniCart = await client.get('/shop/customer/section-load/mini-cart').expect(200);
    expect(miniCart.body).toMatchObject({ itemCount: 2, currency: 'CZK' });
  });

  describe('an add repeated with the same Idempotency-Key', () => {
    const addWithKey = (client: ShopClient, token: string, product: number, key: string) =>
      client.agent
        .post('/shop/cart/add')
        .set('X-CSRF-Token', token)
        .set(AJAX)
        .set('Idempotency-Key', key)
        .send({ product, qty: 1 });

    it('adds once however often it is sent, side by side or later; a new key adds again', async () => {
      const client = new ShopClient(shop.server);
      const token = await client.csrfToken();
      const matches = await productBySku(shop.dataSource, 'DEMO-MATCHES-STORM');
      const first = await addWithKey(client, token, matches.id, 'add-1').expect(200);
      const repeats = await Promise.all(
        Array.from({ length: 8 }, () => addWithKey(client, token, matches.id, 'add-1')),
      );
      // A repeat answers as the add did: the shopper whose answer was lost learns it was added.
      expect(repeats.map((res) => [res.status, res.body])).toEqual(Array(8).fill([200, first.body]));
      expect(first.body).toMatchObject({ success: true, product: { id: matches.id, qty: 1 } });
      const cartLines = async () => {
        const [cart] = await shop.dataSource.getRepository(Cart).find({ order: { id: 'DESC' }, take: 1 });
        return shop.dataSource.getRepository(CartLine).findBy({ cartId: cart.id });
      };
      expect((await cartLines()).map(({ qty }) => qty)).toEqual([1]);

      await Promise.all([
        addWithKey(client, token, matches.id, 'add-2').expect(200),
        addWithKey(client, token, matches.id, 'add-2').expect(200),
        addWithKey(client, token, matches.id, 'add-3').expect(200),
      ]);
      expect((await cartLines()).map(({ qty }) => qty)).toEqual([3]);
    });

    it('is a key of one cart: another shopper may use the same key', async () => {
      const matches = await productBySku(shop.dataSource, 'DEMO-MATCHES-STORM');
      for (const client of [new ShopClient(shop.server), new ShopClient(shop.server)]) {
        await addWithKey(client, await client.csrfToken(), matches.id, 'same-key').expect(200);
        const miniCart = await client.get('/shop/customer/section-load/mini-cart').expect(200);
        expect(miniCart.body).toMatchObject({ itemCount: 1 });
      }
    });

    it('refuses a key that is not 1 to 100 visible ASCII characters, adding nothing', async () => {
      const client = new ShopClient(shop.server);
      const token = await client.csrfToken();
      const matches = await productBySku(shop.dataSource, 'DEMO-MATCHES-STORM');
      for (const key of ['x'.repeat(101), 'two words']) {
        const res = await addWithKey(client, token, matches.id, key).expect(400);
        expect(res.body.error).toMatchObject({
          code: 'validation_failed',
          fields: { 'Idempotency-Key': expect.any(Array) },
        });
      }
      const miniCart = await client.get('/shop/customer/section-load/mini-cart').expect(200);
      expect(miniCart.body).toMatchObject({ itemCount: 0 });
    });
  });
});
