import { Column, Entity, Index } from 'typeorm';
import { BaseRow } from '../../database/base.entity';

/** Bytes per part: under the 64 KB a MySQL BLOB holds, so one column type serves both databases. */
export const PDF_PART_BYTES = 60_000;

/** A stored document's PDF, in parts of at most `PDF_PART_BYTES`, in order of `part`. */
@Entity('sales_document_pdf_parts')
@Index(['documentId', 'part'], { unique: true })
export class SalesDocumentPdfPart extends BaseRow {
  @Column({ type: 'integer' })
  documentId: number;

  @Column({ type: 'integer' })
  part: number;

  @Column({ type: 'blob' })
  data: Buffer;
}
