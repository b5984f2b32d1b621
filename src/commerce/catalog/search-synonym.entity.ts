import { Column, Entity } from 'typeorm';
import { BaseRow } from '../../database/base.entity';

/** Words a shopper may use for the same thing ("sofa, couch, settee"), set in the CP: a search for one finds all. */
@Entity('search_synonyms')
export class SearchSynonym extends BaseRow {
  @Column({ type: 'integer' })
  storeId: number;

  /** The group's words, lower-cased, two or more. */
  @Column({ type: 'simple-json' })
  words: string[];
}
