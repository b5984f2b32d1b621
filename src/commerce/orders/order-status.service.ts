import { Injectable } from '@nestjs/common';
import { DomainEvents } from '../../common/domain-events';
import { AppError } from '../../common/errors/app-error';
import { writeLock } from '../../database/locking';
import { TransactionRunner, Tx } from '../../database/transaction-runner';
import { insertRows } from '../../database/upsert';
import { AuditLog } from '../audit/audit-log.service';
import { ORDER_STATUS_CHANGE } from '../events';
import { OrderHistory } from './order-history.entity';
import { orderLifecycle, OrderStatus } from './order-status.machine';
import { Order } from './order.entity';

export interface OrderStatusChange {
  orderId: number;
  orderNumber: string;
  from: OrderStatus;
  to: OrderStatus;
  actor: string;
}

declare module '../../common/domain-events' {
  interface DomainEventMap {
    [ORDER_STATUS_CHANGE]: OrderStatusChange;
  }
}

/** Runs inside the status change's transaction: the place to enqueue durable follow-up jobs (outbox). */
export type StatusChangeSubscriber = (tx: Tx, change: OrderStatusChange) => Promise<void>;

/**
 * The one place an order's status changes: checked against the machine, written to history and the audit log,
 * announced.
 */
@Injectable()
export class OrderStatusService {
  private readonly subscribers: StatusChangeSubscriber[] = [];

  constructor(
    private readonly runner: TransactionRunner,
    private readonly events: DomainEvents,
    private readonly audit: AuditLog,
  ) {}

  subscribe(subscriber: StatusChangeSubscriber): void {
    this.subscribers.push(subscriber);
  }

  /**
   * Moves the order to `to` under a row lock. Moving to the current status changes nothing and returns
   * null, so a replayed or concurrent request is harmless; an illegal move is a 409.
   */
  change(orderId: number, to: OrderStatus, actor: string, note?: string): Promise<OrderStatusChange | null> {
    return this.move(orderId, to, actor, note);
  }

  /**
   * Moves the order to `to` only while it is still in `from`, else changes nothing and returns null: for moves
   * decided on what was read earlier (a sweep canceling an unpaid order must not cancel one paid meanwhile).
   */
  changeFrom(
    orderId: number,
    from: OrderStatus,
    to: OrderStatus,
    actor: string,
    note?: string,
  ): Promise<OrderStatusChange | null> {
    return this.move(orderId, to, actor, note, from);
  }

  private async move(
    orderId: number,
    to: OrderStatus,
    actor: string,
    note: string | undefined,
    from?: OrderStatus,
  ): Promise<OrderStatusChange | null> {
    return this.runner.run(async (tx) => {
      const order = await tx.manager.findOne(Order, { where: { id: orderId }, ...writeLock(tx.manager) });
      if (!order) throw AppError.notFound('Order not found');
      if (order.status === to || (from !== undefined && order.status !== from)) return null;
      orderLifecycle.assertCan(order.status, to);
      await tx.manager.update(Order, { id: order.id }, { status: to });
      await insertRows(tx.manager, OrderHistory, {
        orderId: order.id,
        fromStatus: order.status,
        toStatus: to,
        actor,
        note: note ?? null,
      });
      await this.audit.record(tx.manager, {
        actor,
        area: 'order',
        action: 'status',
        subject: order.number,
        subjectLabel: order.reference,
        changes: { status: { from: order.status, to } },
      });
      const change: OrderStatusChange = { orderId: order.id, orderNumber: order.number, from: order.status, to, actor };
      for (const subscriber of this.subscribers) await subscriber(tx, change);
      tx.afterCommit(() => this.events.emit(ORDER_STATUS_CHANGE, change));
      return change;
    });
  }

  /** A note in the order's history without a status change (a failed payment attempt, a parcel number). */
  async comment(orderId: number, note: string, actor: string): Promise<void> {
    await this.runner.run(({ manager }) =>
      insertRows(manager, OrderHistory, { orderId, fromStatus: null, toStatus: null, note, actor }),
    );
  }
}
