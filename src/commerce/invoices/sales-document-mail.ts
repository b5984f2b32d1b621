import { Injectable, OnModuleInit } from '@nestjs/common';
import { Job } from '../../jobs/job.entity';
import { defineJob, JobQueue } from '../../jobs/job-queue.service';
import { MailService, MailWithAttachments } from '../../mail/mail.service';
import { orderMailKey } from '../order-mails/order-mails.service';
import { StoreService } from '../stores/store.service';
import { documentFilename } from './sales-document-pdf';
import { SalesDocument } from './sales-document.entity';
import { SalesDocuments } from './sales-documents.service';

/** The job that mails an invoice issued after the order's confirmation went out; it names the document only. */
const INVOICE_MAIL_JOB = defineJob<{ documentId: number }>('invoice.mail');

type Attachment = MailWithAttachments['attachments'][number];

/**
 * The documents in the shopper's mailbox. The order confirmation written once the order is paid carries its
 * invoice, a refund's e-mail its credit note; an invoice issued after the confirmation was queued (a bank transfer that arrived later, invoicing at
 * shipping) goes in a mail of its own. Job rows hold ids only: the worker reads the stored PDFs.
 */
@Injectable()
export class SalesDocumentMail implements OnModuleInit {
  constructor(
    private readonly documents: SalesDocuments,
    private readonly jobs: JobQueue,
    private readonly mail: MailService,
    private readonly stores: StoreService,
  ) {}

  onModuleInit(): void {
    this.jobs.register(INVOICE_MAIL_JOB, ({ documentId }, job) => this.sendInvoice(documentId, job));
    this.documents.onIssued(async (tx, document, order) => {
      if (document.kind !== 'invoice') return;
      // A confirmation queued in this transaction (after the status change) will carry the invoice itself.
      const confirmed = await tx.manager.existsBy(Job, { jobKey: orderMailKey('confirmation', order.id) });
      if (confirmed)
        await this.jobs.enqueue(
          tx,
          INVOICE_MAIL_JOB,
          { documentId: document.id },
          { key: `invoice-mail:${document.id}` },
        );
    });
  }

  /** The order's invoice and credit notes as e-mail attachments. */
  async attachmentsOf(orderId: number): Promise<Attachment[]> {
    const documents = await this.documents.documentsOf(orderId);
    return Promise.all(documents.map((document) => this.attachment(document)));
  }

  /** The credit note a refund issued as an e-mail attachment; none when it issued none. */
  async refundAttachments(refundId: number): Promise<Attachment[]> {
    const creditNote = await this.documents.creditNoteOfRefund(refundId);
    return creditNote ? [await this.attachment(creditNote)] : [];
  }

  private async attachment(document: SalesDocument): Promise<Attachment> {
    return {
      filename: documentFilename(document),
      content: await this.documents.pdf(document),
      contentType: 'application/pdf',
    };
  }

  private async sendInvoice(documentId: number, job: Job): Promise<void> {
    const document = await this.documents.byId(documentId);
    if (!document) return;
    const order = await this.documents.orderOf(document);
    const store = await this.stores.byId(order.storeId);
    await this.mail.deliver(
      {
        to: order.email,
        subject: `Invoice ${document.number} for your order ${order.reference} at ${store.name}`,
        text: [
          `Thank you for your payment for order ${order.reference} at ${store.name}.`,
          '',
          `Your invoice ${document.number} is attached.`,
        ].join('\n'),
        attachments: [await this.attachment(document)],
      },
      job.id,
    );
  }
}
