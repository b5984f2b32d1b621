import request from 'supertest';
import { Coupon } from '../../src/commerce/coupons/coupon.entity';
import { CouponService } from '../../src/commerce/coupons/coupon.service';
import { ShippingMethod } from '../../src/commerce/shipping/shipping-method.entity';
import { Product } from '../../src/commerce/products/product.entity';
import { SettingsService } from '../../src/config/settings.service';
import { productBySku } from '../support/catalog';
import { ADDRESS, addToCart, fillCheckout, placeOrder, shippingValue } from '../support/checkout';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp } from '../support/test-app';
import { TestPluginModule } from '../support/test-plugin.module';

/** Every checkout endpoint answers bad input with a 4xx in the documented error shape, never a 500. */
describe('checkout inputs', () => {
  let shop: TestApp;
  let settings: SettingsService;
  let flatRate: string;
  let parcelshop: string;
  beforeAll(async () => {
    shop = await startTestApp({ extraModules: [TestPluginModule] });
    settings = shop.app.get(SettingsService);
    flatRate = await shippingValue(shop.dataSource, 'flat-rate');
    await shop.dataSource.getRepository(ShippingMethod).insert({
      type: 'test-carrier',
      handle: 'parcelshop',
      name: 'Test ParcelShop',
      description: 'to a pickup point',
      price: 290,
      countries: ['SK', 'CZ'],
      sortOrder: 5,
    });
    parcelshop = await shippingValue(shop.dataSource, 'parcelshop', 'test-carrier');
    await shop.dataSource.getRepository(ShippingMethod).insert({
      type: 'test-carrier',
      handle: 'letterbox',
      name: 'Letterbox parcel',
      description: 'up to 1 kg',
      price: 190,
      countries: [],
      maxWeightGrams: 1000,
      sortOrder: 6,
    });
  });
  afterAll(() => shop.close());

  const invalid = (fields: Record<string, unknown>, message = 'Please correct the highlighted fields') => ({
    success: false,
    error: { code: 'validation_failed', message, fields },
  });

  async function shopperWithCart(sku = 'DEMO-HEADLAMP') {
    const client = new ShopClient(shop.server);
    await addToCart(client, (await productBySku(shop.dataSource, sku)).id, 1);
    return client;
  }

  describe('get-shipping-methods', () => {
    it.each([
      ['a missing', ''],
      ['an unknown', '?code=XX'],
      ['a too long', '?code=SVK'],
      ['a numeric', '?code=42'],
    ])('rejects %s country code with 400', async (_, query) => {
      const res = await request(shop.server).get(`/shop/checkout/get-shipping-methods${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(invalid({ code: ['must be an ISO 3166-1 alpha-2 country code, e.g. SK'] }));
    });

    it('accepts any case, and offers only the methods that ship to the country', async () => {
      const res = await request(shop.server).get('/shop/checkout/get-shipping-methods?code=at').expect(200);
      expect(res.body.shipping_methods.map((method: { handle: string }) => method.handle)).toEqual([
        'flat-rate',
        'store-pickup',
        'classic',
        'parcelshop',
        'letterbox',
      ]);
      const sk = await request(shop.server).get('/shop/checkout/get-shipping-methods?code=SK').expect(200);
      expect(sk.body.shipping_methods).toContainEqual(
        expect.objectContaining({ value: parcelshop, price: 2.9, pickupPoints: true, type: 'test-carrier' }),
      );
      // The courier costs 4.90 below 100 EUR: an empty cart pays it, prices in the shopper's currency.
      const client = new ShopClient(shop.server);
      await client.post('/shop/currency/set', { currency: 'CZK' });
      const czk = await client.get('/shop/checkout/get-shipping-methods?code=SK').expect(200);
      expect(czk.body.shipping_methods[0]).toMatchObject({ handle: 'flat-rate', price: 123.97 });
    });

    it("leaves out a method whose weight limit the cart's goods exceed", async () => {
      const handles = async (client: ShopClient) =>
        (await client.get('/shop/checkout/get-shipping-methods?code=AT').expect(200)).body.shipping_methods.map(
          (method: { handle: string }) => method.handle,
        );
      const light = await shopperWithCart('DEMO-HEADLAMP'); // 85 g
      expect(await handles(light)).toContain('letterbox');
      const heavy = await shopperWithCart('DEMO-TENT-2P'); // 2.15 kg
      expect(await handles(heavy)).toEqual(['flat-rate', 'store-pickup', 'classic', 'parcelshop']);
    });

    it('offers nothing for a country the shop does not sell to', async () => {
      await settings.save({ salesAllowedCountries: ['SK', 'CZ'] });
      try {
        const res = await request(shop.server).get('/shop/checkout/get-shipping-methods?code=DE').expect(200);
        expect(res.body).toEqual({ success: true, shipping_methods: [] });
      } finally {
        await settings.save({ salesAllowedCountries: [] });
      }
    });
  });

  describe('get-payment-methods', () => {
    it.each(['flat-rate', 'core:flat-rate', 'core:flat-rate:abc', 'core:Flat Rate:1', 'a:b:c:1'])(
      'rejects the malformed shipping method %s with 400',
      async (value) => {
        const res = await request(shop.server)
          .get('/shop/checkout/get-payment-methods')
          .query({ code: 'SK', 'shipping-method': value });
        expect(res.status).toBe(400);
        expect(res.body).toEqual(
          invalid({ 'shipping-method': ['must be a shipping method identifier type:handle:id'] }),
        );
      },
    );

    it('rejects a method that is not offered there, and a missing country', async () => {
      const unknown = await request(shop.server)
        .get('/shop/checkout/get-payment-methods')
        .query({ code: 'SK', 'shipping-method': 'core:flat-rate:999' });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error.fields).toEqual({ 'shipping-method': ['is not offered for SK'] });
      const elsewhere = await request(shop.server)
        .get('/shop/checkout/get-payment-methods')
        .query({ code: 'AT', 'shipping-method': parcelshop });
      expect(elsewhere.status).toBe(400);
      const noCountry = await request(shop.server).get('/shop/checkout/get-payment-methods');
      expect(noCountry.status).toBe(400);
      expect(Object.keys(noCountry.body.error.fields)).toEqual(['code']);
    });

    it('leaves cash on delivery out with a pickup point, where nobody collects the cash', async () => {
      const codes = async (shippingMethod: string) =>
        (
          await request(shop.server)
            .get('/shop/checkout/get-payment-methods')
            .query({ code: 'SK', 'shipping-method': shippingMethod })
            .expect(200)
        ).body.payment_methods.map((method: { code: string }) => method.code);
      // Without a cart there is nothing to lend against: no bankpay loan.
      const bankpay = ['bankpay', 'bankpay-bank', 'bankpay-qr'];
      expect(await codes(flatRate)).toEqual(['cod', 'bank-transfer-manual', ...bankpay, 'test-pay']);
      expect(await codes(parcelshop)).toEqual(['bank-transfer-manual', ...bankpay, 'test-pay']);
    });
  });

  describe('save', () => {
    it('needs a cart', async () => {
      const res = await new ShopClient(shop.server).post('/shop/checkout/save', {
        email: 'a@b.sk',
        billingAddress: ADDRESS,
      });
      expect(res.status).toBe(409);
      expect(res.body.error).toEqual({
        code: 'cart_empty',
        message: 'Your cart is empty. Add something before checking out.',
      });
    });

    it.each([
      ['a bad e-mail', { email: 'ada' }, { email: ['must be an e-mail address'] }],
      ['no billing address', { billingAddress: undefined }, { billingAddress: expect.any(Array) }],
      ['a billing address that is text', { billingAddress: 'Main Street 1' }, { billingAddress: expect.any(Array) }],
      [
        'a bad postal code and country',
        { billingAddress: { ...ADDRESS, zipCode: '#', country: 'Slovakia' } },
        {
          'billingAddress.zipCode': ['must be a postal code'],
          'billingAddress.country': ['must be an ISO 3166-1 alpha-2 country code, e.g. SK'],
        },
      ],
      [
        'an empty name',
        { billingAddress: { ...ADDRESS, firstName: '  ' } },
        { 'billingAddress.firstName': expect.any(Array) },
      ],
      [
        'a bad shipping phone',
        { shippingAddress: { ...ADDRESS, phone: 'call me' } },
        { 'shippingAddress.phone': ['must be a phone number'] },
      ],
      ['notes that are too long', { notes: 'x'.repeat(2001) }, { notes: expect.any(Array) }],
    ])('rejects %s with 400 naming the fields', async (_, change, fields) => {
      const client = await shopperWithCart();
      const res = await client.post('/shop/checkout/save', {
        email: 'ada@example.com',
        billingAddress: ADDRESS,
        ...change,
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(invalid(fields));
    });

    it('refuses a destination the shop does not serve, and a malformed VAT ID while VAT checks are on', async () => {
      const client = await shopperWithCart();
      await settings.save({ salesAllowedCountries: ['SK'] });
      try {
        const res = await client.post('/shop/checkout/save', {
          email: 'ada@example.com',
          billingAddress: ADDRESS,
          shippingAddress: { ...ADDRESS, country: 'AT' },
        });
        expect(res.status).toBe(400);
        expect(res.body).toEqual(
          invalid(
            { 'shippingAddress.country': ['is a country we do not deliver to'] },
            'We do not deliver to Austria.',
          ),
        );
      } finally {
        await settings.save({ salesAllowedCountries: [] });
      }
      const vat = await client.post('/shop/checkout/save', {
        email: 'ada@example.com',
        billingAddress: ADDRESS,
        vatId: 'SK123',
      });
      expect(vat.status).toBe(400);
      expect(vat.body).toEqual(invalid({ vatId: ['is not a valid VAT ID'] }, 'Check your VAT ID.'));
      const foreign = await client.post('/shop/checkout/save', {
        email: 'ada@example.com',
        billingAddress: ADDRESS,
        vatId: 'CZ12345678',
      });
      expect(foreign.body).toEqual(invalid({ vatId: ['is not a VAT ID of Slovakia'] }, 'Check your VAT ID.'));
      // Without VAT checks the id is kept as given (normalised).
      await settings.save({ salesValidateVAT: false });
      try {
        const kept = await client.post('/shop/checkout/save', {
          email: 'ada@example.com',
          billingAddress: ADDRESS,
          vatId: 'sk 123',
        });
        expect(kept.status).toBe(200);
        expect((await client.get('/shop/checkout/get-init-values')).body.vatId).toBe('SK123');
      } finally {
        await settings.save({ salesValidateVAT: true });
      }
    });

    it('saves everything and gives it back in get-init-values; a form post is redirected back', async () => {
      const client = await shopperWithCart();
      const shipping = { ...ADDRESS, firstName: 'Charles', street: 'Obchodná 2', company: 'Engines s.r.o.' };
      const res = await client.post('/shop/checkout/save', {
        email: ' ADA@example.com',
        billingAddress: ADDRESS,
        shippingAddress: shipping,
        notes: 'Leave at the door',
        vatId: 'SK 2020 123 456',
        companyName: 'Engines s.r.o.',
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, cart: expect.objectContaining({ itemCount: 1, subtotal: 39 }) });
      const init = await client.get('/shop/checkout/get-init-values').expect(200);
      expect(init.body).toMatchObject({
        success: true,
        customer: null,
        email: 'ada@example.com',
        billingAddress: ADDRESS,
        shippingAddress: shipping,
        sameAsBilling: false,
        notes: 'Leave at the door',
        vatId: 'SK2020123456',
        companyName: 'Engines s.r.o.',
        savedAddresses: [],
        shippingMethod: null,
        paymentMethod: null,
        currency: 'EUR',
        settings: { vatValidation: 'format_existence', deliverySlots: true },
      });
      expect(init.body.settings.countries).toContainEqual({ code: 'SK', name: 'Slovakia' });
      expect(init.headers['cache-control']).toBe('private, no-store');

      const token = await client.csrfToken();
      const form = await client.agent
        .post('/shop/checkout/save')
        .type('form')
        .set('Accept', 'text/html')
        .set('Referer', `${shop.config.baseUrl}/shop/checkout`)
        .send({
          _csrf: token,
          email: 'ada@example.com',
          'billingAddress[firstName]': 'Ada',
          'billingAddress[lastName]': 'Lovelace',
          'billingAddress[street]': 'Hlavná 1',
          'billingAddress[city]': 'Bratislava',
          'billingAddress[zipCode]': '81101',
          'billingAddress[country]': 'sk',
          'billingAddress[phone]': '',
          sameAsBilling: 'on',
        });
      expect(form.status).toBe(303);
      const after = await client.get('/shop/checkout/get-init-values').expect(200);
      expect(after.body).toMatchObject({
        sameAsBilling: true,
        shippingAddress: null,
        billingAddress: { zipCode: '81101', country: 'SK' },
      });
      expect(after.body.billingAddress).not.toHaveProperty('phone');
    });

    it('answers without a cart with empty values, and a body that is not JSON with 400', async () => {
      const init = await request(shop.server).get('/shop/checkout/get-init-values').expect(200);
      expect(init.body).toMatchObject({ success: true, email: null, cart: { items: [], itemCount: 0, total: 0 } });
      const client = await shopperWithCart();
      const token = await client.csrfToken();
      const res = await client.agent
        .post('/shop/checkout/save')
        .set('X-CSRF-Token', token)
        .set('Content-Type', 'application/json')
        .send('{"email": ');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        success: false,
        error: { code: 'invalid_json', message: 'The request body is not valid JSON.' },
      });
      const forged = await client.agent
        .post('/shop/checkout/save')
        .send({ email: 'ada@example.com', billingAddress: ADDRESS });
      expect(forged.status).toBe(403);
    });
  });

  describe('save-shipping-method', () => {
    it('rejects a malformed or unavailable method, and asks for an address first', async () => {
      const client = await shopperWithCart();
      const malformed = await client.post('/shop/checkout/save-shipping-method', { shippingMethod: 'courier' });
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual(
        invalid({ shippingMethod: ['must be a shipping method identifier type:handle:id'] }),
      );
      const noAddress = await client.post('/shop/checkout/save-shipping-method', { shippingMethod: flatRate });
      expect(noAddress.status).toBe(409);
      expect(noAddress.body.error.code).toBe('address_required');

      await client.post('/shop/checkout/save', {
        email: 'ada@example.com',
        billingAddress: { ...ADDRESS, country: 'AT' },
      });
      const elsewhere = await client.post('/shop/checkout/save-shipping-method', { shippingMethod: parcelshop });
      expect(elsewhere.status).toBe(409);
      expect(elsewhere.body.error).toEqual({
        code: 'shipping_method_unavailable',
        message: 'This shipping method does not deliver this order to Austria.',
        fields: { shippingMethod: ['is not available for this order'] },
      });
      const missingType = await client.post('/shop/checkout/save-shipping-method', {});
      expect(missingType.status).toBe(400);
    });

    it('needs a pickup point for a pickup-point method, and then takes cash on delivery off the table', async () => {
      const client = await shopperWithCart();
      await client.post('/shop/checkout/save', { email: 'ada@example.com', billingAddress: ADDRESS });
      await client.post('/shop/checkout/save-payment-method', { paymentMethod: 'cod' });
      const without = await client.post('/shop/checkout/save-shipping-method', { shippingMethod: parcelshop });
      expect(without.status).toBe(400);
      expect(without.body).toEqual(
        invalid({ pickupPoint: ['is required'] }, 'Choose a pickup point for Test ParcelShop.'),
      );
      const huge = await client.post('/shop/checkout/save-shipping-method', {
        shippingMethod: parcelshop,
        pickupPoint: { id: 'x', blob: 'y'.repeat(5000) },
      });
      expect(huge.status).toBe(400);
      const point = { id: 'PS-1', name: 'Kiosk Hlavná', city: 'Bratislava' };
      const chosen = await client.post('/shop/checkout/save-shipping-method', {
        shippingMethod: parcelshop,
        pickupPoint: point,
      });
      expect(chosen.status).toBe(200);
      // Cash on delivery, saved earlier, no longer counts: no fee, and place-order says why.
      expect(chosen.body.cart).toMatchObject({ shipping: 2.9, paymentFee: 0 });
      const placed = await placeOrder(client);
      expect(placed.status).toBe(409);
      expect(placed.body.error.code).toBe('payment_method_unavailable');
      const cod = await client.post('/shop/checkout/save-payment-method', { paymentMethod: 'cod' });
      expect(cod.status).toBe(409);
      expect(cod.body.error).toEqual({
        code: 'payment_method_unavailable',
        message: 'Cash on delivery is not available with Test ParcelShop. Choose another payment method.',
        fields: { paymentMethod: ['is not available for this order'] },
      });
      await client.post('/shop/checkout/save-payment-method', { paymentMethod: 'bank-transfer-manual' });
      const ok = await placeOrder(client);
      expect(ok.status).toBe(200);
      const init = await client.get(`/shop/order/view/${ok.body.orderNumber}`).set('Accept', 'text/html');
      expect(init.text).toContain('Test ParcelShop: Kiosk Hlavná');
    });
  });

  describe('save-payment-method', () => {
    it('rejects an unknown or disabled method with 400', async () => {
      const client = await shopperWithCart();
      for (const paymentMethod of ['bitcoin', 'test-pay-off', '']) {
        const res = await client.post('/shop/checkout/save-payment-method', { paymentMethod });
        expect(res.status).toBe(400);
        expect(Object.keys(res.body.error.fields)).toEqual(['paymentMethod']);
      }
    });
  });

  describe('place-order', () => {
    it('needs a cart, then everything a checkout needs', async () => {
      const empty = await placeOrder(new ShopClient(shop.server));
      expect(empty.status).toBe(409);
      expect(empty.body.error.code).toBe('cart_empty');

      const client = await shopperWithCart();
      const incomplete = await placeOrder(client);
      expect(incomplete.status).toBe(409);
      expect(incomplete.body.error).toEqual({
        code: 'checkout_incomplete',
        message: 'Fill in your details and choose shipping and payment first.',
        fields: {
          email: ['is required'],
          billingAddress: ['is required'],
          shippingMethod: ['choose a shipping method'],
          paymentMethod: ['choose a payment method'],
        },
      });
    });

    it('refuses a destination the shop stopped delivering to after the address was saved', async () => {
      const client = await shopperWithCart();
      await fillCheckout(client, { shippingMethod: flatRate, paymentMethod: 'cod' });
      await settings.save({ salesAllowedCountries: ['CZ'] });
      try {
        const res = await placeOrder(client);
        expect(res.status).toBe(409);
        expect(res.body.error).toEqual({
          code: 'country_not_served',
          message: 'We do not deliver to Slovakia. Choose another address.',
        });
      } finally {
        await settings.save({ salesAllowedCountries: [] });
      }
      expect((await placeOrder(client)).status).toBe(200);
    });

    it('rejects a bad Idempotency-Key or expected total with 400', async () => {
      const client = await shopperWithCart();
      const key = await placeOrder(client, {}, { 'Idempotency-Key': 'x'.repeat(101) });
      expect(key.status).toBe(400);
      expect(key.body.error.fields).toEqual({ 'Idempotency-Key': ['must be 1 to 100 visible ASCII characters'] });
      const total = await placeOrder(client, { expectedTotal: 'a lot' });
      expect(total.status).toBe(400);
      expect(Object.keys(total.body.error.fields)).toEqual(['expectedTotal']);
    });

    it('refuses when the total changed since the shopper saw it, or stock ran out meanwhile', async () => {
      const client = await shopperWithCart('DEMO-TAMPER'); // 32.00
      await fillCheckout(client, { shippingMethod: flatRate, paymentMethod: 'cod' });
      const changed = await placeOrder(client, { expectedTotal: 30 });
      expect(changed.status).toBe(409);
      expect(changed.body.error).toEqual({
        code: 'price_changed',
        message: 'Prices changed since you saw your total. Review your order and place it again.',
        total: 38.4, // 32.00 + 4.90 courier + 1.50 cash-on-delivery fee
      });

      await shop.dataSource.getRepository(Product).update({ sku: 'DEMO-TAMPER' }, { stock: 0 });
      const gone = await placeOrder(client, { expectedTotal: 38.4 });
      expect(gone.status).toBe(409);
      expect(gone.body.error).toEqual({
        code: 'out_of_stock',
        message: 'Walnut Espresso Tamper is out of stock.',
        productId: expect.any(Number),
        available: 0,
      });
      // Nothing was taken and the cart is still open.
      await shop.dataSource.getRepository(Product).update({ sku: 'DEMO-TAMPER' }, { stock: 5 });
      const placed = await placeOrder(client, { expectedTotal: 38.4 });
      expect(placed.status).toBe(200);
      expect((await productBySku(shop.dataSource, 'DEMO-TAMPER')).stock).toBe(4);
    });

    it('refuses a coupon that expired since it was applied, and a method that no longer ships there', async () => {
      const coupons = shop.app.get(CouponService);
      const coupon = await coupons.create({
        code: 'GONE-SOON',
        type: 'fixed',
        value: 5,
        endsAt: new Date(Date.now() + 60_000),
      });
      const client = await shopperWithCart('DEMO-FRENCH-PRESS');
      expect((await client.post('/shop/cart/add-coupon', { coupon_code: 'gone-soon' })).status).toBe(200);
      await fillCheckout(client, {
        shippingMethod: parcelshop,
        paymentMethod: 'bank-transfer-manual',
        extra: {},
      }).catch(
        () => undefined, // parcelshop needs a pickup point: saved below
      );
      const point = await client.post('/shop/checkout/save-shipping-method', {
        shippingMethod: parcelshop,
        pickupPoint: { id: 'PS-2' },
      });
      expect(point.status).toBe(200);
      await client.post('/shop/checkout/save-payment-method', { paymentMethod: 'bank-transfer-manual' });

      await shop.dataSource.getRepository(Coupon).update({ id: coupon.id }, { endsAt: Date.now() - 1000 });
      const expired = await placeOrder(client);
      expect(expired.status).toBe(409);
      expect(expired.body.error.code).toBe('coupon_expired');
      await client.post('/shop/cart/remove-coupon', { coupon_code: 'GONE-SOON' });

      // The shopper moves to Austria, where the pickup-point carrier does not go.
      await client.post('/shop/checkout/save', {
        email: 'ada@example.com',
        billingAddress: { ...ADDRESS, country: 'AT' },
      });
      const moved = await placeOrder(client);
      expect(moved.status).toBe(409);
      expect(moved.body.error).toEqual({
        code: 'shipping_method_unavailable',
        message: 'The shipping method you chose cannot deliver this order. Choose another one.',
        fields: { shippingMethod: ['The shipping method you chose cannot deliver this order. Choose another one.'] },
      });
      await client.post('/shop/checkout/save-shipping-method', { shippingMethod: flatRate });
      expect((await placeOrder(client)).status).toBe(200);
    });
  });
});
