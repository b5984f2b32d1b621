import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import { OnDomainEvent } from '../../common/domain-events';
import { TransactionRunner } from '../../database/transaction-runner';
import { ORDER_REFUNDED, OrderRefunded } from '../events';
import { SalesDocumentMail } from '../invoices/sales-document-mail';
import { OrderMails } from '../order-mails/order-mails.service';
import { OrderLine } from '../orders/order-line.entity';
import { Refund, RefundLine } from './refund.entity';

declare module '../order-mails/order-mails.service' {
  interface OrderMailKinds {
    refunded: { refundId: number };
  }
}

/**
 * The e-mail of a refund (`order-refunded` templates), while `salesRefundedMail` is on: one per succeeded refund,
 * queued when `order-refunded` announces it. It says how much went back and how, the items it gave back, and
 * whether everything paid is now refunded, with the refund's credit note attached; never staff's reason.
 */
@Injectable()
export class RefundedMail implements OnModuleInit {
  private readonly logger = new Logger(RefundedMail.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly orderMails: OrderMails,
    private readonly documents: SalesDocumentMail,
  ) {}

  onModuleInit(): void {
    this.orderMails.define('refunded', {
      setting: 'salesRefundedMail',
      once: ({ refundId }) => refundId,
      facts: async ({ order, money }, { refundId }) => {
        const refunds = this.dataSource.getRepository(Refund);
        const refund = await refunds.findOneBy({ id: refundId, status: 'succeeded' });
        if (!refund) return null;
        // The order's last refund is the one that gave everything back once the order is refunded.
        const last = await refunds.findOne({
          where: { orderId: order.id, status: 'succeeded' },
          order: { id: 'DESC' },
        });
        const refunded = await this.dataSource.getRepository(RefundLine).findBy({ refundId });
        const lines = await this.dataSource
          .getRepository(OrderLine)
          .findBy({ id: In(refunded.map((line) => line.orderLineId)) });
        return {
          refund: {
            amount: money(refund.amount),
            method: refund.method,
            reference: refund.reference,
            giftCards: refund.giftCardAmount > 0 && refund.method !== 'gift-card' ? money(refund.giftCardAmount) : null,
            lines: refunded.map(({ orderLineId, qty }) => ({
              qty,
              name: lines.find((line) => line.id === orderLineId)?.name ?? '',
            })),
            whole: order.status === 'refunded' && last?.id === refund.id,
          },
        };
      },
      // The credit note the refund's transaction issued: the very bytes stored for later downloads.
      attachments: (_order, { refundId }) => this.documents.refundAttachments(refundId),
    });
  }

  /** After the refund committed; a mail that cannot be queued now is logged, the refund stands. */
  @OnDomainEvent(ORDER_REFUNDED)
  async onRefunded({ refundId, orderId }: OrderRefunded): Promise<void> {
    try {
      await this.runner.run((tx) => this.orderMails.queue(tx, 'refunded', orderId, { refundId }));
    } catch (error) {
      this.logger.error(`refund ${refundId}: its e-mail could not be queued: ${(error as Error).message}`);
    }
  }
}
