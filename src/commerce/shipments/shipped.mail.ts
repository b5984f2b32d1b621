import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource, Not } from 'typeorm';
import { Tx } from '../../database/transaction-runner';
import { OrderMails } from '../order-mails/order-mails.service';
import { OrderStatusService } from '../orders/order-status.service';
import { Order } from '../orders/order.entity';
import { Shipment } from './shipment.entity';

declare module '../order-mails/order-mails.service' {
  interface OrderMailKinds {
    shipped: void;
  }
}

/**
 * The shopper's one shipping e-mail (`order-shipped` templates): the order's parcels with their tracking links.
 * Queued in the transaction that moves an order with a shipment to `shipped` (while `shipmentsShippedMail` is on),
 * once per order, so a second parcel or a move back and forth sends no second one.
 */
@Injectable()
export class ShippedMail implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    private readonly orderMails: OrderMails,
    private readonly orderStatus: OrderStatusService,
  ) {}

  onModuleInit(): void {
    this.orderMails.define('shipped', {
      setting: 'shipmentsShippedMail',
      facts: async ({ order, orderUrl }) => {
        const shipments = await this.dataSource.getRepository(Shipment).find({
          where: { orderId: order.id, status: Not('canceled') },
          order: { id: 'ASC' },
        });
        // Every parcel of the order was canceled before the job ran: nothing is on its way.
        if (shipments.length === 0) return null;
        return {
          parcels: shipments.map((shipment) => ({
            carrier: shipment.carrierName,
            number: shipment.trackingNumber,
            url: shipment.trackingUrl ?? orderUrl,
          })),
        };
      },
    });
    this.orderStatus.subscribe(async (tx, change) => {
      if (change.to === 'shipped') await this.queue(tx, change.orderId);
    });
  }

  /**
   * Queues the e-mail, in the caller's transaction, while the order is shipped and has a live shipment: on the move
   * to shipped, and on a shipment recorded for an order staff had marked shipped before it had one.
   */
  async queue(tx: Tx, orderId: number): Promise<void> {
    const order = await tx.manager.findOne(Order, { where: { id: orderId }, select: { id: true, status: true } });
    if (order?.status !== 'shipped') return;
    if (!(await tx.manager.existsBy(Shipment, { orderId, status: Not('canceled') }))) return;
    await this.orderMails.queue(tx, 'shipped', orderId);
  }
}
