import { Order } from '../../src/commerce/orders/order.entity';
import { SettingsService } from '../../src/config/settings.service';
import { productBySku } from '../support/catalog';
import { addToCart, fillCheckout, placeOrder, shippingValue } from '../support/checkout';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * What the checkout page offers beyond addresses and methods (delivery day and slot, the VAT id check, the
 * script's messages), and the pages after it in the shopper's language. Their behaviour in a browser:
 * test/browser/shopper-journey.spec.ts.
 */
describe('checkout page extras and order pages in the shopper’s language', () => {
  let shop: TestApp;
  let settings: SettingsService;
  let flatRate: string;
  beforeAll(async () => {
    shop = await startTestApp();
    settings = shop.app.get(SettingsService);
    flatRate = await shippingValue(shop.dataSource, 'flat-rate');
  });
  afterAll(() => shop.close());

  async function shopperWithHeadlamp(): Promise<ShopClient> {
    const client = new ShopClient(shop.server);
    await addToCart(client, (await productBySku(shop.dataSource, 'DEMO-HEADLAMP')).id, 1);
    return client;
  }

  const checkoutPage = async (client: ShopClient) =>
    (await client.get('/shop/checkout').set('Accept', 'text/html').expect(200)).text;

  async function inSlovak(client: ShopClient): Promise<void> {
    expect((await client.submitForm('/shop/language/set', { language: 'sk' })).status).toBe(303);
  }

  it('offers a delivery day within the booking window and checks VAT ids, only while the shop does', async () => {
    const client = await shopperWithHeadlamp();
    let html = await checkoutPage(client);
    const window =
      /<input id="checkout-deliveryDate" name="deliveryDate" type="date" min="(\d{4}-\d\d-\d\d)" max="(\d{4}-\d\d-\d\d)" value="">/.exec(
        html,
      );
    expect(window).not.toBeNull();
    const days = (Date.parse(window![2]) - Date.parse(window![1])) / 86_400_000;
    expect(days).toBe(60);
    expect(html).toContain('data-vat-check="true"');
    expect(html).toContain('<small id="checkout-vatId-status" class="vat-status" role="status"></small>');

    await settings.save({ salesDeliveryTimeEnabled: false, salesValidateVATType: 'format' });
    try {
      html = await checkoutPage(client);
      expect(html).not.toContain('id="checkout-delivery"');
      expect(html).toContain('data-vat-check=""');
    } finally {
      await settings.save({ salesDeliveryTimeEnabled: true, salesValidateVATType: 'format_existence' });
    }
  });

  it('shows the slot chosen before when the page is loaded again', async () => {
    const client = await shopperWithHeadlamp();
    const slots = (await client.get(`/shop/checkout/get-shipping-delivery-slots?date=${nextWeekday()}`).expect(200))
      .body.slots as Array<{ id: number }>;
    await fillCheckout(client, {
      shippingMethod: flatRate,
      paymentMethod: 'bank-transfer-manual',
    });
    const saved = await client.post('/shop/checkout/save-shipping-method', {
      shippingMethod: flatRate,
      deliverySlotId: slots[1].id,
      deliveryDate: nextWeekday(),
    });
    expect(saved.status).toBe(200);
    const html = await checkoutPage(client);
    expect(html).toContain(`data-slot-id="${slots[1].id}" data-date="${nextWeekday()}"`);
    expect(html).toMatch(
      new RegExp(`name="deliveryDate" type="date" min="[^"]+" max="[^"]+" value="${nextWeekday()}"`),
    );
  });

  it('gives the page script its messages in the page language', async () => {
    const client = await shopperWithHeadlamp();
    await inSlovak(client);
    const html = await checkoutPage(client);
    expect(html).toContain('<h1>Pokladňa</h1>');
    expect(html).toContain('<label for="billingAddress-zipCode">PSČ</label>');
    expect(html).toContain('data-choose-pickup-point="Vyberte výdajné miesto pre {method}."');
    expect(html).toContain('data-locale="sk"');
    expect(html).toMatch(/<dd data-amount="subtotal">39,00\s€<\/dd>/);
  });

  it('shows the success page and the guest order view in Slovak, amounts and status included', async () => {
    const client = await shopperWithHeadlamp();
    await inSlovak(client);
    await fillCheckout(client, { shippingMethod: flatRate, paymentMethod: 'bank-transfer-manual' });
    const placed = await placeOrder(client);
    expect(placed.status).toBe(200);
    const order = await shop.dataSource.getRepository(Order).findOneByOrFail({ number: placed.body.orderNumber });

    const success = (await client.get('/shop/checkout/success').set('Accept', 'text/html').expect(200)).text;
    expect(success).toContain('<h1>Ďakujeme za objednávku</h1>');
    expect(success).toContain(`Číslo vašej objednávky je <strong>${order.reference}</strong>.`);
    expect(success).toContain('Stav: <strong>Čaká na platbu</strong>');
    expect(success).toContain('<h2>Ako zaplatiť</h2>');
    // 39.00 + 4.90 courier.
    expect(success).toMatch(/<dd class="total">43,90\s€<\/dd>/);

    const view = (await client.get(`/shop/order/view/${order.number}`).set('Accept', 'text/html').expect(200)).text;
    expect(view).toContain(`<h1>Objednávka ${order.reference}</h1>`);
    expect(view).toContain('<h2>Fakturačná adresa</h2>');
    expect(view).toContain('<dt>Doprava (Courier)</dt>');

    // Paying again is for online methods: back to the order with a word, in Slovak too.
    const pay = await client.get(`/shop/order/pay/${order.number}`).set('Accept', 'text/html');
    expect(pay.headers.location).toBe(`/shop/order/view/${order.number}`);
    const after = (await client.get(pay.headers.location).set('Accept', 'text/html')).text;
    expect(after).toContain('Táto objednávka sa platí bankovým prevodom: použite platobné údaje nižšie.');
  });
});

/** The next Monday to Saturday after tomorrow: the demo shop delivers on those days. */
function nextWeekday(): string {
  for (let days = 2; ; days++) {
    const date = new Date(Date.now() + days * 86_400_000);
    if (date.getUTCDay() !== 0) return date.toISOString().slice(0, 10);
  }
}
