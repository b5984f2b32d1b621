import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Labels created (or possibly created, when the carrier's answer was lost) in a calendar month: the count
 * the label limit is checked against, kept as one row so it can be taken atomically under concurrency.
 */
@Entity('carrier_a_label_months')
export class CarrierALabelMonth {
  /** `YYYY-MM`, UTC. */
  @PrimaryColumn({ type: 'varchar', length: 7 })
  month: string;

  @Column({ type: 'integer', default: 0 })
  labels: number;
}
