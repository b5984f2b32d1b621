import request from 'supertest';
import { Order } from '../../src/commerce/orders/order.entity';
import { ShippingMethod } from '../../src/commerce/shipping/shipping-method.entity';
import { ShippingMethodRegistry } from '../../src/commerce/shipping/shipping-method.registry';
import { SettingsService } from '../../src/config/settings.service';
import { CarrierAShipments } from '../../src/plugins/carrier-a/carrier-a-shipments.service';
import { productBySku } from '../support/catalog';
import { addToCart, fillCheckout, placeOrder } from '../support/checkout';
import { ShopClient } from '../support/shop-client';
import { startTestApp, TestApp, usingMysql } from '../support/test-app';
import { applyGiftCard, issueCard } from './gift-cards-support';

/** A gift card paying part of a cash-on-delivery order: the courier collects only what is left. */
describe(`gift cards and cash on delivery (${usingMysql ? 'MariaDB' : 'SQLite'})`, () => {
  let shop: TestApp;

  beforeAll(async () => {
    shop = await startTestApp({ listen: true });
    await shop.app.get(SettingsService).save({ salesGiftCardsEnabled: true });
    await shop.dataSource.getRepository(ShippingMethod).update({ type: 'carrier-a' }, { enabled: true });
    shop.app.get(ShippingMethodRegistry).forgetMethods();
  });
  afterAll(() => shop.close());

  it('puts the amount left after the gift card on the parcel as cash on delivery', async () => {
    const method = await shop.dataSource
      .getRepository(ShippingMethod)
      .findOneByOrFail({ type: 'carrier-a', handle: 'classic' });
    const card = await issueCard(shop, 20);
    const client = new ShopClient(shop.server);
    await addToCart(client, (await productBySku(shop.dataSource, 'DEMO-HEADLAMP')).id, 1);
    await fillCheckout(client, { shippingMethod: `carrier-a:classic:${method.id}`, paymentMethod: 'cod' });
    expect((await applyGiftCard(client, card.code)).status).toBe(200);
    const placed = await placeOrder(client);
    expect(placed.status).toBe(200);
    const order = await shop.dataSource.getRepository(Order).findOneByOrFail({ number: placed.body.orderNumber });
    expect(order.giftCardTotal).toBe(2000);

    const shipment = await shop.app.get(CarrierAShipments).createParcel(order.id);

    const due = order.total - 2000;
    expect(shipment.codAmount).toBe(due);
    const [sent] = (await request(shop.server).get('/_sandbox/carrier-a/_control/parcels').expect(200)).body;
    expect(sent.body.cod).toEqual({ amount: due / 100, currency: 'EUR', variableSymbol: String(order.id) });
  });
});
