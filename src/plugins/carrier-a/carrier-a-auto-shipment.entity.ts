import { Column, Entity } from 'typeorm';
import { BaseRow } from '../../database/base.entity';

/**
 * - `pending`: queued, or waiting for a retry after the carrier refused or was unreachable;
 * - `calling`: the parcel request is on its way (a crash here leaves it, and the next attempt checks);
 * - `created`: the parcel exists (`shipmentId`);
 * - `skipped`: the monthly label limit was reached;
 * - `unconfirmed`: the carrier may or may not have created a parcel, so automation stops (staff decide);
 * - `failed`: the carrier kept refusing until the job's attempts ran out.
 */
export type AutoShipmentState = 'pending' | 'calling' | 'created' | 'skipped' | 'unconfirmed' | 'failed';

/** The automatic parcel of one order: its unique order id is what makes automation create at most one. */
@Entity('carrier_a_auto_shipments')
export class CarrierAAutoShipment extends BaseRow {
  @Column({ type: 'integer', unique: true })
  orderId: number;

  @Column({ type: 'varchar', length: 16 })
  state: AutoShipmentState;

  @Column({ type: 'integer', nullable: true })
  shipmentId: number | null;

  @Column({ type: 'text', nullable: true })
  lastError: string | null;
}
