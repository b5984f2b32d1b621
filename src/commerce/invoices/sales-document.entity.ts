import { Column, Entity, Index } from 'typeorm';
import { BaseRow } from '../../database/base.entity';

/** The two kinds of sales documents, each numbered in its own sequence. */
export type SalesDocumentKind = 'invoice' | 'credit_note';

/** What a document states about the seller, copied at issue: later changes of the shop's details do not reach it. */
export interface SellerSnapshot {
  /** The seller block, line by line (name, address, country, VAT id, bank account). */
  lines: string[];
  /** The shop's VAT rate at issue, the hint for reading the rate back from the order's amounts. */
  taxRate: number;
  /** The shop's time zone at issue: the day the document is dated. */
  timeZone: string;
}

/**
 * One line of a credit note: what is credited, how many, for how much in all (minor units), and for a refunded order
 * line the VAT rate it was charged (hundredths of a percent; absent for other amounts and older notes).
 */
export interface CreditNoteLine {
  name: string;
  qty: number;
  amount: number;
  vatRate?: number | null;
}

/**
 * An issued invoice or credit note: its number from the gap-free sequence of its kind and year, the order it
 * belongs to, the seller as they were at issue, and (once drawn) its PDF, kept in `sales_document_pdf_parts`.
 */
@Entity('sales_documents')
@Index(['kind', 'number'], { unique: true })
@Index(['orderId'])
export class SalesDocument extends BaseRow {
  @Column({ type: 'varchar', length: 16 })
  kind: SalesDocumentKind;

  @Column({ type: 'varchar', length: 64 })
  number: string;

  /** The year the number belongs to and its place in that year's sequence. */
  @Column({ type: 'integer' })
  year: number;

  @Column({ type: 'integer' })
  sequence: number;

  @Column({ type: 'integer' })
  orderId: number;

  /** An invoice's order once more: the unique key that lets an order have one invoice (null for credit notes). */
  @Column({ type: 'integer', nullable: true, unique: true })
  invoicedOrderId: number | null;

  /** A credit note's invoice. */
  @Column({ type: 'integer', nullable: true })
  invoiceId: number | null;

  /** The refund a credit note documents: one credit note per refund. */
  @Column({ type: 'integer', nullable: true, unique: true })
  refundId: number | null;

  /** The amount the document states, in minor units of `currency`: the invoice total, or what is credited. */
  @Column({ type: 'integer' })
  amount: number;

  @Column({ type: 'varchar', length: 3 })
  currency: string;

  /** An invoice's: what its credit notes have given back so far, never more than `amount` (minor units). */
  @Column({ type: 'integer', default: 0 })
  credited: number;

  @Column({ type: 'json', nullable: true })
  lines: CreditNoteLine[] | null;

  @Column({ type: 'json' })
  seller: SellerSnapshot;

  /** Bytes of the stored PDF; null until it is drawn (at the first download or e-mail). */
  @Column({ type: 'integer', nullable: true })
  pdfSize: number | null;
}
