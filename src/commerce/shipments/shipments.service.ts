import { Injectable } from '@nestjs/common';
import { DataSource, In, Not } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { SettingsService } from '../../config/settings.service';
import { writeLock } from '../../database/locking';
import { TransactionRunner, Tx } from '../../database/transaction-runner';
import { orderLifecycle, OrderStatus } from '../orders/order-status.machine';
import { OrderStatusService } from '../orders/order-status.service';
import { Order } from '../orders/order.entity';
import { CarrierTracking, ShipmentCarrierRegistry } from './shipment-carrier.registry';
import { shipmentLifecycle, ShipmentStatus } from './shipment-lifecycle';
import { MANUAL_CARRIER, Shipment, TrackingEvent } from './shipment.entity';
import { shipmentsErrors } from './shipments-errors';
import { ShippedMail } from './shipped.mail';

/** The first tracking check waits this long after a parcel is made; each check that brings nothing doubles it… */
const FIRST_CHECK_MS = 30 * 60 * 1000;
/** …up to this: a parcel lying at a depot for days is still looked at twice a day. */
const LONGEST_CHECK_MS = 12 * 60 * 60 * 1000;

/** When the tracking job should look at a parcel again after `misses` checks in a row that brought nothing. */
export function nextTrackingCheck(now: number, misses: number): number {
  return now + Math.min(FIRST_CHECK_MS * 2 ** Math.min(misses, 16), LONGEST_CHECK_MS);
}

/** What staff record of a manual shipment: it left, it arrived, or it was called off. */
type ManualStep = Exclude<ShipmentStatus, 'created'>;

/**
 * The words of a manual shipment's steps in its timeline, as the CP shows them; the shopper's pages say them in
 * their language (`order.shipments.steps`).
 */
const MANUAL_STEPS: Record<ManualStep, string> = {
  in_transit: 'Handed to the carrier',
  delivered: 'Delivered',
  canceled: 'Canceled',
};

/** A step of a manual shipment's timeline, now: nobody tracks it, so it has only what staff record. */
function manualEvent(status: ManualStep): TrackingEvent {
  return {
    code: status.toUpperCase(),
    description: MANUAL_STEPS[status],
    location: null,
    timestamp: new Date().toISOString(),
  };
}

/** A manual shipment's timeline with the step it makes now; a carrier's parcel keeps the carrier's. */
function ownTimeline(shipment: Shipment, status: ManualStep): { events?: TrackingEvent[] } {
  return shipment.carrier === MANUAL_CARRIER ? { events: [...shipment.events, manualEvent(status)] } : {};
}

/** A carrier plugin's new parcel, as it reports it. */
export interface ParcelReport {
  orderId: number;
  /** The key of the plugin's `ShipmentCarrier`, e.g. `carrier-a`. */
  carrier: string;
  carrierName: string;
  externalId: string;
  trackingNumber: string;
  trackingUrl: string | null;
}

/** A shipment staff record for a carrier the shop has no plugin for. */
export interface ManualShipmentInput {
  carrierName: string;
  trackingNumber: string;
  trackingUrl: string | null;
}

/**
 * Orders' shipments and what they do to the order: a parcel made moves it to `shipped` (or its first scan does, as
 * `shipmentsShipOrderOn` says), every live parcel delivered moves it to `completed`, and the last live parcel
 * canceled takes a shipped order back to `processing`, all through the order status machine.
 */
@Injectable()
export class ShipmentsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly orderStatus: OrderStatusService,
    private readonly settings: SettingsService,
    private readonly carriers: ShipmentCarrierRegistry,
    private readonly shippedMail: ShippedMail,
  ) {}

  /** The order's shipments, oldest first, canceled ones too. */
  forOrder(orderId: number): Promise<Shipment[]> {
    return this.dataSource.getRepository(Shipment).find({ where: { orderId }, order: { id: 'ASC' } });
  }

  /**
   * Records a carrier plugin's parcel, once per carrier and parcel id: reports for one order take turns on its row
   * lock (and the unique key stands behind that), and a report of a parcel already recorded answers with its
   * record and changes nothing.
   */
  reportParcel(report: ParcelReport): Promise<Shipment> {
    return this.runner.run(async (tx) => {
      const order = await tx.manager.findOne(Order, { where: { id: report.orderId }, ...writeLock(tx.manager) });
      if (!order) throw AppError.notFound('Order not found');
      const known = await tx.manager.findOneBy(Shipment, { carrier: report.carrier, externalId: report.externalId });
      if (known) return known;
      const shipment = await tx.manager.save(
        tx.manager.create(Shipment, {
          ...report,
          status: 'created',
          events: [],
          trackingCheckAt: nextTrackingCheck(Date.now(), 0),
          trackingMisses: 0,
          deliveredAt: null,
          actor: report.carrier,
        }),
      );
      if (this.settings.get('shipmentsShipOrderOn') === 'parcel') await this.settleOrder(tx, shipment);
      return shipment;
    });
  }

  /** A parcel staff handed to a carrier themselves: it is on its way, so the order ships now. */
  addManual(orderId: number, input: ManualShipmentInput, actor: string): Promise<Shipment> {
    return this.runner.run(async (tx) => {
      const order = await tx.manager.findOne(Order, { where: { id: orderId }, ...writeLock(tx.manager) });
      if (!order) throw AppError.notFound('Order not found');
      if (order.status !== 'completed') orderLifecycle.assertCan(order.status, 'shipped');
      const shipment = await tx.manager.save(
        tx.manager.create(Shipment, {
          orderId,
          carrier: MANUAL_CARRIER,
          carrierName: input.carrierName,
          externalId: null,
          trackingNumber: input.trackingNumber,
          trackingUrl: input.trackingUrl,
          status: 'in_transit',
          events: [manualEvent('in_transit')],
          trackingCheckAt: null,
          trackingMisses: 0,
          deliveredAt: null,
          actor,
        }),
      );
      await this.settleOrder(tx, shipment, actor);
      return shipment;
    });
  }

  /**
   * Cancels a shipment: a carrier's parcel with the carrier first (where its plugin can; the carrier refuses once
   * the parcel is picked up), then here. The order's last live shipment canceled takes it back to `processing`.
   */
  async cancel(orderId: number, shipmentId: number, actor: string): Promise<Shipment> {
    const shipment = await this.find(orderId, shipmentId);
    // Canceled already (a double click, a replay): nothing to do.
    // Canceled already (a double click, a replay): nothing to do.
    if (shipment.status === 'canceled') return shipment;
    shipmentLifecycle.assertCan(shipment.status, 'canceled');
    if (shipment.externalId !== null) {
      const carrier = this.carriers.get(shipment.carrier);
      if (!carrier?.cancel) throw shipmentsErrors.shipment_not_cancelable({ carrier: shipment.carrierName });
      await carrier.cancel(shipment.externalId);
    }
    return this.runner.run(async (tx) => {
      const moved = await this.moveShipment(tx, shipmentId, 'canceled', ownTimeline(shipment, 'canceled'));
      await this.settleOrder(tx, moved, actor);
      return moved;
    });
  }

  /** Staff saw a manual shipment arrive; a carrier's parcel says so itself through tracking. */
  async markDelivered(orderId: number, shipmentId: number, actor: string): Promise<Shipment> {
    const shipment = await this.find(orderId, shipmentId);
    if (shipment.carrier !== MANUAL_CARRIER) {
      throw shipmentsErrors.shipment_tracked_by_carrier({ carrier: shipment.carrierName });
    }
    return this.runner.run(async (tx) => {
      const moved = await this.moveShipment(tx, shipmentId, 'delivered', ownTimeline(shipment, 'delivered'));
      await this.settleOrder(tx, moved, actor);
      return moved;
    });
  }

  /**
   * What the carrier says of a parcel (the tracking job): its timeline and status are kept, the order follows, and
   * the next check is put off further the less it brought. True when anything changed.
   */
  recordTracking(shipmentId: number, tracking: CarrierTracking, now = Date.now()): Promise<boolean> {
    return this.runner.run(async (tx) => {
      const shipment = await tx.manager.findOne(Shipment, { where: { id: shipmentId }, ...writeLock(tx.manager) });
      if (!shipment || shipmentLifecycle.isFinal(shipment.status)) return false;
      const moves = tracking.status !== shipment.status && shipmentLifecycle.can(shipment.status, tracking.status);
      const changed = moves || JSON.stringify(tracking.events) !== JSON.stringify(shipment.events);
      const misses = changed ? 0 : shipment.trackingMisses + 1;
      const status = moves ? tracking.status : shipment.status;
      await tx.manager.update(Shipment, shipment.id, {
        status,
        events: tracking.events,
        trackingMisses: misses,
        trackingCheckAt: shipmentLifecycle.isFinal(status) ? null : nextTrackingCheck(now, misses),
        ...(status === 'delivered' ? { deliveredAt: now } : {}),
      });
      if (moves) await this.settleOrder(tx, { ...shipment, status, events: tracking.events }, shipment.carrier);
      return changed;
    });
  }

  /**
   * News of a parcel a carrier plugin came by itself (staff refreshing it on the plugin's own page): recorded as the
   * tracking job would. False when the parcel is not one of the core's or nothing changed.
   */
  async reportTracking(carrier: string, externalId: string, tracking: CarrierTracking): Promise<boolean> {
    const shipment = await this.dataSource.getRepository(Shipment).findOneBy({ carrier, externalId });
    return shipment ? this.recordTracking(shipment.id, tracking) : false;
  }

  /** A check that got no answer: the parcel is looked at later, as after one that brought nothing. */
  async trackingFailed(shipment: Shipment, now = Date.now()): Promise<void> {
    const misses = shipment.trackingMisses + 1;
    await this.runner.run(({ manager }) =>
      manager.update(
        Shipment,
        { id: shipment.id, status: In(['created', 'in_transit']) },
        { trackingMisses: misses, trackingCheckAt: nextTrackingCheck(now, misses) },
      ),
    );
  }

  private async find(orderId: number, shipmentId: number): Promise<Shipment> {
    const shipment = await this.dataSource.getRepository(Shipment).findOneBy({ id: shipmentId, orderId });
    if (!shipment) throw AppError.notFound('Shipment not found');
    return shipment;
  }

  /** A guarded move of the shipment's status: a concurrent change in between is a 409, never a lost update. */
  private async moveShipment(
    tx: Tx,
    shipmentId: number,
    to: ShipmentStatus,
    extra: { events?: TrackingEvent[] },
  ): Promise<Shipment> {
    const result = await tx.manager.update(
      Shipment,
      { id: shipmentId, status: In(shipmentLifecycle.guard(to)) },
      { ...extra, status: to, trackingCheckAt: null, ...(to === 'delivered' ? { deliveredAt: Date.now() } : {}) },
    );
    const shipment = await tx.manager.findOneByOrFail(Shipment, { id: shipmentId });
    if (result.affected !== 1) shipmentLifecycle.assertCan(shipment.status, to);
    return shipment;
  }

  /**
   * Moves the order to where its shipments say: shipped once one is on its way (or made, as the setting says),
   * completed once every live one is delivered, back to processing when none is live and it had shipped.
   */
  private async settleOrder(tx: Tx, shipment: Shipment, actor = shipment.carrier): Promise<void> {
    const parcel = `${shipment.carrierName} ${shipment.trackingNumber}`;
    if (shipment.status === 'canceled') {
      const live = await tx.manager.countBy(Shipment, { orderId: shipment.orderId, status: Not('canceled') });
      if (live === 0) await this.moveOrder(tx, shipment.orderId, 'processing', actor, `${parcel} canceled`, 'shipped');
      return;
    }
    await this.moveOrder(tx, shipment.orderId, 'shipped', actor, `Shipped: ${parcel}`);
    await this.shippedMail.queue(tx, shipment.orderId);
    if (shipment.status !== 'delivered') return;
    const undelivered = await tx.manager.countBy(Shipment, {
      orderId: shipment.orderId,
      status: In(['created', 'in_transit']),
    });
    if (undelivered === 0) await this.moveOrder(tx, shipment.orderId, 'completed', actor, `Delivered: ${parcel}`);
  }

  /**
   * Moves the order when the machine allows it (and only from `from`, when given). An order that cannot move there
   * gets a note instead, unless it is already past it: a parcel for a canceled order is worth a word to staff.
   */
  private async moveOrder(
    tx: Tx,
    orderId: number,
    to: OrderStatus,
    actor: string,
    note: string,
    from?: OrderStatus,
  ): Promise<void> {
    const order = await tx.manager.findOneOrFail(Order, { where: { id: orderId }, ...writeLock(tx.manager) });
    if (order.status === to || (from !== undefined && order.status !== from)) return;
    if (orderLifecycle.can(order.status, to)) {
      await this.orderStatus.change(orderId, to, actor, note);
    } else if (!orderLifecycle.can(to, order.status)) {
      await this.orderStatus.comment(orderId, `${note}; the order stays ${order.status}`, actor);
    }
  }
}
