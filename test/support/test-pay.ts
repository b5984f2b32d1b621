import { DataSource } from 'typeorm';
import { Order } from '../../src/commerce/orders/order.entity';
import { PaymentTransaction } from '../../src/commerce/payments/payment-transaction.entity';
import { productBySku } from './catalog';
import { ADDRESS, addToCart, fillCheckout, placeOrder, shippingValue } from './checkout';
import { ShopClient } from './shop-client';

/**
 * A placed order of a headlamp by courier, paid through the test gateway (`TestPluginModule`) and waiting for the
 * shopper's return, unless another payment method is named.
 */
export async function placeTestPayOrder(
  client: ShopClient,
  dataSource: DataSource,
  { address = ADDRESS, paymentMethod = 'test-pay' } = {},
): Promise<Order> {
  await addToCart(client, (await productBySku(dataSource, 'DEMO-HEADLAMP')).id, 1);
  const shippingMethod = await shippingValue(dataSource, 'flat-rate');
  await fillCheckout(client, { shippingMethod, paymentMethod, address });
  const placed = await placeOrder(client);
  if (placed.status !== 200) throw new Error(`place-order failed: ${placed.status} ${JSON.stringify(placed.body)}`);
  return dataSource.getRepository(Order).findOneByOrFail({ number: placed.body.orderNumber });
}

/** The shopper back from the test gateway with a paid attempt: the settlement marks the order paid. */
export async function returnPaid(client: ShopClient, dataSource: DataSource, order: Order): Promise<void> {
  const attempt = await dataSource.getRepository(PaymentTransaction).findOneByOrFail({ orderId: order.id });
  const res = await client
    .get('/shop/checkout/process-payment')
    .query({ order: order.number, payment: attempt.reference, result: 'ok' })
    .set('Accept', 'text/html');
  if (res.status !== 303) throw new Error(`payment return failed: ${res.status}`);
}
