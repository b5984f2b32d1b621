import { Column, Entity, Index } from 'typeorm';
import { BaseRow, EpochMsColumn } from '../../database/base.entity';
import { ShipmentStatus } from './shipment-lifecycle';

/** One step of a shipment's tracking timeline, oldest first, in the carrier's words. */
export interface TrackingEvent {
  /** The carrier's own code (`PICKED_UP`, …). */
  code: string;
  description: string;
  location: string | null;
  /** ISO 8601, as the carrier gave it; null when it gave none. */
  timestamp: string | null;
}

/** The carrier a shipment made by staff in the CP is recorded under: nothing tracks it. */
export const MANUAL_CARRIER = 'manual';

/**
 * A parcel on its way to the shopper: a carrier plugin's parcel (reported through `ShipmentsService.reportParcel`),
 * or a manual one staff record with a carrier's name and tracking number. A carrier's parcel is recorded once:
 * `(carrier, externalId)` is unique (a manual one has no external id).
 */
@Entity('shipments')
@Index(['orderId'])
@Index(['carrier', 'externalId'], { unique: true })
@Index(['trackingCheckAt'])
export class Shipment extends BaseRow {
  @Column({ type: 'integer' })
  orderId: number;

  /** The carrier plugin's key (`carrier-a`), or `manual`. */
  @Column({ type: 'varchar', length: 64 })
  carrier: string;

  /** As the shopper reads it, e.g. `Carrier A`, or what staff typed. */
  @Column({ type: 'varchar', length: 191 })
  carrierName: string;

  /** The carrier's id of the parcel, in its API paths; null for a manual shipment. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  externalId: string | null;

  @Column({ type: 'varchar', length: 64 })
  trackingNumber: string;

  /** The carrier's public tracking page for this parcel (http or https), when there is one. */
  @Column({ type: 'varchar', length: 500, nullable: true })
  trackingUrl: string | null;

  @Column({ type: 'varchar', length: 16 })
  status: ShipmentStatus;

  @Column({ type: 'simple-json' })
  events: TrackingEvent[];

  /** When the tracking job asks the carrier next; null when nothing will (manual, delivered, canceled). */
  @EpochMsColumn({ nullable: true })
  trackingCheckAt: number | null;

  /** Tracking checks in a row that brought nothing new (or failed): how far the next one is put off. */
  @Column({ type: 'integer', default: 0 })
  trackingMisses: number;

  @EpochMsColumn({ nullable: true })
  deliveredAt: number | null;

  /** Who recorded it: `carrier-a`, `cp:<email>`. */
  @Column({ type: 'varchar', length: 191 })
  actor: string;
}
