import { Injectable, Logger } from '@nestjs/common';
import { DataSource, IsNull, LessThanOrEqual, Not } from 'typeorm';
import { PeriodicJob, PeriodicJobs } from '../../jobs/periodic-job';
import { ShipmentCarrierRegistry } from './shipment-carrier.registry';
import { Shipment } from './shipment.entity';
import { ShipmentsService } from './shipments.service';

const REFRESH_EVERY_MS = 10 * 60 * 1000;
/** Parcels asked after per run: a backlog (an outage of the carrier) is worked off over several runs. */
export const TRACKING_BATCH = 50;

/**
 * Asks the carriers where the parcels not yet delivered are, through their plugins' `ShipmentCarrier`s: one run per
 * 10-minute slot however many instances run, at most `TRACKING_BATCH` parcels each, the longest-waiting first. Each
 * parcel's next check is put off further the less its checks bring (`nextTrackingCheck`), so a parcel that sits
 * still, or a carrier that fails, costs fewer and fewer calls.
 */
@Injectable()
export class ShipmentTracking {
  private readonly logger = new Logger('shipments:tracking');
  private readonly periodic: PeriodicJob;

  constructor(
    private readonly dataSource: DataSource,
    private readonly shipments: ShipmentsService,
    private readonly carriers: ShipmentCarrierRegistry,
    periodicJobs: PeriodicJobs,
  ) {
    this.periodic = periodicJobs.define({
      name: 'shipments.tracking',
      everyMs: REFRESH_EVERY_MS,
      due: () => this.dataSource.getRepository(Shipment).exists({ where: dueNow(Date.now()) }),
      run: () => this.refreshDue(),
    });
  }

  /** Enqueues the current slot's run, once per slot whoever asks, while a parcel is due. */
  tick(): Promise<void> {
    return this.periodic.tick();
  }

  /** Checks the parcels due now; how many changed. */
  async refreshDue(now = Date.now()): Promise<number> {
    const due = await this.dataSource.getRepository(Shipment).find({
      where: dueNow(now),
      order: { trackingCheckAt: 'ASC', id: 'ASC' },
      take: TRACKING_BATCH,
    });
    let changed = 0;
    for (const shipment of due) {
      const carrier = this.carriers.get(shipment.carrier);
      try {
        if (!carrier) throw new Error(`no carrier ${shipment.carrier} is installed`);
        if (await this.shipments.recordTracking(shipment.id, await carrier.track(shipment.externalId!), now)) changed++;
      } catch (error) {
        this.logger.warn(`parcel ${shipment.trackingNumber}: tracking failed: ${(error as Error).message}`);
        await this.shipments.trackingFailed(shipment, now);
      }
    }
    return changed;
  }
}

/** Carriers' parcels whose next check has come (a final one has none). */
function dueNow(now: number) {
  return { trackingCheckAt: LessThanOrEqual(now), externalId: Not(IsNull()) };
}
