import { Order } from '../../src/commerce/orders/order.entity';
import { ViesClient } from '../../src/commerce/tax/vies.client';
import { SettingsService } from '../../src/config/settings.service';
import { productBySku } from '../support/catalog';
import { ADDRESS, addToCart, fillCheckout, placeOrder, shippingValue } from '../support/checkout';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp } from '../support/test-app';

const PRAGUE = { ...ADDRESS, street: 'Václavské náměstí 1', city: 'Praha', zipCode: '110 00', country: 'CZ' };

/**
 * A valid VAT id of another EU country than the shop's (SK) makes the sale reverse-charge: the net price,
 * no VAT. Checked against the VIES sandbox, so the app listens on a port of its own.
 */
describe('reverse charge', () => {
  let shop: TestApp;
  let flatRate: string;
  beforeAll(async () => {
    shop = await startTestApp({ listen: true });
    flatRate = await shippingValue(shop.dataSource, 'flat-rate');
  });
  afterAll(() => shop.close());

  /** A headlamp (39.00) by courier (4.90), cash on delivery (1.50): 45.40 including 7.57 VAT. */
  async function checkout(vatId: string, address = PRAGUE) {
    const client = new ShopClient(shop.server);
    await addToCart(client, (await productBySku(shop.dataSource, 'DEMO-HEADLAMP')).id, 1);
    const saved = await fillCheckout(client, {
      address,
      shippingMethod: flatRate,
      paymentMethod: 'cod',
      extra: { vatId, companyName: 'Firma s.r.o.' },
    });
    return { client, cart: saved.body.cart };
  }

  it('charges a registered company of another EU country the net price without VAT', async () => {
    const { client, cart } = await checkout('CZ 1234 5678');
    expect(cart).toMatchObject({
      subtotal: 39,
      shipping: 4.9,
      paymentFee: 1.5,
      tax: 0,
      total: 37.83,
      reverseCharge: true,
    });

    const placed = await placeOrder(client, { expectedTotal: 37.83 });
    expect(placed.status).toBe(200);
    const order = await shop.dataSource.getRepository(Order).findOneByOrFail({ number: placed.body.orderNumber });
    expect(order).toMatchObject({
      reverseCharge: true,
      tax: 0,
      total: 3783,
      vatId: 'CZ12345678',
      companyName: 'Firma s.r.o.',
    });
    const page = await client.get('/shop/checkout/success').set('Accept', 'text/html').expect(200);
    expect(page.text).toContain('reverse charge (VAT ID CZ12345678)');
  });

  it('keeps the VAT service’s consultation number and time on the order, for the tax audit', async () => {
    // VIES numbers a consultation when the shop names itself as the requester (its own VAT id).
    await shop.app.get(SettingsService).save({ salesSellerVatId: 'SK2020123456' });
    const before = Date.now();
    const { client } = await checkout('CZ 8765 4321');
    const placed = await placeOrder(client, { expectedTotal: 37.83 });
    expect(placed.status).toBe(200);
    const order = await shop.dataSource.getRepository(Order).findOneByOrFail({ number: placed.body.orderNumber });
    expect(order).toMatchObject({ reverseCharge: true, vatId: 'CZ87654321' });
    expect(order.vatConsultationNumber).toMatch(/^WAPI[A-Z0-9]+$/);
    expect(order.vatCheckedAt).toBeGreaterThanOrEqual(before - 1000);
    expect(order.vatCheckedAt).toBeLessThanOrEqual(Date.now());

    const staff = new ShopClient(shop.server);
    await staff.loginCp();
    const cp = await staff.get(`/admin/orders/${order.id}`).set('Accept', 'text/html').expect(200);
    expect(cp.text).toContain(order.vatConsultationNumber);

    // Charged VAT keeps no consultation: nothing was proven.
    const { client: local } = await checkout('SK2020123456', ADDRESS);
    const charged = await placeOrder(local);
    const plain = await shop.dataSource.getRepository(Order).findOneByOrFail({ number: charged.body.orderNumber });
    expect(plain).toMatchObject({ reverseCharge: false, vatConsultationNumber: null, vatCheckedAt: null });
    await shop.app.get(SettingsService).save({ salesSellerVatId: '' });
  });

  it.each([
    ['a VAT id of the shop’s own country', 'SK2020123456', ADDRESS],
    ['a VAT id VIES does not know', 'CZ12345000', PRAGUE],
    ['a VAT id VIES cannot check right now', 'CZ12345999', PRAGUE],
  ])('charges VAT for %s', async (_, vatId, address) => {
    const { client, cart } = await checkout(vatId, address);
    expect(cart).toMatchObject({ tax: 7.57, total: 45.4, reverseCharge: false });
    const placed = await placeOrder(client);
    expect(placed.status).toBe(200);
    const order = await shop.dataSource.getRepository(Order).findOneByOrFail({ number: placed.body.orderNumber });
    expect(order).toMatchObject({ reverseCharge: false, tax: 757, total: 4540 });
  });

  it('asks an unavailable VAT service once per checkout, not at every step', async () => {
    const check = jest.spyOn(shop.app.get(ViesClient), 'check');
    try {
      const { client } = await checkout('CZ87654999');
      expect((await placeOrder(client)).status).toBe(200);
      // save, shipping, payment and place-order each priced the cart; VIES was asked the first time only.
      expect(check.mock.calls.map(([prefix, number]) => `${prefix}${number}`)).toEqual(['CZ87654999']);
    } finally {
      check.mockRestore();
    }
  });

  it('leaves net prices as they are when prices exclude VAT', async () => {
    const settings = shop.app.get(SettingsService);
    await settings.save({ salesPricesIncludeTax: false });
    try {
      expect((await checkout('CZ12345678')).cart).toMatchObject({ tax: 0, total: 45.4, reverseCharge: true });
      expect((await checkout('CZ12345000')).cart).toMatchObject({ tax: 9.08, total: 54.48, reverseCharge: false });
    } finally {
      await settings.save({ salesPricesIncludeTax: true });
    }
  });

  it('charges VAT under a format-only check, however well-formed the id, and keeps the id for the invoice', async () => {
    const settings = shop.app.get(SettingsService);
    await settings.save({ salesValidateVATType: 'format' });
    try {
      // Well-formed, and VIES would not know it: a format check cannot tell an invented id from a real one.
      const { client, cart } = await checkout('CZ12345000');
      expect(cart).toMatchObject({ tax: 7.57, total: 45.4, reverseCharge: false });
      const placed = await placeOrder(client);
      const order = await shop.dataSource.getRepository(Order).findOneByOrFail({ number: placed.body.orderNumber });
      expect(order).toMatchObject({ reverseCharge: false, tax: 757, total: 4540, vatId: 'CZ12345000' });
      // Not even a registered one is reverse-charged without asking the VAT service.
      expect((await checkout('CZ12345678')).cart).toMatchObject({ tax: 7.57, reverseCharge: false });
    } finally {
      await settings.save({ salesValidateVATType: 'format_existence' });
    }
  });

  it('gives no reverse charge while VAT checks are off', async () => {
    const settings = shop.app.get(SettingsService);
    await settings.save({ salesValidateVAT: false });
    try {
      expect((await checkout('CZ12345678')).cart).toMatchObject({ tax: 7.57, reverseCharge: false });
    } finally {
      await settings.save({ salesValidateVAT: true });
    }
  });
});
