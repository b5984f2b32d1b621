import { DataSource } from 'typeorm';
import { Cart } from '../../src/commerce/carts/cart.entity';
import { OrderStatus } from '../../src/commerce/orders/order-status.machine';
import { OrderLine } from '../../src/commerce/orders/order-line.entity';
import { Order } from '../../src/commerce/orders/order.entity';
import { randomCode, randomHex32 } from '../../src/common/ids';

/**
 * An order row as checkout will write it, for tests of what happens to orders afterwards. `values` replace the
 * defaults (a `dateCreated` in the past dates its cart the same).
 */
export async function insertOrder(
  dataSource: DataSource,
  status: OrderStatus = 'pending_payment',
  values: Partial<Order> = {},
): Promise<Order> {
  const at = values.dateCreated?.getTime() ?? Date.now();
  const cart = await dataSource.getRepository(Cart).save({
    uid: randomHex32(),
    storeId: 1,
    currency: values.currency ?? 'EUR',
    lastActivityAt: at,
    orderedAt: at,
    ...(values.dateCreated && { dateCreated: values.dateCreated }),
  });
  const address = {
    firstName: 'Ada',
    lastName: 'Lovelace',
    street: 'Main 1',
    city: 'Bratislava',
    zipCode: '81101',
    country: 'SK',
  };
  return dataSource.getRepository(Order).save({
    number: randomHex32(),
    reference: randomCode(8),
    storeId: 1,
    cartId: cart.id,
    email: 'ada@example.com',
    status,
    currency: 'EUR',
    subtotal: 2490,
    shippingTotal: 490,
    total: 2980,
    billingAddress: address,
    shippingAddress: address,
    shippingMethod: 'core:flat-rate:1',
    paymentMethod: 'cod',
    ...values,
  });
}

/** A line of an order inserted by `insertOrder` (its totals are not recomputed). */
export function insertOrderLine(
  dataSource: DataSource,
  order: Order,
  line: Pick<OrderLine, 'sku' | 'name' | 'qty' | 'price'> & Partial<OrderLine>,
): Promise<OrderLine> {
  return dataSource
    .getRepository(OrderLine)
    .save({ orderId: order.id, productId: 1, total: line.qty * line.price, ...line });
}
