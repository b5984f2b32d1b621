import request from 'supertest';
import { SettingsService } from '../../src/config/settings.service';
import { productBySku } from '../support/catalog';
import { addToCart, ADDRESS } from '../support/checkout';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The checkout page as served (its behaviour in a browser: test/browser/carrier-widgets.spec.ts) and the
 * widget descriptors the shipping methods carry to it.
 */
describe('checkout page and widget descriptors', () => {
  let shop: TestApp;
  let settings: SettingsService;
  beforeAll(async () => {
    shop = await startTestApp();
    settings = shop.app.get(SettingsService);
  });
  afterAll(() => shop.close());

  async function shopperWithHeadlamp(): Promise<ShopClient> {
    const client = new ShopClient(shop.server);
    await addToCart(client, (await productBySku(shop.dataSource, 'DEMO-HEADLAMP')).id, 1);
    return client;
  }

  async function shippingMethods(client: ShopClient, country = 'SK') {
    return (await client.get(`/shop/checkout/get-shipping-methods?code=${country}`).expect(200)).body
      .shipping_methods as Array<{ type: string; handle: string; widget?: unknown }>;
  }

  it('sends an empty cart back to the cart page', async () => {
    const res = await request(shop.server).get('/shop/checkout').expect(302);
    expect(res.headers.location).toBe('/shop/cart');
  });

  it('serves the form with the JSON body names, autocomplete tokens, the CSRF token and its script', async () => {
    const client = await shopperWithHeadlamp();
    const res = await client.get('/shop/checkout').expect(200);
    expect(res.headers['cache-control']).toContain('no-store');
    const html = res.text;
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toMatch(/<meta name="csrf-token" content="[^"]{20,}">/);
    expect(html).toContain('<input id="checkout-email" name="email" type="email" autocomplete="email"');
    for (const [field, token] of [
      ['firstName', 'given-name'],
      ['lastName', 'family-name'],
      ['street', 'address-line1'],
      ['zipCode', 'postal-code'],
      ['city', 'address-level2'],
      ['country', 'country'],
      ['phone', 'tel'],
    ]) {
      for (const section of ['billing', 'shipping']) {
        expect(html).toMatch(
          new RegExp(`name="${section}Address\\[${field}\\]"[^>]* autocomplete="${section} ${token}"`),
        );
      }
    }
    expect(html).toContain('<label for="billingAddress-zipCode">Postal code</label>');
    expect(html).toContain('name="sameAsBilling" type="checkbox" value="true" checked');
    expect(html).toContain('<option value="SK" selected>');
    expect(html).toContain('<script src="/public/js/checkout.js" defer></script>');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).toContain('1 × Beam 300 Headlamp');
    await request(shop.server)
      .get('/public/js/checkout.js')
      .expect(200)
      .expect('Content-Type', /javascript/);
  });

  it('fills in what was saved on the cart', async () => {
    const client = await shopperWithHeadlamp();
    await client
      .post('/shop/checkout/save', {
        email: 'saved@example.com',
        billingAddress: ADDRESS,
        shippingAddress: { ...ADDRESS, city: 'Košice', zipCode: '040 01' },
      })
      .then((res) => expect(res.status).toBe(200));
    const html = (await client.get('/shop/checkout').expect(200)).text;
    expect(html).toContain('value="saved@example.com"');
    expect(html).toContain('data-details-saved="true"');
    expect(html).toContain(
      'name="shippingAddress[city]" autocomplete="shipping address-level2" maxlength="100" value="Košice"',
    );
    expect(html).not.toContain('name="sameAsBilling" type="checkbox" value="true" checked');
  });

  it("gives carrier A's ParcelShop its picker, only while pickup points are enabled", async () => {
    const client = await shopperWithHeadlamp();
    const parcelShop = () => shippingMethods(client).then((all) => all.find((entry) => entry.handle === 'parcelshop'));
    expect((await parcelShop())?.widget).toEqual({
      name: 'carrier-a-pickup',
      script: '/public/js/carrier-a-pickup.js',
      data: { pointsUrl: '/index.php?p=carrier-a/api/pickup-points', country: 'carrier-a' },
    });
    const classic = (await shippingMethods(client)).find((entry) => entry.handle === 'classic');
    expect(classic).not.toHaveProperty('widget');
    await settings.save({ 'carrier-a.pickupPointsEnabled': false });
    expect(await parcelShop()).toBeUndefined();
    await settings.save({ 'carrier-a.pickupPointsEnabled': true });
    await request(shop.server).get('/public/js/carrier-a-pickup.js').expect(200);
  });

  it("gives carrier B its widget with the browser key and the sandbox stand-in's public address", async () => {
    const client = await shopperWithHeadlamp();
    const carrierB = (await shippingMethods(client)).find((entry) => entry.type === 'carrier-b');
    expect(carrierB?.widget).toEqual({
      name: 'carrier-b-pickup',
      script: '/public/js/carrier-b-pickup.js',
      data: {
        apiKey: 'sandbox-widget-key',
        widgetUrl: `${shop.config.baseUrl}/_sandbox/carrier-b`,
        optionsUrl: '/index.php?p=carrier-b/api/options',
      },
    });
    await request(shop.server).get('/_sandbox/carrier-b/v6/www/js/library.js').expect(200);
    await request(shop.server).get('/public/js/carrier-b-pickup.js').expect(200);
  });

  it('loads a configured widget URL, and lets the CSP allow its origin', async () => {
    const client = await shopperWithHeadlamp();
    await settings.save({ 'carrier-b.widgetUrl': 'https://widget.example.com/' });
    try {
      const carrierB = (await shippingMethods(client)).find((entry) => entry.type === 'carrier-b');
      expect(carrierB?.widget).toMatchObject({ data: { widgetUrl: 'https://widget.example.com' } });
      const csp = (await client.get('/shop/checkout').expect(200)).headers['content-security-policy'] as string;
      expect(csp).toContain("script-src 'self' https://widget.example.com;");
      expect(csp).toContain("frame-src 'self' https://widget.example.com;");
    } finally {
      await settings.save({ 'carrier-b.widgetUrl': '' });
    }
    const csp = (await request(shop.server).get('/shop/cart').expect(200)).headers['content-security-policy'];
    expect(csp).not.toContain('widget.example.com');
  });

  it('refuses a widget URL that is not an http(s) address', async () => {
    await expect(settings.save({ 'carrier-b.widgetUrl': 'javascript:alert(1)' })).rejects.toThrow(/http\(s\) URL/);
    await expect(settings.save({ 'carrier-b.widgetUrl': 'https://a.example.com; script-src *' })).rejects.toThrow();
  });

  it('does not offer carrier B where its widget has no URL: no sandbox and none configured', async () => {
    const withoutSandboxes = await startTestApp({ env: { SANDBOXES: 'false' } });
    try {
      const client = new ShopClient(withoutSandboxes.server);
      await addToCart(client, (await productBySku(withoutSandboxes.dataSource, 'DEMO-HEADLAMP')).id, 1);
      const offered = async () =>
        (
          (await client.get('/shop/checkout/get-shipping-methods?code=SK').expect(200)).body.shipping_methods as Array<{
            type: string;
          }>
        ).map((entry) => entry.type);
      expect(await offered()).not.toContain('carrier-b');
      await withoutSandboxes.app.get(SettingsService).save({ 'carrier-b.widgetUrl': 'https://widget.example.com' });
      expect(await offered()).toContain('carrier-b');
    } finally {
      await withoutSandboxes.close();
    }
  });
});
