import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { CpPermissionName } from '../../common/cp-permissions';
import { AppError } from '../../common/errors/app-error';
import { SalesDocuments } from '../invoices/sales-documents.service';
import { PaymentStatusPoller } from '../payments/payment-status-poller';
import { maskGiftCardCode } from '../gift-cards/gift-card-code';
import { GiftCardMovement } from '../gift-cards/gift-card-movement.entity';
import { PaymentTransaction } from '../payments/payment-transaction.entity';
import { CurrencyService } from '../stores/currency.service';
import { ratePercent } from '../tax/tax-class';
import { orderEditable } from './order-edits.service';
import { OrderHistory } from './order-history.entity';
import { OrderLine } from './order-line.entity';
import { OrderMethodNames } from './order-method-names';
import { OrderPageSections } from './order-page-sections';
import { OrderStatusService } from './order-status.service';
import { orderErrors } from './orders-errors';
import { isOrderStatus, orderLifecycle, OrderStatus } from './order-status.machine';
import { customerName, ORDER_STATUS_LABELS, orderSummary, pickupPointName } from './order-summary';
import { Order } from './order.entity';

/**
 * The moves staff make by hand: those of the order table but `refunded`, which only the refund that gives back the
 * last of what was paid makes (money moves with it).
 */
export function staffMoves(status: OrderStatus): OrderStatus[] {
  return orderLifecycle.next(status).filter((to) => to !== 'refunded');
}

/** What the CP order page reads. Status changes go through OrderStatusService. */
@Injectable()
export class OrderAdmin {
  constructor(
    private readonly dataSource: DataSource,
    private readonly poller: PaymentStatusPoller,
    private readonly sections: OrderPageSections,
    private readonly documents: SalesDocuments,
    private readonly statuses: OrderStatusService,
    private readonly names: OrderMethodNames,
    private readonly currencies: CurrencyService,
  ) {}

  /** A status staff set by hand (`staffMoves`); null when the order was in it already. */
  changeStatus(orderId: number, to: OrderStatus, actor: string, note?: string) {
    if (to === 'refunded') throw orderErrors.order_refunded_by_refund();
    return this.statuses.change(orderId, to, actor, note);
  }

  byId(id: number): Promise<Order | null> {
    return this.dataSource.getRepository(Order).findOneBy({ id });
  }

  /**
   * The order page of a staff member who `holds` the given permissions: the order and its lines as they are (the
   * edit forms fill in from them) and `view`, everything about it as staff read it (amounts formatted, methods by
   * name); the plugins' sections are those they open.
   */
  async detail(id: number, holds: (permission: CpPermissionName) => boolean) {
    const order = await this.dataSource.getRepository(Order).findOneBy({ id });
    if (!order) throw AppError.notFound('Order not found');
    const [lines, history, transactions, documents, giftCards, names, money] = await Promise.all([
      this.dataSource.getRepository(OrderLine).find({ where: { orderId: id }, order: { id: 'ASC' } }),
      this.dataSource.getRepository(OrderHistory).find({ where: { orderId: id }, order: { id: 'ASC' } }),
      this.dataSource.getRepository(PaymentTransaction).find({ where: { orderId: id }, order: { id: 'ASC' } }),
      this.documents.documentsOf(id),
      this.dataSource
        .getRepository(GiftCardMovement)
        .find({ where: { orderId: id, kind: 'spend' }, relations: { giftCard: true }, order: { id: 'ASC' } }),
      this.names.load(),
      this.currencies.formatter(order.currency, 'en'),
    ]);
    const summary = orderSummary(order, lines, money);
    return {
      order,
      lines,
      view: {
        ...summary,
        customer: {
          name: customerName(order),
          email: order.email,
          phone: order.billingAddress.phone || order.shippingAddress?.phone || null,
          // A registered customer's page (for staff who may open it) and orders (the list filtered to them).
          path: order.customerId && holds('accessCustomers') ? `customers/${order.customerId}` : null,
          ordersPath: order.customerId ? `orders?customer=${order.customerId}` : null,
        },
        shippingName: names.shipping(order),
        paymentName: names.payment(order),
        pickupPoint: pickupPointName(order.pickupPoint),
        lines: summary.lines.map((line, index) => ({ ...line, vatRate: vatPercent(lines[index].vatRate) })),
        vatRows: (order.vatRows ?? []).map((row) => ({
          rate: vatPercent(row.rate),
          net: money(row.net),
          vat: money(row.vat),
        })),
        giftCardsUsed: giftCards.map((movement) => ({
          code: movement.giftCard ? maskGiftCardCode(movement.giftCard.code) : `#${movement.giftCardId}`,
          amount: money(-movement.amount),
        })),
      },
      history: history.map((row) => ({
        ...row,
        fromStatus: statusLabel(row.fromStatus),
        toStatus: statusLabel(row.toStatus),
      })),
      transactions: transactions.map((transaction) => ({
        method: names.paymentCode(transaction.code),
        reference: transaction.reference,
        amount: money(transaction.amount),
        status: transaction.status,
        refundDue: transaction.refundDue,
      })),
      documents: documents.map(({ id: documentId, kind, number, amount, dateCreated }) => ({
        kind: kind === 'invoice' ? 'Invoice' : 'Credit note',
        number,
        amount: money(amount),
        dateCreated,
        path: kind === 'invoice' ? `orders/${id}/invoice` : `orders/${id}/credit-notes/${documentId}`,
      })),
      nextStatuses: staffMoves(order.status).map((status) => ({ value: status, label: ORDER_STATUS_LABELS[status] })),
      canCheckPayment: this.poller.canCheck(order),
      sections: await this.sections.for(order, holds),
      editable: orderEditable(order),
    };
  }
}

/** 2100 → "21 %", null (lines from before rates were kept) → null. */
function vatPercent(rate: number | null): string | null {
  return rate === null ? null : `${ratePercent(rate)} %`;
}

/** A history row's status in words (null on rows that are notes). */
function statusLabel(status: string | null): string | null {
  return status && isOrderStatus(status) ? ORDER_STATUS_LABELS[status] : status;
}
