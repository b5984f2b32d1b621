import { DashboardLayout, ORDER_STATUSES, SettingDefinition } from '../../plugin-api';

/** The widgets of the carrier A CP dashboard, in their natural order, and where their layout is kept. */
export const CARRIER_A_DASHBOARD = new DashboardLayout('carrier-a.dashboardLayout', [
  { id: 'by-status', title: 'Shipments by status' },
  { id: 'by-day', title: 'Shipments by day' },
  { id: 'label-usage', title: 'Labels this month' },
  { id: 'failed-jobs', title: 'Failed automatic parcels' },
]);

/** Settings of the carrier A plugin (docs/configuration.md). */
export const CARRIER_A_SETTINGS = [
  { key: 'carrier-a.sandbox', type: 'boolean', default: true, description: 'Use the carrier sandbox API' },
  {
    key: 'carrier-a.customUrl',
    type: 'string',
    default: '',
    description: 'Custom API base URL (overrides sandbox and production)',
    outboundUrl: true,
  },
  { key: 'carrier-a.username', type: 'string', default: '', description: 'API user (HTTP Basic)' },
  { key: 'carrier-a.password', type: 'string', default: '', secret: true, description: 'API password (HTTP Basic)' },
  {
    key: 'carrier-a.defaultWeight',
    type: 'integer',
    default: 1000,
    description: 'Default parcel weight in grams when the order has none',
  },
  {
    key: 'carrier-a.autoCreateStatus',
    type: 'string',
    default: '',
    // A typo would silently switch the automation off: only a status (or nothing) is taken.
    choices: ['', ...ORDER_STATUSES],
    description: 'Order status that creates a parcel automatically (empty: never)',
  },
  {
    key: 'carrier-a.pickupPointsEnabled',
    type: 'boolean',
    default: false,
    description: 'Offer ParcelShop pickup points at checkout',
  },
  {
    key: 'carrier-a.pickupPointCountry',
    type: 'string',
    default: '',
    description: 'Default country for pickup points (kept; checkout does not use it)',
  },
  {
    key: 'carrier-a.trackingUrl',
    type: 'string',
    default: 'https://tracking.carrier-a.example/{parcelNumber}',
    description: "The carrier's public tracking page, {parcelNumber} standing for the parcel's number (empty: none)",
    check: (value) =>
      value === '' || /^https?:\/\/[^\s]+$/.test(String(value)) ? undefined : 'must be an http(s) address or empty',
  },
  {
    key: 'carrier-a.labelLimit',
    type: 'integer',
    default: 0,
    description: 'Labels per calendar month after which automation stops creating parcels (0: no limit)',
  },
] as const satisfies readonly SettingDefinition[];

declare module '../../plugin-api' {
  interface SettingLists {
    carrierA: typeof CARRIER_A_SETTINGS;
  }
}
