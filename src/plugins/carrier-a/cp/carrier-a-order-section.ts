import { Order, OrderPageSection } from '../../../plugin-api';

/** Carrier A on the CP order page: the order's parcels, and a button to create one. */
export function carrierAOrderSection(order: Order): OrderPageSection {
  return {
    title: 'Carrier A',
    links: [
      { label: "This order's carrier A parcels", path: `carrier-a/shipments?q=${encodeURIComponent(order.reference)}` },
    ],
    actions: [{ label: 'Create carrier A parcel', path: `carrier-a/shipments/create/${order.id}` }],
  };
}
