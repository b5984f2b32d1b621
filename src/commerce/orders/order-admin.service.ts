import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { CpPermissionName } from '../../common/cp-permissions';
import { AppError } from '../../common/errors/app-error';
import { SalesDocuments } from '../invoices/sales-documents.service';
import { PaymentStatusPoller } from '../payments/payment-status-poller';
import { PaymentTransaction } from '../payments/payment-transaction.entity';
import { orderEditable } from './order-edits.service';
import { OrderHistory } from './order-history.entity';
import { OrderLine } from './order-line.entity';
import { OrderPageSections } from './order-page-sections';
import { OrderStatusService } from './order-status.service';
import { orderErrors } from './orders-errors';
import { orderLifecycle, OrderStatus } from './order-status.machine';
import { Order } from './order.entity';

export interface OrderFilter {
  status?: OrderStatus;
  /** Matches the reference, order number or e-mail. */
  q?: string;
  page: number;
}

const PAGE_SIZE = 50;

/** What the CP order screens read. Status changes go through OrderStatusService. */
/**
 * The moves staff make by hand: those of the order table but `refunded`, which only the refund that gives back the
 * last of what was paid makes (money moves with it).
 */
export function staffMoves(status: OrderStatus): OrderStatus[] {
  return orderLifecycle.next(status).filter((to) => to !== 'refunded');
}

@Injectable()
export class OrderAdmin {
  constructor(
    private readonly dataSource: DataSource,
    private readonly poller: PaymentStatusPoller,
    private readonly sections: OrderPageSections,
    private readonly documents: SalesDocuments,
    private readonly statuses: OrderStatusService,
  ) {}

  /** A status staff set by hand (`staffMoves`); null when the order was in it already. */
  changeStatus(orderId: number, to: OrderStatus, actor: string, note?: string) {
    if (to === 'refunded') throw orderErrors.order_refunded_by_refund();
    return this.statuses.change(orderId, to, actor, note);
  }

  async list(filter: OrderFilter): Promise<{ orders: Order[]; total: number; pages: number }> {
    const query = this.dataSource.getRepository(Order).createQueryBuilder('o').orderBy('o.id', 'DESC');
    if (filter.status) query.andWhere('o.status = :status', { status: filter.status });
    if (filter.q) {
      query.andWhere('(o.reference = :q OR o.number = :q OR o.email LIKE :email)', {
        q: filter.q.trim(),
        email: `%${filter.q.trim().replace(/[%_\\]/g, '\\$&')}%`,
      });
    }
    const [orders, total] = await query
      .skip((filter.page - 1) * PAGE_SIZE)
      .take(PAGE_SIZE)
      .getManyAndCount();
    return { orders, total, pages: Math.max(1, Math.ceil(total / PAGE_SIZE)) };
  }

  byId(id: number): Promise<Order | null> {
    return this.dataSource.getRepository(Order).findOneBy({ id });
  }

  /** The order page of a staff member who `holds` the given permissions: the plugins' sections are those they open. */
  async detail(id: number, holds: (permission: CpPermissionName) => boolean) {
    const order = await this.dataSource.getRepository(Order).findOneBy({ id });
    if (!order) throw AppError.notFound('Order not found');
    const [lines, history, transactions, documents] = await Promise.all([
      this.dataSource.getRepository(OrderLine).find({ where: { orderId: id }, order: { id: 'ASC' } }),
      this.dataSource.getRepository(OrderHistory).find({ where: { orderId: id }, order: { id: 'ASC' } }),
      this.dataSource.getRepository(PaymentTransaction).find({ where: { orderId: id }, order: { id: 'ASC' } }),
      this.documents.documentsOf(id),
    ]);
    return {
      order,
      lines,
      history,
      transactions,
      documents: documents.map(({ id: documentId, kind, number, amount, dateCreated }) => ({
        kind: kind === 'invoice' ? 'Invoice' : 'Credit note',
        number,
        amount,
        dateCreated,
        path: kind === 'invoice' ? `orders/${id}/invoice` : `orders/${id}/credit-notes/${documentId}`,
      })),
      nextStatuses: staffMoves(order.status),
      canCheckPayment: this.poller.canCheck(order),
      sections: await this.sections.for(order, holds),
      editable: orderEditable(order),
    };
  }
}
