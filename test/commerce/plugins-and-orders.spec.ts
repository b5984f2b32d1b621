import { EventEmitter2 } from '@nestjs/event-emitter';
import { ORDER_STATUS_CHANGE } from '../../src/commerce/events';
import { OrderHistory } from '../../src/commerce/orders/order-history.entity';
import { OrderStatusChange, OrderStatusService } from '../../src/commerce/orders/order-status.service';
import { Order } from '../../src/commerce/orders/order.entity';
import { PaymentMethodRegistry } from '../../src/commerce/payments/payment-method.registry';
import { ShippingMethodRegistry } from '../../src/commerce/shipping/shipping-method.registry';
import { Job } from '../../src/jobs/job.entity';
import { defineJob, JobQueue } from '../../src/jobs/job-queue.service';
import { insertOrder } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';
import { loadEvents, TestPluginModule } from '../support/test-plugin.module';

const NOTIFY_SHIPPED = defineJob<{ orderId: number }>('test.notify-shipped');

describe('plugins and the order status machine', () => {
  let shop: TestApp;
  const changes: OrderStatusChange[] = [];

  beforeAll(async () => {
    shop = await startTestApp({ extraModules: [TestPluginModule], env: { JOB_WORKER: 'off' } });
    shop.app.get(EventEmitter2).on(ORDER_STATUS_CHANGE, (change: OrderStatusChange) => changes.push(change));
  });
  afterAll(() => shop.close());

  it('emits plugins-after-load once, after every module initialised, and plugins register on it', () => {
    expect(loadEvents).toEqual(['plugins-after-load']);
    const payments = shop.app.get(PaymentMethodRegistry);
    expect(payments.methods().map((method) => method.code)).toContain('test-pay');
    expect(payments.methods().map((method) => method.code)).not.toContain('test-pay-off');
    expect(payments.gatewayFor('test-pay')?.handle).toBe('test-pay');
    expect(shop.app.get(ShippingMethodRegistry).get('test-carrier')?.name).toBe('Test carrier');
  });

  it('moves an order along allowed transitions, writing history and announcing each change', async () => {
    const order = await insertOrder(shop.dataSource);
    const statuses = shop.app.get(OrderStatusService);

    const change = await statuses.change(order.id, 'paid', 'gateway:test-pay', 'captured');
    expect(change).toMatchObject({ orderId: order.id, from: 'pending_payment', to: 'paid' });
    expect(changes).toContainEqual(expect.objectContaining({ orderNumber: order.number, to: 'paid' }));
    // Same state again: nothing happens, nothing is announced (a replayed gateway return).
    expect(await statuses.change(order.id, 'paid', 'gateway:test-pay')).toBeNull();

    await expect(statuses.change(order.id, 'pending_payment', 'cp:admin')).rejects.toMatchObject({
      status: 409,
      code: 'illegal_transition',
    });
    const history = await shop.dataSource.getRepository(OrderHistory).findBy({ orderId: order.id });
    expect(history.map((row) => [row.fromStatus, row.toStatus, row.actor])).toEqual([
      ['pending_payment', 'paid', 'gateway:test-pay'],
    ]);
    expect(changes.filter((seen) => seen.orderId === order.id)).toHaveLength(1);
  });

  it('runs in-transaction subscribers, so follow-up jobs exist exactly when the change committed', async () => {
    const statuses = shop.app.get(OrderStatusService);
    const queue = shop.app.get(JobQueue);
    statuses.subscribe(async (tx, change) => {
      if (change.to === 'shipped') {
        await queue.enqueue(tx, NOTIFY_SHIPPED, { orderId: change.orderId }, { key: `shipped:${change.orderId}` });
      }
    });
    const order = await insertOrder(shop.dataSource, 'paid');
    await statuses.change(order.id, 'shipped', 'cp:admin');
    await statuses.change(order.id, 'shipped', 'cp:admin');
    const jobs = await shop.dataSource.getRepository(Job).findBy({ name: NOTIFY_SHIPPED.name });
    expect(jobs.map((job) => job.payload)).toEqual([{ orderId: order.id }]);
    expect((await shop.dataSource.getRepository(Order).findOneByOrFail({ id: order.id })).status).toBe('shipped');
  });

  it('keeps two concurrent changes to one order to one transition', async () => {
    const order = await insertOrder(shop.dataSource);
    const statuses = shop.app.get(OrderStatusService);
    const results = await Promise.allSettled([
      statuses.change(order.id, 'paid', 'gateway:a'),
      statuses.change(order.id, 'paid', 'gateway:b'),
      statuses.change(order.id, 'canceled', 'customer'),
    ]);
    const history = await shop.dataSource.getRepository(OrderHistory).findBy({ orderId: order.id });
    const final = await shop.dataSource.getRepository(Order).findOneByOrFail({ id: order.id });
    // Whatever the order of arrival, the history replays to the final status and 'paid' happened at most once.
    expect(history.filter((row) => row.toStatus === 'paid').length).toBeLessThanOrEqual(1);
    expect(history[history.length - 1].toStatus).toBe(final.status);
    expect(results.filter((result) => result.status === 'fulfilled' && result.value).length).toBe(history.length);
  });
});
