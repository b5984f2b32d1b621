import { defineStates, StateOf } from '../lifecycle/state-table';

/** Where an order's shipment is (`Shipment.status`), as its carrier last reported, or as staff set it. */
export const shipmentLifecycle = defineStates('a shipment', {
  // Registered with the carrier (a label exists); nobody has scanned it yet. Still cancelable.
  created: ['in_transit', 'delivered', 'canceled'],
  // The carrier has it: scanned at pick-up, on its way, out for delivery. A manual shipment starts here, and staff
  // may cancel one they recorded by mistake (a carrier refuses to cancel a parcel it has picked up).
  in_transit: ['delivered', 'canceled'],
  // At the shopper's (or ready at the pickup point).
  delivered: [],
  // Called off with the carrier before it was picked up.
  canceled: [],
});

export type ShipmentStatus = StateOf<typeof shipmentLifecycle>;
