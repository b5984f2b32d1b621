import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import {
  amountDue,
  AppConfig,
  InjectConfig,
  Order,
  OrderStatusService,
  PaymentTransaction,
  SettingsService,
  ShipmentsService,
  Store,
  TransactionRunner,
  Tx,
} from '../../plugin-api';
import { CarrierAClient } from './carrier-a.client';
import { CarrierAConfigurationError } from './carrier-a.errors';
import { CarrierALabelFiles } from './carrier-a-label-files';
import { giveLabelBack, labelMonth, takeLabel } from './carrier-a-label-months';
import { parcelPayload } from './carrier-a-parcel-payload';
import { CarrierAShipment } from './carrier-a-shipment.entity';

/** One step of a parcel's tracking timeline. */
export interface TrackingStep {
  status: string;
  description: string;
  location: string | null;
  timestamp: string | null;
}

export interface ParcelOptions {
  /** Refuse with `LabelLimitReached` once this month's labels reach `carrier-a.labelLimit` (automation). */
  withinLabelLimit?: boolean;
  /** Runs in the transaction that counts the label, just before the carrier is called; may throw to stop. */
  beforeCall?: (tx: Tx) => Promise<void>;
}

/** The key carrier A's parcels are reported to the core under. */
export const CARRIER_A = 'carrier-a';

/** This month's labels have reached the configured limit. */
export class LabelLimitReached extends Error {}

/** Registers orders' parcels with carrier A and keeps the shipment records and their labels. */
@Injectable()
export class CarrierAShipments {
  private readonly logger = new Logger('carrier-a:shipments');
  private readonly labels: CarrierALabelFiles;

  constructor(
    private readonly client: CarrierAClient,
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly orderStatus: OrderStatusService,
    private readonly settings: SettingsService,
    private readonly reports: ShipmentsService,
    @InjectConfig() config: AppConfig,
  ) {
    this.labels = new CarrierALabelFiles(config.dataDir);
  }

  /**
   * Creates the order's parcel, stores the shipment with its label on disk and notes the parcel number on
   * the order. Every label counts towards the month's total, taken before the call and given back only
   * when the carrier certainly made none. A failure is a `CarrierAConfigurationError`. The parcel exists
   * once the carrier answers, so a label that cannot be stored does not fail the call: the path stays empty
   * (the next label request tries again) and the order note says why.
   */
  async createParcel(orderId: number, options: ParcelOptions = {}): Promise<CarrierAShipment> {
    const order = await this.dataSource.getRepository(Order).findOneBy({ id: orderId });
    if (!order) throw new CarrierAConfigurationError(`Carrier A: there is no order ${orderId}`);
    const defaultWeight = this.settings.get('carrier-a.defaultWeight');
    const payload = parcelPayload(order, await this.isPaid(order), await this.sender(order), defaultWeight);
    const month = labelMonth();
    const limit = options.withinLabelLimit ? this.settings.get('carrier-a.labelLimit') : 0;
    await this.runner.run(async (tx) => {
      if (!(await takeLabel(tx.manager, month, limit))) {
        throw new LabelLimitReached(`Carrier A: the limit of ${limit} labels in ${month} is reached`);
      }
      await options.beforeCall?.(tx);
    });
    const created = await this.client.createParcel(payload).catch(async (error: unknown) => {
      if (!(error instanceof CarrierAConfigurationError && error.outcomeUnknown)) {
        await this.runner.run(({ manager }) => giveLabelBack(manager, month));
      }
      throw error;
    });
    let labelProblem: string | null = null;
    const labelFilePath = await this.storeLabel(created.id, created.parcelNumber).catch((error: Error) => {
      labelProblem = error.message.replace(/^Carrier A: /, '');
      this.logger.warn(`parcel ${created.id}: ${labelProblem}`);
      return null;
    });
    const note = `Carrier A parcel ${created.parcelNumber} created${labelProblem ? `; ${labelProblem}` : ''}`;
    return this.runner.run(async ({ manager }) => {
      const shipment = await manager.save(
        manager.create(CarrierAShipment, {
          orderId,
          parcelId: created.id,
          parcelNumber: created.parcelNumber,
          status: created.status,
          service: payload.service.type,
          pickupPointId: payload.service.pickupPointId ?? null,
          codAmount: payload.cod ? amountDue(order) : null,
          labelFilePath,
          payload: payload as unknown as Record<string, unknown>,
          response: { ...created },
        }),
      );
      await this.orderStatus.comment(orderId, note, 'carrier-a');
      // The core's shipment, in the same transaction: it moves the order and tells the shopper.
      await this.reports.reportParcel({
        orderId,
        carrier: CARRIER_A,
        carrierName: 'Carrier A',
        externalId: created.id,
        trackingNumber: created.parcelNumber,
        trackingUrl: this.trackingUrl(created.parcelNumber),
      });
      return shipment;
    });
  }

  /** The carrier's public tracking page for the parcel, from `carrier-a.trackingUrl`; null when that is empty. */
  private trackingUrl(parcelNumber: string): string | null {
    const template = this.settings.get('carrier-a.trackingUrl').trim();
    return template ? template.replaceAll('{parcelNumber}', encodeURIComponent(parcelNumber)) : null;
  }

  /** The label PDF: the stored file when there is one, else fetched from the carrier and stored first. */
  async label(shipment: CarrierAShipment): Promise<Buffer> {
    const stored = shipment.labelFilePath ? await this.labels.read(shipment.labelFilePath) : null;
    if (stored) return stored;
    const path = await this.storeLabel(shipment.parcelId, shipment.parcelNumber);
    await this.runner.run(({ manager }) => manager.update(CarrierAShipment, shipment.id, { labelFilePath: path }));
    shipment.labelFilePath = path;
    return (await this.labels.read(path))!;
  }

  /**
   * Deletes the stored label file and forgets its path; the carrier keeps the parcel, and the next label
   * request fetches the label again. False when no label was stored in the label folder (a path leading
   * elsewhere is forgotten, and nothing there is touched).
   */
  async deleteLabel(shipment: CarrierAShipment): Promise<boolean> {
    if (!shipment.labelFilePath) return false;
    // The file first: a path left behind is harmless (the label is fetched again when its file is missing).
    const deleted = await this.labels.remove(shipment.labelFilePath);
    await this.runner.run(({ manager }) => manager.update(CarrierAShipment, shipment.id, { labelFilePath: null }));
    shipment.labelFilePath = null;
    return deleted;
  }

  /**
   * Asks the carrier where the parcel is and keeps its status on the record; the timeline oldest first,
   * from the carrier's events, or the current status alone when it has none.
   */
  async refreshTracking(shipment: CarrierAShipment): Promise<TrackingStep[]> {
    const tracking = await this.client.getTracking(shipment.parcelId);
    if (tracking.status !== shipment.status) {
      await this.runner.run(({ manager }) =>
        manager.update(CarrierAShipment, shipment.id, { status: tracking.status }),
      );
      shipment.status = tracking.status;
    }
    const steps = tracking.events
      .filter((event) => typeof event?.code === 'string')
      .map((event) => ({
        status: event.code,
        description: event.description ?? event.code,
        location: event.location ?? null,
        timestamp: event.timestamp ?? null,
      }));
    return steps.length > 0
      ? steps
      : [{ status: tracking.status, description: tracking.status, location: null, timestamp: null }];
  }

  /** Fetches the label PDF and writes it in the label folder; the stored path. */
  private async storeLabel(parcelId: string, parcelNumber: string): Promise<string> {
    const path = this.labels.pathFor(parcelNumber);
    await this.labels.write(path, await this.client.getLabel(parcelId));
    return path;
  }

  /** Paid: marked so, or settled by successful payments (a COD order has none, so the courier collects). */
  private async isPaid(order: Order): Promise<boolean> {
    if (order.status === 'paid') return true;
    const payments = await this.dataSource
      .getRepository(PaymentTransaction)
      .findBy({ orderId: order.id, status: 'success' });
    return payments.reduce((sum, payment) => sum + (payment.paidAmount ?? 0), 0) >= amountDue(order);
  }

  private async sender(order: Order) {
    const store = await this.dataSource.getRepository(Store).findOneBy({ id: order.storeId });
    return {
      name: store?.name ?? 'Shop',
      address: this.settings.get('salesSellerAddress'),
      countryCode: store?.country ?? 'SK',
    };
  }
}
