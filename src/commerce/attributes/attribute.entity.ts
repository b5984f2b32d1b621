import { Column, Entity, Index } from 'typeorm';
import { BaseRow } from '../../database/base.entity';

/**
 * A property products are filtered by (brand, colour, size, material, any the shop defines). `code` names it in
 * imports, variant options and the filter URL (`?f.colour=red`).
 */
@Entity('attributes')
@Index(['storeId', 'code'], { unique: true })
export class Attribute extends BaseRow {
  @Column({ type: 'integer' })
  storeId: number;

  /** Lowercase ASCII letters, digits and `-`; a variant option of the same code feeds it. */
  @Column({ type: 'varchar', length: 64 })
  code: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  /** Order of the filter groups on listing pages, ascending. */
  @Column({ type: 'integer', default: 0 })
  position: number;

  /** Offered as a filter on listing, category and search pages. */
  @Column({ type: 'boolean', default: true })
  filterable: boolean;
}
