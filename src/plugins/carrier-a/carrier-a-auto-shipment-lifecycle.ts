import { defineStates, StateOf } from '../../plugin-api/lifecycle';

/**
 * How far the automatic parcel of one order got (`CarrierAAutoShipment.state`), changed by
 * `CarrierAAutoShipments` under the row's lock. A parcel found for the order (made by an attempt that crashed
 * before recording it, or by staff) makes it `created` from any state not final.
 */
export const autoShipmentLifecycle = defineStates('an automatic shipment', {
  // Queued, or waiting for a retry after the carrier refused or was unreachable before the call.
  pending: ['calling', 'created', 'skipped', 'failed'],
  // The parcel request is on its way (a crash here leaves it, and the next attempt checks).
  calling: ['created', 'unconfirmed', 'pending', 'failed'],
  // The parcel exists (`shipmentId`).
  created: [],
  // The monthly label limit was reached.
  skipped: [],
  // The carrier may or may not have created a parcel, so automation stops (staff decide). Only the call taken
  // for lost can still change it, should it report back after all.
  unconfirmed: ['created', 'pending', 'failed'],
  // The carrier kept refusing until the job's attempts ran out; staff may retry the job.
  failed: ['calling', 'created', 'skipped', 'pending'],
});

export type AutoShipmentState = StateOf<typeof autoShipmentLifecycle>;
