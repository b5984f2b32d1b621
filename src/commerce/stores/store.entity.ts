import { Column, Entity } from 'typeorm';
import { BaseRow } from '../../database/base.entity';

/** A store view: its language, currency and country. Products belong to one store. */
@Entity('stores')
export class Store extends BaseRow {
  @Column({ type: 'varchar', length: 64, unique: true })
  handle: string;

  @Column({ type: 'varchar', length: 191 })
  name: string;

  @Column({ type: 'varchar', length: 8 })
  language: string;

  @Column({ type: 'varchar', length: 3 })
  baseCurrency: string;

  @Column({ type: 'varchar', length: 2 })
  country: string;

  @Column({ type: 'boolean', default: false })
  isDefault: boolean;
}
