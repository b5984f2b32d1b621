import { DataSource } from 'typeorm';
import { Cart } from '../../src/commerce/carts/cart.entity';
import { OrderStatus } from '../../src/commerce/orders/order-status.machine';
import { Order } from '../../src/commerce/orders/order.entity';
import { randomCode, randomHex32 } from '../../src/common/ids';

/** An order row as checkout will write it, for tests of what happens to orders afterwards. */
export async function insertOrder(dataSource: DataSource, status: OrderStatus = 'pending_payment'): Promise<Order> {
  const cart = await dataSource.getRepository(Cart).save({
    uid: randomHex32(),
    storeId: 1,
    currency: 'EUR',
    lastActivityAt: Date.now(),
    orderedAt: Date.now(),
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
  });
}
