import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource, IsNull } from 'typeorm';
import { countryName } from '../../common/countries';
import { AppError } from '../../common/errors/app-error';
import { SettingsService } from '../../config/settings.service';
import { isMysqlFamily } from '../../database/data-source-options';
import { writeLock } from '../../database/locking';
import { TransactionRunner, Tx } from '../../database/transaction-runner';
import { insertRows } from '../../database/upsert';
import { OrderStatusChange, OrderStatusService } from '../orders/order-status.service';
import { Order } from '../orders/order.entity';
import { CurrencyService } from '../stores/currency.service';
import { StoreService } from '../stores/store.service';
import { formatDocumentNumber } from './document-number';
import { invoicedStatuses } from './invoice-moment';
import { invoicesErrors } from './invoices-errors';
import { SalesDocumentCounter } from './sales-document-counter.entity';
import { PDF_PART_BYTES, SalesDocumentPdfPart } from './sales-document-pdf-part.entity';
import { documentFilename, SalesDocumentPdf } from './sales-document-pdf';
import { CreditNoteLine, SalesDocument, SalesDocumentKind, SellerSnapshot } from './sales-document.entity';

/** What a refund asks to be documented: how much of the order it gives back and, if it says, for which lines. */
export interface CreditNoteRequest {
  orderId: number;
  refundId: number;
  /** Minor units of the order's currency. */
  amount: number;
  lines?: CreditNoteLine[];
}

/** Runs in the issuing transaction, for follow-up work queued there (the invoice e-mail). */
export type IssuedSubscriber = (tx: Tx, document: SalesDocument, order: Order) => Promise<void>;

/**
 * Invoices and credit notes as documents: numbered once from a gap-free sequence per kind and year, in the
 * transaction that makes them due, with the seller's details copied at issue; the PDF is drawn once and kept.
 */
@Injectable()
export class SalesDocuments implements OnModuleInit {
  private readonly issuedSubscribers: IssuedSubscriber[] = [];

  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly statuses: OrderStatusService,
    private readonly settings: SettingsService,
    private readonly stores: StoreService,
    private readonly currencies: CurrencyService,
    private readonly pdfs: SalesDocumentPdf,
  ) {}

  onModuleInit(): void {
    this.statuses.subscribe((tx, change) => this.invoiceWhenDue(tx, change));
  }

  onIssued(subscriber: IssuedSubscriber): void {
    this.issuedSubscribers.push(subscriber);
  }

  /** The statuses in which an order has (or, for orders from before invoices were kept, gets) its invoice. */
  invoicedStatuses() {
    return invoicedStatuses(this.settings.get('salesInvoiceIssuedWhen'));
  }

  /**
   * The order's invoice, issued in the caller's transaction unless it has one (then that one, unchanged). The
   * status change that makes it due calls this; so may whoever decides the moment (a shipment, when invoices are
   * issued at shipping).
   */
  issueInvoice(tx: Tx, orderId: number): Promise<SalesDocument> {
    return this.invoiceOnce(tx, orderId, true);
  }

  /** `announce`: tell the issue's subscribers (the invoice e-mail); not for an invoice issued at a download. */
  private async invoiceOnce(tx: Tx, orderId: number, announce: boolean): Promise<SalesDocument> {
    // The order's row lock makes issuers of one order take turns. A locking read here would instead lock the gap
    // where the invoice would go, and concurrent issues for other orders would deadlock on their inserts.
    const order = await this.lockedOrder(tx, orderId);
    const existing = await tx.manager.findOneBy(SalesDocument, { invoicedOrderId: orderId });
    if (existing) return existing;
    return this.issue(tx, 'invoice', order, { invoicedOrderId: order.id, amount: order.total }, announce);
  }

  /**
   * A credit note for a refund, referring to the order's invoice, in the caller's transaction. The same refund
   * again answers with its credit note; all credit notes of an invoice together never exceed it (409).
   */
  async issueCreditNote(tx: Tx, request: CreditNoteRequest): Promise<SalesDocument> {
    checkCreditNote(request);
    const order = await this.lockedOrder(tx, request.orderId);
    const existing = await tx.manager.findOneBy(SalesDocument, { refundId: request.refundId });
    if (existing) return existing;
    const invoice = await tx.manager.findOneBy(SalesDocument, { invoicedOrderId: order.id });
    if (!invoice) throw invoicesErrors.invoice_not_issued({ reference: order.reference });
    // A guarded update, which reads the invoice as committed whatever this transaction read before.
    const credited = await tx.manager
      .createQueryBuilder()
      .update(SalesDocument)
      .set({ credited: () => 'credited + :amount' })
      .where('id = :id AND credited + :amount <= amount', { id: invoice.id, amount: request.amount })
      .execute();
    if (!credited.affected) {
      const { amount, credited: given } = await tx.manager.findOneByOrFail(SalesDocument, { id: invoice.id });
      const money = await this.currencies.formatter(order.currency, 'en');
      throw invoicesErrors.credit_exceeds_invoice({ available: money(Math.max(0, amount - given)) });
    }
    return this.issue(
      tx,
      'credit_note',
      order,
      {
        invoiceId: invoice.id,
        refundId: request.refundId,
        amount: request.amount,
        lines: request.lines?.length ? request.lines : null,
      },
      true,
    );
  }

  invoiceOf(orderId: number): Promise<SalesDocument | null> {
    return this.dataSource.getRepository(SalesDocument).findOneBy({ invoicedOrderId: orderId });
  }

  byId(id: number): Promise<SalesDocument | null> {
    return this.dataSource.getRepository(SalesDocument).findOneBy({ id });
  }

  orderOf(document: SalesDocument): Promise<Order> {
    return this.dataSource.getRepository(Order).findOneByOrFail({ id: document.orderId });
  }

  /** The order's invoice and credit notes, in the order they were issued. */
  documentsOf(orderId: number): Promise<SalesDocument[]> {
    return this.dataSource.getRepository(SalesDocument).find({ where: { orderId }, order: { id: 'ASC' } });
  }

  /**
   * The invoice a buyer or staff may download: the one issued, or for an order already in an invoiced status that
   * has none (placed before invoices were kept as documents), one issued now, without an e-mail (whoever asked is
   * downloading it); null while none is due.
   */
  async invoiceToServe(order: Order): Promise<SalesDocument | null> {
    const invoice = await this.invoiceOf(order.id);
    if (invoice || !this.invoicedStatuses().includes(order.status)) return invoice;
    return this.runner.run((tx) => this.invoiceOnce(tx, order.id, false));
  }

  /** The order's credit note with this id; null when it is not one of the order's. */
  creditNoteOf(orderId: number, id: number): Promise<SalesDocument | null> {
    return this.dataSource.getRepository(SalesDocument).findOneBy({ id, orderId, kind: 'credit_note' });
  }

  /** The credit note a refund issued; null when it issued none (an order refunded before it had an invoice). */
  creditNoteOfRefund(refundId: number): Promise<SalesDocument | null> {
    return this.dataSource.getRepository(SalesDocument).findOneBy({ refundId, kind: 'credit_note' });
  }

  /** The document as a file to download: its name and its stored PDF. */
  async file(document: SalesDocument): Promise<{ filename: string; pdf: Buffer }> {
    return { filename: documentFilename(document), pdf: await this.pdf(document) };
  }

  /** The document's PDF, byte for byte the one stored; drawn and stored first if it has none yet. */
  async pdf(document: SalesDocument): Promise<Buffer> {
    if (document.pdfSize === null) await this.drawAndStore(document);
    const parts = await this.dataSource
      .getRepository(SalesDocumentPdfPart)
      .find({ where: { documentId: document.id }, order: { part: 'ASC' } });
    return Buffer.concat(parts.map((part) => Buffer.from(part.data)));
  }

  /**
   * Draws the PDF and stores it unless another request stored one meanwhile: the guarded update lets one writer
   * through, and everyone serves what it wrote.
   */
  private async drawAndStore(document: SalesDocument): Promise<void> {
    const order = await this.orderOf(document);
    const invoice = document.invoiceId ? await this.byId(document.invoiceId) : null;
    const pdf = await this.pdfs.render(document, order, invoice);
    await this.runner.run(async ({ manager }) => {
      const claimed = await manager
        .createQueryBuilder()
        .update(SalesDocument)
        .set({ pdfSize: pdf.length })
        .where({ id: document.id, pdfSize: IsNull() })
        .execute();
      if (!claimed.affected) return;
      const parts = [];
      for (let offset = 0, part = 0; offset < pdf.length; offset += PDF_PART_BYTES, part++) {
        parts.push({ documentId: document.id, part, data: pdf.subarray(offset, offset + PDF_PART_BYTES) });
      }
      for (const part of parts) await insertRows(manager, SalesDocumentPdfPart, part);
    });
  }

  private async invoiceWhenDue(tx: Tx, change: OrderStatusChange): Promise<void> {
    const due = this.invoicedStatuses();
    if (due.includes(change.to) && !due.includes(change.from)) await this.issueInvoice(tx, change.orderId);
  }

  private async lockedOrder(tx: Tx, orderId: number): Promise<Order> {
    const order = await tx.manager.findOne(Order, { where: { id: orderId }, ...writeLock(tx.manager) });
    if (!order) throw AppError.notFound('Order not found');
    return order;
  }

  private async issue(
    tx: Tx,
    kind: SalesDocumentKind,
    order: Order,
    values: Partial<SalesDocument> & { amount: number },
    announce: boolean,
  ): Promise<SalesDocument> {
    const seller = await this.sellerNow(order);
    const year = Number(new Intl.DateTimeFormat('en', { timeZone: seller.timeZone, year: 'numeric' }).format());
    const sequence = await this.nextInSequence(tx, kind, year);
    const format = this.settings.get(kind === 'invoice' ? 'salesInvoiceNumberFormat' : 'salesCreditNoteNumberFormat');
    const document = await tx.manager.save(
      tx.manager.create(SalesDocument, {
        invoicedOrderId: null,
        invoiceId: null,
        refundId: null,
        lines: null,
        ...values,
        kind,
        number: formatDocumentNumber(format, year, sequence),
        year,
        sequence,
        orderId: order.id,
        currency: order.currency,
        seller,
        pdfSize: null,
      }),
    );
    if (announce) for (const subscriber of this.issuedSubscribers) await subscriber(tx, document, order);
    return document;
  }

  /**
   * The next number of the series in `year`: one statement creates the year's counter at 1 or adds one to it, and
   * the row stays locked until the transaction ends. Concurrent issuers (other instances too) wait for it, and a
   * rolled-back issue gives its number back, so the sequence has no gap and no number twice.
   */
  private async nextInSequence(tx: Tx, series: SalesDocumentKind, year: number): Promise<number> {
    const { manager } = tx;
    const table = manager.getRepository(SalesDocumentCounter).metadata.tableName;
    if (isMysqlFamily(manager.connection.options)) {
      await manager.query(
        `INSERT INTO \`${table}\` (\`series\`, \`year\`, \`last\`) VALUES (?, ?, 1)
         ON DUPLICATE KEY UPDATE \`last\` = \`last\` + 1, \`dateUpdated\` = CURRENT_TIMESTAMP(6)`,
        [series, year],
      );
    } else {
      await manager.query(
        `INSERT INTO "${table}" ("series", "year", "last") VALUES (?, ?, 1)
         ON CONFLICT ("series", "year") DO UPDATE SET "last" = "last" + 1, "dateUpdated" = datetime('now')`,
        [series, year],
      );
    }
    const counter = await manager.findOneByOrFail(SalesDocumentCounter, { series, year });
    return counter.last;
  }

  /** The seller as the document will state them, from today's settings and the order's store. */
  private async sellerNow(order: Order): Promise<SellerSnapshot> {
    const store = await this.stores.byId(order.storeId);
    const holder = this.settings.get('salesBankTransferHolder');
    const iban = this.settings.get('salesBankTransferIban');
    const bic = this.settings.get('salesBankTransferBic');
    const vatId = this.settings.get('salesSellerVatId');
    const email = this.settings.get('salesSellerEmail');
    const phone = this.settings.get('salesSellerPhone');
    const address = this.settings
      .get('salesSellerAddress')
      .split(',')
      .map((line) => line.trim());
    // The registered name (else the bank account's holder) first; the store's name follows when it differs.
    const legalName = this.settings.get('storeLegalName') || holder || store.name;
    const lines = [
      legalName,
      legalName !== store.name ? store.name : null,
      ...address,
      countryName(store.country, store.language),
      vatId ? `VAT ID: ${vatId}` : null,
      email ? `E-mail: ${email}` : null,
      phone ? `Phone: ${phone}` : null,
      iban ? `IBAN: ${iban}` : null,
      bic ? `BIC: ${bic}` : null,
    ].filter((line): line is string => Boolean(line));
    return { lines, taxRate: this.settings.get('salesTaxRate'), timeZone: this.settings.get('salesTimezone') };
  }
}

/** A credit note's request as a refund states it: a positive amount, and lines (if any) that add up to it. */
function checkCreditNote({ amount, lines }: CreditNoteRequest): void {
  if (!Number.isSafeInteger(amount) || amount < 1)
    throw AppError.invalid({ amount: ['must be a positive amount in minor units'] });
  if (!lines?.length) return;
  const wellFormed = lines.every(
    (line) =>
      line.name.trim() !== '' && Number.isSafeInteger(line.qty) && line.qty > 0 && Number.isSafeInteger(line.amount),
  );
  if (!wellFormed || lines.reduce((sum, line) => sum + line.amount, 0) !== amount)
    throw AppError.invalid({ lines: ['must each have a name, a quantity and an amount, adding up to the amount'] });
}
