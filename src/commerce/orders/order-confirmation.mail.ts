import { Injectable, OnModuleInit } from '@nestjs/common';
import { Tx } from '../../database/transaction-runner';
import { contentBlocks } from '../content/content-blocks';
import { ContentPageSlug } from '../content/content-page-slugs';
import { ContentPages } from '../content/content-pages.service';
import { SalesDocumentMail } from '../invoices/sales-document-mail';
import { OrderMails } from '../order-mails/order-mails.service';
import { PaymentMethodRegistry } from '../payments/payment-method.registry';
import { Order } from './order.entity';

declare module '../order-mails/order-mails.service' {
  interface OrderMailKinds {
    confirmation: void;
  }
}

/** The content pages the confirmation carries. */
const LEGAL_PAGES: ContentPageSlug[] = ['terms', 'withdrawal'];

/**
 * The order confirmation e-mail (`order-confirmation` templates): what was bought, what it costs, how to pay (a
 * bank transfer's details), where it goes and where to follow it, the terms and the withdrawal information. Queued by
 * the transaction that places (offline methods) or pays (online) the order, once per order, whatever calls it; with
 * the order's invoice once it has one.
 */
@Injectable()
export class OrderConfirmationMail implements OnModuleInit {
  constructor(
    private readonly orderMails: OrderMails,
    private readonly payments: PaymentMethodRegistry,
    private readonly documents: SalesDocumentMail,
    private readonly content: ContentPages,
  ) {}

  onModuleInit(): void {
    this.orderMails.define('confirmation', {
      facts: async ({ order, language }) => ({
        instructions: (await this.payments.gatewayFor(order.paymentMethod)?.instructionsFor?.(order)) ?? [],
        legalPages: await this.legalPages(order, language),
      }),
      // A paid order's invoice goes along: the very bytes stored for later downloads.
      attachments: (order) => this.documents.attachmentsOf(order.id),
    });
  }

  /**
   * The terms and conditions and the withdrawal information in the mail's language: the consumer gets them on a
   * durable medium with the confirmation (Directive 2011/83/EU Art. 8(7)). The terms are the version the shopper
   * accepted when the order recorded one, else the current version, as is the withdrawal information.
   */
  private async legalPages(order: Order, language: string) {
    const pages = await Promise.all(
      LEGAL_PAGES.map(async (slug) => {
        const accepted = slug === 'terms' && order.termsVersion !== null;
        return (
          (accepted ? await this.content.version(slug, order.termsLanguage ?? language, order.termsVersion!) : null) ??
          (await this.content.current(slug, language))
        );
      }),
    );
    return pages
      .filter((page) => page !== null)
      .map(({ title, version, body }) => ({ title, version, blocks: contentBlocks(body) }));
  }

  queue(tx: Tx, order: Order): Promise<boolean> {
    return this.orderMails.queue(tx, 'confirmation', order.id);
  }
}
