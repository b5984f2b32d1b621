import { Injectable } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { Order, TransactionRunner, Tx, writeLock } from '../../plugin-api';
import { CarrierAAutoShipment } from './carrier-a-auto-shipment.entity';
import { CarrierAParcelClaim } from './carrier-a-parcel-claim.entity';
import { CarrierAShipment } from './carrier-a-shipment.entity';
import { CarrierAConfigurationError } from './carrier-a.errors';
import { CarrierAShipments } from './carrier-a-shipments.service';

/** Orders no parcel is made for: called off, or everything paid given back. */
export const NO_PARCEL_STATUSES: ReadonlyArray<Order['status']> = ['canceled', 'refunded'];

/** Automatic parcels that may exist at the carrier without a shipment row yet. */
const AUTOMATIC_IN_FLIGHT: ReadonlyArray<CarrierAAutoShipment['state']> = ['calling', 'unconfirmed'];

/**
 * A claim older than this never reported back (the process died during the call): it counts as a parcel that
 * may exist rather than blocking the order for good. Far above the outbound timeout.
 */
const CLAIM_LOST_MS = 10 * 60_000;

/** Why staff may not have the parcel made; the order page shows it. */
export class ParcelRefused extends Error {}

/**
 * Parcels staff create from the order page or the shipment page. The check "has the order a parcel" and the claim
 * of the order happen in one transaction under the order's row lock, before the carrier is called, so two quick
 * posts make one parcel: the second finds the first one's claim.
 */
@Injectable()
export class CarrierAStaffParcels {
  constructor(
    private readonly shipments: CarrierAShipments,
    private readonly runner: TransactionRunner,
  ) {}

  /** The order's parcels that exist or may exist: made, an automatic one on its way or unconfirmed, a lost claim. */
  async existing(manager: EntityManager, orderId: number, now = Date.now()): Promise<number> {
    const [made, automatic, claim] = await Promise.all([
      manager.countBy(CarrierAShipment, { orderId }),
      manager.countBy(CarrierAAutoShipment, { orderId, state: In([...AUTOMATIC_IN_FLIGHT]) }),
      manager.findOneBy(CarrierAParcelClaim, { orderId }),
    ]);
    return made + automatic + (claim && isSettled(claim, now) ? 1 : 0);
  }

  /**
   * Creates a parcel for the order: refused (`ParcelRefused`) for a canceled or refunded order, while another
   * request for it is on its way, and for an order with a parcel that exists or may exist unless `confirmed`.
   */
  async create(orderId: number, confirmed: boolean): Promise<CarrierAShipment> {
    let claimed = false;
    try {
      const shipment = await this.shipments.createParcel(orderId, {
        beforeCall: async (tx) => {
          await this.claim(tx, orderId, confirmed);
          claimed = true;
        },
      });
      await this.runner.run(({ manager }) => manager.delete(CarrierAParcelClaim, { orderId }));
      return shipment;
    } catch (error) {
      if (claimed) await this.settle(orderId, error);
      throw error;
    }
  }

  private async claim(tx: Tx, orderId: number, confirmed: boolean): Promise<void> {
    const { manager } = tx;
    const order = await manager.findOne(Order, { where: { id: orderId }, ...writeLock(manager) });
    if (!order) throw new ParcelRefused(`There is no order ${orderId}.`);
    if (NO_PARCEL_STATUSES.includes(order.status)) {
      throw new ParcelRefused(`Order ${order.reference} is ${order.status}: no parcel is created for it.`);
    }
    const now = Date.now();
    const claim = await manager.findOneBy(CarrierAParcelClaim, { orderId });
    if (claim && !isSettled(claim, now)) {
      throw new ParcelRefused(`A carrier A parcel for order ${order.reference} is being created right now.`);
    }
    if (!confirmed && (await this.existing(manager, orderId, now)) > 0) {
      throw new ParcelRefused(
        `Order ${order.reference} already has a carrier A parcel: tick the confirmation to create another one.`,
      );
    }
    if (claim) await manager.delete(CarrierAParcelClaim, claim.id);
    // The unique order id refuses a claim made at the same moment where no row lock serialised the two.
    await manager.insert(CarrierAParcelClaim, { orderId });
  }

  /** After a failed call: forgotten when the carrier certainly made nothing, else kept as a parcel that may exist. */
  private async settle(orderId: number, error: unknown): Promise<void> {
    const outcomeUnknown = error instanceof CarrierAConfigurationError && error.outcomeUnknown;
    await this.runner.run(({ manager }) =>
      outcomeUnknown
        ? manager.update(CarrierAParcelClaim, { orderId }, { outcomeUnknown: true })
        : manager.delete(CarrierAParcelClaim, { orderId }),
    );
  }
}

/** The claimed call got no clear answer or never reported back: it no longer blocks, it counts as a parcel. */
function isSettled(claim: CarrierAParcelClaim, now: number): boolean {
  return claim.outcomeUnknown || now - claim.dateCreated.getTime() > CLAIM_LOST_MS;
}
