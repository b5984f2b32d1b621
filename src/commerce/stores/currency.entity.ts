import { Column, Entity } from 'typeorm';
import { BaseRow, numeric } from '../../database/base.entity';

/** A currency a shopper can pay in, with its rate against the store's base currency. */
@Entity('currencies')
export class Currency extends BaseRow {
  @Column({ type: 'varchar', length: 3, unique: true })
  code: string;

  @Column({ type: 'varchar', length: 8 })
  symbol: string;

  /** Digits after the decimal point: 2 for EUR, 0 for HUF. Minor units are 10^-decimals. */
  @Column({ type: 'integer', default: 2 })
  decimals: number;

  /** Units of this currency for one unit of the base currency. */
  @Column({ type: 'decimal', precision: 18, scale: 8, transformer: numeric })
  rate: number;

  @Column({ type: 'boolean', default: true })
  enabled: boolean;
}
