import { Injectable, OnModuleInit } from '@nestjs/common';
import { OrderMails } from '../order-mails/order-mails.service';
import { OrderStatusService } from './order-status.service';

declare module '../order-mails/order-mails.service' {
  interface OrderMailKinds {
    /** `unpaid`: canceled while it awaited its payment (the payment deadline, the shopper giving up at the bank). */
    canceled: { unpaid: boolean };
  }
}

/**
 * The e-mail that an order was canceled (`order-canceled` templates), while `salesCanceledMail` is on: queued in the
 * transaction of the order's move to `canceled`, whoever made it (the shopper, staff, the payment deadline), once.
 */
@Injectable()
export class OrderCanceledMail implements OnModuleInit {
  constructor(
    private readonly orderMails: OrderMails,
    private readonly orderStatus: OrderStatusService,
  ) {}

  onModuleInit(): void {
    this.orderMails.define('canceled', {
      setting: 'salesCanceledMail',
      facts: async (_context, { unpaid }) => ({ unpaid }),
    });
    this.orderStatus.subscribe(async (tx, change) => {
      if (change.to !== 'canceled') return;
      const unpaid = change.from === 'pending_payment' || change.from === 'payment_review';
      await this.orderMails.queue(tx, 'canceled', change.orderId, { unpaid });
    });
  }
}
