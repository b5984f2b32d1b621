import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  defineJob,
  Job,
  JobGaveUp,
  JobQueue,
  Order,
  OrderStatusChange,
  OrderStatusService,
  parseShippingMethodId,
  SettingsService,
  TransactionRunner,
  Tx,
  writeLock,
} from '../../plugin-api';
import { CarrierAConfigurationError } from './carrier-a.errors';
import { CarrierAAutoShipment } from './carrier-a-auto-shipment.entity';
import { AutoShipmentState, autoShipmentLifecycle } from './carrier-a-auto-shipment-lifecycle';
import { CarrierAShipment } from './carrier-a-shipment.entity';
import { CarrierAShipments, LabelLimitReached } from './carrier-a-shipments.service';

export const AUTO_SHIPMENT_JOB = defineJob<AutoShipmentPayload>('carrier-a.auto-shipment');

interface AutoShipmentPayload {
  orderId: number;
}

/** One job per order: a status reached again queues nothing more. */
const autoShipmentJobKey = (orderId: number) => `${AUTO_SHIPMENT_JOB.name}:${orderId}`;

/** Another worker took the order's parcel between the claim and the call. */
class AlreadyTaken extends Error {}

/**
 * Creates an order's parcel when it reaches `carrier-a.autoCreateStatus`. The status
 * change queues one job per order in its own transaction; the job's row in `carrier_a_auto_shipments`
 * (unique per order, changed under a row lock) records how far it got, so retries, a crash mid-call and
 * several app instances still make one parcel at most.
 */
@Injectable()
export class CarrierAAutoShipments implements OnModuleInit {
  private readonly logger = new Logger('carrier-a:auto-shipment');

  constructor(
    private readonly dataSource: DataSource,
    private readonly orderStatus: OrderStatusService,
    private readonly queue: JobQueue,
    private readonly runner: TransactionRunner,
    private readonly shipments: CarrierAShipments,
    private readonly settings: SettingsService,
  ) {}

  onModuleInit(): void {
    this.orderStatus.subscribe((tx, change) => this.queueFor(tx, change));
    this.queue.register(AUTO_SHIPMENT_JOB, (payload, job) => this.run(payload.orderId, job));
  }

  /**
   * Gives an order's failed automatic parcel a fresh set of attempts (the job's, as the jobs screen does); false
   * when it has not failed (it is still trying, or it stopped for a reason a retry cannot change).
   */
  async retry(orderId: number): Promise<boolean> {
    const [row, job] = await Promise.all([
      this.dataSource.getRepository(CarrierAAutoShipment).findOneBy({ orderId }),
      this.dataSource.getRepository(Job).findOneBy({ jobKey: autoShipmentJobKey(orderId) }),
    ]);
    if (row?.state !== 'failed' || !job) return false;
    return this.queue.retryFailed(job.id);
  }

  private async queueFor(tx: Tx, change: OrderStatusChange): Promise<void> {
    const status = this.settings.get('carrier-a.autoCreateStatus');
    if (!status || change.to !== status) return;
    const order = await tx.manager.findOne(Order, {
      where: { id: change.orderId },
      select: { id: true, shippingMethod: true },
    });
    if (parseShippingMethodId(order?.shippingMethod)?.type !== 'carrier-a') return;
    await this.queue.enqueue(
      tx,
      AUTO_SHIPMENT_JOB,
      { orderId: change.orderId },
      { key: autoShipmentJobKey(change.orderId) },
    );
  }

  private async run(orderId: number, job: Job): Promise<void> {
    const claim = await this.claim(orderId);
    if (claim.stop) throw new JobGaveUp(claim.stop);
    if (!claim.call) return;
    try {
      const shipment = await this.shipments.createParcel(orderId, {
        withinLabelLimit: true,
        beforeCall: (tx) => this.markCalling(tx, orderId),
      });
      await this.record(orderId, 'created', null, shipment.id);
      this.logger.log(`order ${orderId}: parcel ${shipment.parcelNumber} created`);
    } catch (error) {
      await this.recordFailure(orderId, error as Error, job.attempts >= job.maxAttempts);
    }
  }

  /**
   * Whether the carrier should be asked now (`call`), or why automation stops for staff (`stop`). Settles
   * what an earlier attempt left behind: a parcel that exists (made by that attempt before a crash, or by
   * staff) ends automation; a call that never reported back, without a parcel, cannot be told apart from
   * one the carrier made, so automation stops there.
   */
  private async claim(orderId: number): Promise<{ call: boolean; stop?: string }> {
    return this.runner.run(async (tx) => {
      const row = await this.lockRow(tx, orderId);
      if (autoShipmentLifecycle.isFinal(row.state)) return { call: false };
      if (row.state === 'unconfirmed') return { call: false, stop: row.lastError ?? 'the parcel is unconfirmed' };
      const made = await tx.manager.findOne(CarrierAShipment, { where: { orderId }, order: { id: 'ASC' } });
      if (made) {
        await tx.manager.update(CarrierAAutoShipment, row.id, {
          state: 'created',
          shipmentId: made.id,
          lastError: null,
        });
        return { call: false };
      }
      if (row.state !== 'calling') return { call: true };
      const lastError = 'An earlier attempt stopped while calling the carrier: check whether it made a parcel';
      await tx.manager.update(CarrierAAutoShipment, row.id, { state: 'unconfirmed', lastError });
      return { call: false, stop: lastError };
    });
  }

  private async markCalling(tx: Tx, orderId: number): Promise<void> {
    const row = await this.lockRow(tx, orderId);
    if (!autoShipmentLifecycle.guard('calling').includes(row.state)) throw new AlreadyTaken();
    await tx.manager.update(CarrierAAutoShipment, row.id, { state: 'calling' });
  }

  private async recordFailure(orderId: number, error: Error, lastAttempt: boolean): Promise<void> {
    if (error instanceof AlreadyTaken) return;
    if (error instanceof LabelLimitReached) {
      await this.record(orderId, 'skipped', error.message);
      this.logger.warn(`order ${orderId}: no parcel, ${error.message}`);
      return;
    }
    if (error instanceof CarrierAConfigurationError && error.outcomeUnknown) {
      await this.record(orderId, 'unconfirmed', `${error.message} (the carrier may have created a parcel)`);
      throw new JobGaveUp(error.message);
    }
    await this.record(orderId, lastAttempt ? 'failed' : 'pending', error.message);
    throw error;
  }

  private async record(orderId: number, state: AutoShipmentState, lastError: string | null, shipmentId?: number) {
    await this.runner.run(({ manager }) =>
      manager.update(CarrierAAutoShipment, { orderId }, { state, lastError, ...(shipmentId ? { shipmentId } : {}) }),
    );
  }

  /** The order's row, created on first use, under a write lock until the transaction ends. */
  private async lockRow(tx: Tx, orderId: number): Promise<CarrierAAutoShipment> {
    await tx.manager
      .createQueryBuilder()
      .insert()
      .into(CarrierAAutoShipment)
      .values({ orderId, state: 'pending' })
      .orIgnore()
      .updateEntity(false)
      .execute();
    return tx.manager.findOneOrFail(CarrierAAutoShipment, { where: { orderId }, ...writeLock(tx.manager) });
  }
}
