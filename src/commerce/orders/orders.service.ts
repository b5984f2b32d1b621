import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { OrderLine } from './order-line.entity';
import { Order } from './order.entity';

const ORDER_NUMBER = /^[0-9a-f]{32}$/;
/** The short reference people read out (`randomCode(8)`), typed in either case. */
const ORDER_REFERENCE = /^[0-9A-Z]{8}$/i;

/** Reading orders by their public number (guest pages, the payment return) or, for staff, their reference. */
@Injectable()
export class OrdersService {
  constructor(private readonly dataSource: DataSource) {}

  /** The order with this number; null for an unknown or malformed one. */
  async byNumber(number: unknown): Promise<Order | null> {
    if (typeof number !== 'string' || !ORDER_NUMBER.test(number)) return null;
    return this.dataSource.getRepository(Order).findOneBy({ number });
  }

  /** The order staff name: by its number or by the short reference shown everywhere (`HFTWPTRD`); null if none. */
  async byNumberOrReference(text: string): Promise<Order | null> {
    const typed = text.trim();
    if (ORDER_REFERENCE.test(typed)) {
      return this.dataSource.getRepository(Order).findOneBy({ reference: typed.toUpperCase() });
    }
    return this.byNumber(typed.toLowerCase());
  }

  lines(orderId: number): Promise<OrderLine[]> {
    return this.dataSource.getRepository(OrderLine).find({ where: { orderId }, order: { id: 'ASC' } });
  }
}
