import { Injectable, OnModuleInit } from '@nestjs/common';
import { Tx } from '../../database/transaction-runner';
import { SalesDocumentMail } from '../invoices/sales-document-mail';
import { OrderMails } from '../order-mails/order-mails.service';
import { PaymentMethodRegistry } from '../payments/payment-method.registry';
import { Order } from './order.entity';

declare module '../order-mails/order-mails.service' {
  interface OrderMailKinds {
    confirmation: void;
  }
}

/**
 * The order confirmation e-mail (`order-confirmation` templates): what was bought, what it costs, how to pay (a
 * bank transfer's details), where it goes and where to follow it. Queued by the transaction that places (offline
 * methods) or pays (online) the order, once per order, whatever calls it; with the order's invoice once it has one.
 */
@Injectable()
export class OrderConfirmationMail implements OnModuleInit {
  constructor(
    private readonly orderMails: OrderMails,
    private readonly payments: PaymentMethodRegistry,
    private readonly documents: SalesDocumentMail,
  ) {}

  onModuleInit(): void {
    this.orderMails.define('confirmation', {
      facts: async ({ order }) => ({
        instructions: (await this.payments.gatewayFor(order.paymentMethod)?.instructionsFor?.(order)) ?? [],
      }),
      // A paid order's invoice goes along: the very bytes stored for later downloads.
      attachments: (order) => this.documents.attachmentsOf(order.id),
    });
  }

  queue(tx: Tx, order: Order): Promise<boolean> {
    return this.orderMails.queue(tx, 'confirmation', order.id);
  }
}
