import { Column, Entity, Index } from 'typeorm';
import { BaseRow } from '../../database/base.entity';

/**
 * The last number given in one sequence (a kind of document in one year). Taking the next one updates this row in
 * the issuing transaction, so the row lock orders concurrent issues and a rollback gives the number back.
 */
@Entity('sales_document_counters')
@Index(['series', 'year'], { unique: true })
export class SalesDocumentCounter extends BaseRow {
  @Column({ type: 'varchar', length: 16 })
  series: string;

  @Column({ type: 'integer' })
  year: number;

  @Column({ type: 'integer' })
  last: number;
}
