import { Column, Entity, Index } from 'typeorm';
import { BaseRow } from '../../database/base.entity';
import type { TaxClass } from './tax-class';

/**
 * A country's VAT rate for a tax class from a day on: the row with the latest `validFrom` not after the order's day
 * is in force, so a rate change is a row added ahead of its date.
 */
@Entity('vat_rates')
@Index(['country', 'taxClass', 'validFrom'], { unique: true })
export class VatRate extends BaseRow {
  /** ISO 3166 alpha-2 (Greece is GR here, as in addresses). */
  @Column({ type: 'varchar', length: 2 })
  country: string;

  @Column({ type: 'varchar', length: 16 })
  taxClass: TaxClass;

  /** Hundredths of a percent: 1900 = 19 %. */
  @Column({ type: 'integer' })
  rate: number;

  /** The first day (YYYY-MM-DD, in the shop's time zone) the rate applies. */
  @Column({ type: 'varchar', length: 10 })
  validFrom: string;

  /**
   * `seed`: from the table shipped with the migration; `staff`: entered by staff. The shop's own standard rate comes
   * from `salesTaxRate` until staff enter one (a seeded row would silently change what domestic orders cost).
   */
  @Column({ type: 'varchar', length: 8, default: 'staff' })
  source: 'seed' | 'staff';
}
