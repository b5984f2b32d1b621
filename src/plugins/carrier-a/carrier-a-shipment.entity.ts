import { Column, Entity, Index } from 'typeorm';
import { BaseRow } from '../../plugin-api/entity';

/** A parcel registered with carrier A for an order. */
@Entity('carrier_a_shipments')
@Index(['orderId'])
export class CarrierAShipment extends BaseRow {
  @Column({ type: 'integer' })
  orderId: number;

  /** The carrier's id of the parcel, used in its API paths. */
  @Column({ type: 'varchar', length: 64, unique: true })
  parcelId: string;

  @Column({ type: 'varchar', length: 32 })
  parcelNumber: string;

  /** The carrier's status (`CREATED`, `IN_TRANSIT`, …), refreshed by tracking. */
  @Column({ type: 'varchar', length: 32 })
  status: string;

  /** `CLASSIC` or `PARCELSHOP`. */
  @Column({ type: 'varchar', length: 16 })
  service: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  pickupPointId: string | null;

  /** Cash on delivery in minor units of the order currency; null when the order was paid. */
  @Column({ type: 'integer', nullable: true })
  codAmount: number | null;

  /** Where the label PDF is stored; null until it has been fetched. */
  @Column({ type: 'varchar', length: 500, nullable: true })
  labelFilePath: string | null;

  /** The parcel payload as sent. */
  @Column({ type: 'simple-json' })
  payload: Record<string, unknown>;

  /** The carrier's answer to the create call. */
  @Column({ type: 'simple-json' })
  response: Record<string, unknown>;
}
