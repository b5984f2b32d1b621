import { Injectable } from '@nestjs/common';
import { ShipmentStatus } from './shipment-lifecycle';
import { TrackingEvent } from './shipment.entity';

/** Where a carrier says the parcel is: its status in the shop's words, and its timeline oldest first. */
export interface CarrierTracking {
  status: ShipmentStatus;
  events: TrackingEvent[];
}

/**
 * A carrier plugin's side of the shipments it reports (`ShipmentsService.reportParcel`): the tracking job asks it
 * where a parcel is, and staff may cancel a parcel through it. A failure of the carrier is thrown as an `AppError`
 * (`upstream_failed` for a 502), its message fit for staff.
 */
export interface ShipmentCarrier {
  /** The `carrier` its parcels are reported under, e.g. `carrier-a`. */
  readonly carrier: string;
  track(externalId: string): Promise<CarrierTracking>;
  /** Only where the carrier's API allows it (before the parcel is picked up). */
  cancel?(externalId: string): Promise<void>;
}

/** The carriers plugins declared, by the key their parcels are reported under. */
@Injectable()
export class ShipmentCarrierRegistry {
  private readonly carriers = new Map<string, ShipmentCarrier>();

  register(carrier: ShipmentCarrier): void {
    if (this.carriers.has(carrier.carrier)) throw new Error(`Shipment carrier ${carrier.carrier} is declared twice`);
    this.carriers.set(carrier.carrier, carrier);
  }

  get(carrier: string): ShipmentCarrier | undefined {
    return this.carriers.get(carrier);
  }
}
