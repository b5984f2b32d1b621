import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import { OrderMails } from '../order-mails/order-mails.service';
import { OrderStatusService } from '../orders/order-status.service';
import { Shipment } from './shipment.entity';

declare module '../order-mails/order-mails.service' {
  interface OrderMailKinds {
    delivered: void;
  }
}

/**
 * The e-mail that the order arrived (`order-delivered` templates), while `shipmentsDeliveredMail` is on: queued in
 * the transaction that completes an order whose live parcels are all delivered (the last parcel's delivery, or staff
 * completing it then), once per order. An order completed without a delivered parcel sends none.
 */
@Injectable()
export class DeliveredMail implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    private readonly orderMails: OrderMails,
    private readonly orderStatus: OrderStatusService,
  ) {}

  onModuleInit(): void {
    this.orderMails.define('delivered', {
      setting: 'shipmentsDeliveredMail',
      facts: async ({ order }) => {
        const delivered = await this.dataSource.getRepository(Shipment).find({
          where: { orderId: order.id, status: 'delivered' },
          order: { id: 'ASC' },
        });
        return { parcels: delivered.map((parcel) => ({ carrier: parcel.carrierName, number: parcel.trackingNumber })) };
      },
    });
    this.orderStatus.subscribe(async (tx, change) => {
      if (change.to !== 'completed') return;
      const count = (statuses: Shipment['status'][]) =>
        tx.manager.countBy(Shipment, { orderId: change.orderId, status: In(statuses) });
      if ((await count(['delivered'])) > 0 && (await count(['created', 'in_transit'])) === 0) {
        await this.orderMails.queue(tx, 'delivered', change.orderId);
      }
    });
  }
}
