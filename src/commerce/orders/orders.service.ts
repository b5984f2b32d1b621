import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { OrderLine } from './order-line.entity';
import { Order } from './order.entity';

const ORDER_NUMBER = /^[0-9a-f]{32}$/;

/** Reading orders by their public number, for guest pages and the payment return. */
@Injectable()
export class OrdersService {
  constructor(private readonly dataSource: DataSource) {}

  /** The order with this number; null for an unknown or malformed one. */
  async byNumber(number: unknown): Promise<Order | null> {
    if (typeof number !== 'string' || !ORDER_NUMBER.test(number)) return null;
    return this.dataSource.getRepository(Order).findOneBy({ number });
  }

  lines(orderId: number): Promise<OrderLine[]> {
    return this.dataSource.getRepository(OrderLine).find({ where: { orderId }, order: { id: 'ASC' } });
  }
}
