import { Injectable, OnModuleInit } from '@nestjs/common';
import { Tx } from '../../database/transaction-runner';
import { CouponService } from '../coupons/coupon.service';
import { DeliverySlotsService } from '../delivery/delivery-slots.service';
import { StockService } from '../products/stock.service';
import { restockedByRefunds } from '../refunds/refund-balance';
import { OrderLine } from './order-line.entity';
import { orderLifecycle } from './order-status.machine';
import { OrderStatusService } from './order-status.service';
import { Order } from './order.entity';

/**
 * A canceled order gives back what it took: its goods return to stock (but units refunds restocked already), its
 * coupon use is no longer counted and its delivery slot frees up, in the transaction that cancels it. An order is
 * canceled once (only `refunded` follows), so this happens once per order. (Gift-card amounts go back through
 * GiftCardRedemption, in the same transaction.)
 *
 * An order refunded in full from a status it could still have been canceled from (paid, processing) is called off
 * too: its coupon use and delivery slot are released the same way. Its goods are not: each refund chose whether its
 * lines go back to stock. `refunded` is final and a canceled order never moves there from such a status, so neither
 * release happens twice.
 */
@Injectable()
export class OrderCancellation implements OnModuleInit {
  constructor(
    private readonly statuses: OrderStatusService,
    private readonly stock: StockService,
    private readonly slots: DeliverySlotsService,
    private readonly coupons: CouponService,
  ) {}

  onModuleInit(): void {
    this.statuses.subscribe(async (tx, change) => {
      if (change.to === 'canceled') await this.giveBack(tx, change.orderId);
      else if (change.to === 'refunded' && orderLifecycle.can(change.from, 'canceled'))
        await this.releaseBookings(tx, change.orderId);
    });
  }

  private async giveBack(tx: Tx, orderId: number): Promise<void> {
    const lines = await tx.manager.findBy(OrderLine, { orderId });
    const restocked = await restockedByRefunds(tx.manager, orderId);
    await this.stock.restore(
      tx,
      lines
        .map((line) => ({
          productId: line.productId,
          variantId: line.variantId,
          qty: line.qty - (restocked.get(line.id) ?? 0),
          name: line.name,
        }))
        .filter((move) => move.qty > 0),
    );
    await this.releaseBookings(tx, orderId);
  }

  /** What the order booked besides goods: its coupon use and its delivery slot. */
  private async releaseBookings(tx: Tx, orderId: number): Promise<void> {
    const order = await tx.manager.findOneByOrFail(Order, { id: orderId });
    await this.coupons.releaseUse(tx, orderId);
    if (order.deliverySlotId && order.deliveryDate)
      await this.slots.release(tx, order.deliverySlotId, order.deliveryDate);
  }
}
