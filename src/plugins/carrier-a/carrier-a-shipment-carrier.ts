import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  CarrierTracking,
  commonErrors,
  ShipmentCarrier,
  ShipmentsService,
  ShipmentStatus,
  TransactionRunner,
} from '../../plugin-api';
import { CarrierAConfigurationError } from './carrier-a.errors';
import { CarrierAClient } from './carrier-a.client';
import { CarrierAShipment } from './carrier-a-shipment.entity';
import { CARRIER_A, CarrierAShipments, TrackingStep } from './carrier-a-shipments.service';

/** Carrier A's statuses in the shop's words; one it does not list here means it has the parcel. */
const SHIPMENT_STATUS: Record<string, ShipmentStatus> = {
  CREATED: 'created',
  DELIVERED: 'delivered',
  // Waiting at the ParcelShop: carrier A's last word on such a parcel.
  DELIVERED_TO_PARCELSHOP: 'delivered',
  CANCELED: 'canceled',
};

/** Carrier A's parcels as the core's tracking job and the CP order page reach them. */
@Injectable()
export class CarrierAShipmentCarrier implements ShipmentCarrier {
  readonly carrier = CARRIER_A;

  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly client: CarrierAClient,
    private readonly shipments: CarrierAShipments,
    private readonly reports: ShipmentsService,
  ) {}

  /** Asks the carrier (which keeps the plugin's own record current too) and gives its timeline oldest first. */
  async track(parcelId: string): Promise<CarrierTracking> {
    const shipment = await this.parcel(parcelId);
    return trackingOf(shipment, await this.shipments.refreshTracking(shipment));
  }

  /** The plugin's own refresh (its CP shipment page): the parcel's timeline, and the core's shipment told too. */
  async refresh(shipment: CarrierAShipment): Promise<TrackingStep[]> {
    const steps = await this.shipments.refreshTracking(shipment);
    await this.reports.reportTracking(CARRIER_A, shipment.parcelId, trackingOf(shipment, steps));
    return steps;
  }

  /** Cancels the parcel with the carrier, which refuses once it has picked it up (a 502 with its words). */
  async cancel(parcelId: string): Promise<void> {
    const shipment = await this.parcel(parcelId);
    await this.client.cancelParcel(parcelId).catch((error: unknown) => {
      if (error instanceof CarrierAConfigurationError) throw commonErrors.upstream_failed({ failure: error.message });
      throw error;
    });
    await this.runner.run(({ manager }) => manager.update(CarrierAShipment, shipment.id, { status: 'CANCELED' }));
  }

  private async parcel(parcelId: string): Promise<CarrierAShipment> {
    const shipment = await this.dataSource.getRepository(CarrierAShipment).findOneBy({ parcelId });
    if (!shipment) throw new CarrierAConfigurationError(`Carrier A: there is no parcel ${parcelId}`);
    return shipment;
  }
}

/** A refreshed parcel in the core's words. */
function trackingOf(shipment: CarrierAShipment, steps: TrackingStep[]): CarrierTracking {
  return {
    status: SHIPMENT_STATUS[shipment.status] ?? 'in_transit',
    events: steps.map(({ status, ...step }) => ({ code: status, ...step })),
  };
}
