import { Column, Entity, Index } from 'typeorm';
import { BaseRow, EpochMsColumn } from '../../database/base.entity';

/** A search that found nothing, counted per normalised term, for the CP's "searches without results". */
@Entity('search_misses')
@Index(['storeId', 'term'], { unique: true })
@Index(['storeId', 'lastSearchedAt'])
export class SearchMiss extends BaseRow {
  @Column({ type: 'integer' })
  storeId: number;

  /** The query's words joined by one space (search-terms.ts `searchWords`), at most 100 characters. */
  @Column({ type: 'varchar', length: 100 })
  term: string;

  @Column({ type: 'integer', default: 1 })
  searches: number;

  @EpochMsColumn()
  lastSearchedAt: number;
}
