import { IsNull, Not } from 'typeorm';
import { Cart } from '../../src/commerce/carts/cart.entity';
import { CouponService } from '../../src/commerce/coupons/coupon.service';
import { formatGiftCardCode, maskGiftCardCode } from '../../src/commerce/gift-cards/gift-card-code';
import { GiftCardIssuer } from '../../src/commerce/gift-cards/gift-card-issuer.service';
import { SettingsService } from '../../src/config/settings.service';
import { productBySku } from '../support/catalog';
import { addToCart } from '../support/checkout';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The cart page as a browser without JavaScript uses it: every change is a plain form post answered with a
 * redirect back and a message; the page speaks the shopper's language. (public/js/cart.js sends the same
 * forms in place; test/browser/shopper-journey.spec.ts drives that.)
 */
describe('the cart page', () => {
  let shop: TestApp;
  let settings: SettingsService;
  beforeAll(async () => {
    shop = await startTestApp();
    settings = shop.app.get(SettingsService);
    await shop.app.get(CouponService).create({ code: 'PAGE10', type: 'percent', value: 10 });
  });
  afterAll(() => shop.close());

  async function shopperWith(...skus: string[]): Promise<ShopClient> {
    const client = new ShopClient(shop.server);
    for (const sku of skus) await addToCart(client, (await productBySku(shop.dataSource, sku)).id);
    return client;
  }

  const page = async (client: ShopClient) =>
    (await client.get('/shop/cart').set('Accept', 'text/html').expect(200)).text;

  /** A form post the way a browser sends it: back to the cart page, whose HTML is returned. */
  async function submit(client: ShopClient, action: string, fields: Record<string, string> = {}): Promise<string> {
    const answer = await client.submitForm(action, fields);
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe('/shop/cart');
    return page(client);
  }

  const lineIds = async (client: ShopClient) =>
    [...(await page(client)).matchAll(/<tr class="cart-line" data-line-id="(\d+)">/g)].map((match) => match[1]);

  it('is personal and carries its forms, their CSRF token and its script', async () => {
    const client = await shopperWith('DEMO-TENT-2P');
    const res = await client.get('/shop/cart').set('Accept', 'text/html').expect(200);
    expect(res.headers['cache-control']).toContain('no-store');
    const token = await client.csrfToken();
    expect(res.text).toContain(`<input type="hidden" name="_csrf" value="${token}" data-csrf>`);
    expect(res.text).toContain(
      '<form method="post" action="/shop/cart/update-item" class="inline-form" data-cart-form>',
    );
    expect(res.text).toContain('<label for="coupon_code">Coupon code</label>');
    expect(res.text).toContain('Create a share link');
    expect(res.text).toContain('<script src="/public/js/cart.js" defer></script>');
    expect(res.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });

  it('changes a quantity, applies and removes a coupon, without JavaScript', async () => {
    const client = await shopperWith('DEMO-TENT-2P', 'DEMO-HEADLAMP');
    const [tent] = await lineIds(client);

    let html = await submit(client, '/shop/cart/update-item', { id: tent, qty: '3' });
    expect(html).toContain('Your cart was updated.');
    expect(html).toContain(`id="qty-${tent}" name="qty" type="number" min="0" max="10000" value="3"`);
    expect(html).toContain('<dd class="subtotal">€1,026.00</dd>');

    html = await submit(client, '/shop/cart/add-coupon', { coupon_code: 'page10' });
    expect(html).toContain('Coupon PAGE10 applied.');
    expect(html).toContain('<p class="coupon-applied">Coupon PAGE10 is applied.</p>');
    expect(html).toContain('<dt>Discount (PAGE10)</dt><dd class="discount">−€102.60</dd>');

    html = await submit(client, '/shop/cart/remove-coupon', { coupon_code: 'PAGE10' });
    expect(html).toContain('Coupon PAGE10 removed.');
    expect(html).not.toContain('class="discount"');

    // A refused coupon comes back (to the Referer) with an error message for the next page.
    expect((await client.submitForm('/shop/cart/add-coupon', { coupon_code: 'NOSUCHCODE' })).status).toBe(303);
    html = await page(client);
    expect(html).toMatch(/<p class="flash flash-error" role="alert">[^<]+<\/p>/);
    expect(html).toContain('<label for="coupon_code">Coupon code</label>');
  });

  it('creates a share link and shows it on the page', async () => {
    const client = await shopperWith('DEMO-HEADLAMP');
    const before = await page(client);
    expect(before).not.toContain('id="cart-share-url"');
    const html = await submit(client, '/shop/cart/share-create');
    expect(html).toContain('Your share link is ready.');
    const cart = await shop.dataSource.getRepository(Cart).findOneByOrFail({ shareToken: Not(IsNull()) });
    expect(html).toContain(
      `<input id="cart-share-url" value="http://localhost:3000/shop/cart/share/${cart.shareToken}" readonly>`,
    );
    expect(html).not.toContain('Create a share link');
  });

  it('moves a line to the wishlist and removes the other one', async () => {
    const client = await shopperWith('DEMO-TENT-2P', 'DEMO-HEADLAMP');
    const [tent, headlamp] = await lineIds(client);
    let html = await submit(client, `/shop/cart/wishlist-add/${tent}`);
    expect(html).toContain('Moved to your wishlist.');
    expect(await lineIds(client)).toEqual([headlamp]);
    html = await submit(client, `/shop/cart/remove-item/${headlamp}`);
    expect(html).toContain('The item was removed.');
    expect(html).toContain('<p class="cart-empty">Your cart is empty.');
    expect(html).not.toContain('class="cart-checkout"');
  });

  it('pays part of the cart with a gift card and takes it off again, through the forms', async () => {
    const client = await shopperWith('DEMO-HEADLAMP');
    const card = await shop.app.get(GiftCardIssuer).issueByStaff({ amount: 20, issuedBy: 'test' });
    const shown = maskGiftCardCode(card.code);
    let html = await submit(client, '/shop/cart/apply-gift-card', {
      code: formatGiftCardCode(card.code).toLowerCase(),
    });
    expect(html).toContain(`<p class="gift-card-applied">Gift card ${shown} pays €20.00.</p>`);
    expect(html).toContain(`<dt>Gift card ${shown}</dt><dd class="gift-card">−€20.00</dd>`);
    expect(html).toContain('<dt>To pay</dt><dd class="amount-due">€19.00</dd>');

    html = await submit(client, '/shop/cart/remove-gift-card', { code: card.code });
    expect(html).not.toContain('class="gift-card-applied"');
    expect(html).not.toContain('class="amount-due"');
  });

  it('offers coupons and gift cards only while they are on', async () => {
    const client = await shopperWith('DEMO-HEADLAMP');
    expect(await page(client)).toContain('action="/shop/cart/apply-gift-card"');
    await settings.save({ salesCouponsEnabled: false, salesGiftCardsEnabled: false });
    try {
      const html = await page(client);
      expect(html).not.toContain('action="/shop/cart/add-coupon"');
      expect(html).not.toContain('action="/shop/cart/apply-gift-card"');
    } finally {
      await settings.save({ salesCouponsEnabled: true, salesGiftCardsEnabled: true });
    }
  });

  it('speaks Slovak after the language switch, amounts written the Slovak way', async () => {
    const client = await shopperWith('DEMO-TENT-2P');
    expect((await client.submitForm('/shop/language/set', { language: 'sk' })).status).toBe(303);
    const html = await page(client);
    expect(html).toContain('<h1 id="cart-heading" tabindex="-1">Váš košík</h1>');
    expect(html).toMatch(/<dd class="subtotal">329,00\s€<\/dd>/);
    expect(html).toContain('Pokračovať k pokladni');
    const [tent] = await lineIds(client);
    const answer = await client.post('/shop/cart/update-item', { id: Number(tent), qty: 2 });
    expect(answer.body).toMatchObject({ success: true, message: 'Košík bol upravený.' });
    const fragment = await client.get('/shop/cart/get-totals?force-reload=1').expect(200);
    expect(fragment.text).toMatch(/<dt>Medzisúčet<\/dt><dd class="subtotal">658,00\s€<\/dd>/);
  });
});
