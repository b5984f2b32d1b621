import { Injectable } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import { OrderStatus } from '../orders/order-status.machine';
import { Order } from '../orders/order.entity';
import { OrdersService } from '../orders/orders.service';

export const ORDERS_PER_PAGE = 10;

export interface OrderPage {
  orders: Order[];
  page: number;
  pages: number;
  total: number;
}

/** A customer's own orders: listed newest first, and found by number only when they are theirs. */
@Injectable()
export class CustomerOrdersService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly orders: OrdersService,
  ) {}

  /** One page of the customer's orders, newest first; `statuses` narrows it (the invoice list). */
  async page(
    customerId: number,
    page: number,
    statuses?: readonly OrderStatus[],
    perPage = ORDERS_PER_PAGE,
  ): Promise<OrderPage> {
    const [orders, total] = await this.dataSource.getRepository(Order).findAndCount({
      where: { customerId, ...(statuses ? { status: In([...statuses]) } : {}) },
      order: { dateCreated: 'DESC', id: 'DESC' },
      skip: (page - 1) * perPage,
      take: perPage,
    });
    return { orders, page, pages: Math.max(1, Math.ceil(total / perPage)), total };
  }

  /** The customer's order with this number; null when unknown or someone else's (the page says 404 either way). */
  async own(customerId: number, number: string): Promise<Order | null> {
    const order = await this.orders.byNumber(number);
    return order && order.customerId === customerId ? order : null;
  }
}
