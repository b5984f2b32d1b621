import { Customer } from '../../src/commerce/customers/customer.entity';
import { WishlistItem } from '../../src/commerce/wishlists/wishlist-item.entity';
import { Wishlist } from '../../src/commerce/wishlists/wishlist.entity';
import { SettingsService } from '../../src/config/settings.service';
import { productBySku } from '../support/catalog';
import { addToCart } from '../support/checkout';
import { registerCustomer } from '../support/customers';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp, usingMysql } from '../support/test-app';

/** Spec `section-load/{sid}`: the private parts of cached pages, for guests and customers, accounts on or off. */
describe(`section-load (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;
  beforeAll(async () => {
    shop = await startTestApp();
  });
  afterAll(() => shop.close());

  async function section(client: ShopClient, sid: string) {
    const res = await client.get(`/shop/customer/section-load/${sid}`);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.success).toBe(true);
    return res.body as Record<string, unknown>;
  }

  const product = (sku: string) => productBySku(shop.dataSource, sku);

  it('gives a guest the mini-cart, the session wishlist count and no customer', async () => {
    const guest = new ShopClient(shop.server);
    expect(await section(guest, 'mini-cart')).toEqual({ success: true, itemCount: 0, subtotal: 0, currency: 'EUR' });
    expect(await section(guest, 'customer')).toEqual({ success: true, loggedIn: false, firstName: null });
    expect(await section(guest, 'wishlist-count')).toEqual({ success: true, count: 0 });

    await addToCart(guest, (await product('DEMO-HEADLAMP')).id, 2); // 2 × 39.00
    expect(await section(guest, 'mini-cart')).toEqual({ success: true, itemCount: 2, subtotal: 78, currency: 'EUR' });
    expect((await guest.post('/shop/currency/set', { currency: 'CZK' })).status).toBe(200);
    expect(await section(guest, 'mini-cart')).toMatchObject({ itemCount: 2, currency: 'CZK', subtotal: 1973.4 });

    const saved = await guest.post('/shop/wishlist/add', { product: (await product('DEMO-TENT-2P')).id, qty: 1 });
    expect(saved.status).toBe(200);
    expect(await section(guest, 'wishlist-count')).toEqual({ success: true, count: 1 });
  });

  it('gives a logged-in customer their name and the items of all their wishlists', async () => {
    const client = new ShopClient(shop.server);
    const email = await registerCustomer(client, { firstName: 'Grace' });
    const customer = await shop.dataSource.getRepository(Customer).findOneByOrFail({ email });
    expect(await section(client, 'customer')).toEqual({ success: true, loggedIn: true, firstName: 'Grace' });

    expect((await client.post('/shop/wishlist/add', { product: (await product('DEMO-TENT-2P')).id })).status).toBe(200);
    const named = await shop.dataSource
      .getRepository(Wishlist)
      .save({ customerId: customer.id, name: 'Birthday', isDefault: false });
    await shop.dataSource.getRepository(WishlistItem).save([
      { wishlistId: named.id, productId: (await product('DEMO-HEADLAMP')).id },
      { wishlistId: named.id, productId: (await product('DEMO-TENT-2P')).id },
    ]);
    expect(await section(client, 'wishlist-count')).toEqual({ success: true, count: 3 });

    // Someone else's lists do not count, and a session ended by a password change is a guest again.
    expect(await section(new ShopClient(shop.server), 'wishlist-count')).toEqual({ success: true, count: 0 });
    await shop.dataSource.getRepository(Customer).increment({ id: customer.id }, 'authVersion', 1);
    expect(await section(client, 'customer')).toEqual({ success: true, loggedIn: false, firstName: null });
  });

  it('keeps the mini-cart while customer accounts are off, with empty customer sections', async () => {
    const client = new ShopClient(shop.server);
    await registerCustomer(client);
    await addToCart(client, (await product('DEMO-HEADLAMP')).id, 1);
    expect((await client.post('/shop/wishlist/add', { product: (await product('DEMO-TENT-2P')).id })).status).toBe(200);
    const settings = shop.app.get(SettingsService);
    await settings.save({ customerAccountsEnabled: false });
    try {
      expect(await section(client, 'mini-cart')).toEqual({
        success: true,
        itemCount: 1,
        subtotal: 39,
        currency: 'EUR',
      });
      expect(await section(client, 'customer')).toEqual({ success: true, loggedIn: false, firstName: null });
      expect(await section(client, 'wishlist-count')).toEqual({ success: true, count: 0 });
      expect((await client.get('/shop/customer/csrf-token')).status).toBe(200);
    } finally {
      await settings.save({ customerAccountsEnabled: true });
    }
  });

  it('answers an unknown section with a 404 in the JSON error shape', async () => {
    const guest = new ShopClient(shop.server);
    for (const sid of ['cart-total', 'constructor', '__proto__']) {
      const res = await guest.get(`/shop/customer/section-load/${sid}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        success: false,
        error: { code: 'not_found', message: `There is no section called ${sid}.` },
      });
    }
  });
});
