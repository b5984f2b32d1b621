/** The sandbox carrier A's vocabulary: what it stores and answers with (docs/integrations.md). */

/** Where the sandbox carrier is mounted; its API lives under `/v1` below this. */
export const CARRIER_A_BASE = '/_sandbox/carrier-a';

/** The only HTTP Basic credentials the sandbox accepts. */
export const SANDBOX_USER = 'sandbox';
export const SANDBOX_PASSWORD = 'sandbox';

export const FAULT_MODES = ['normal', 'timeout', 'error', 'garbage'] as const;
export type FaultMode = (typeof FAULT_MODES)[number];

/** Time-driven tracking: a parcel moves one step along its route per this much time. */
export const TRACKING_STEP_MS = 60 * 60 * 1000;

/** The statuses a parcel passes through, by service. */
export const ROUTES = {
  CLASSIC: ['CREATED', 'PICKED_UP', 'IN_TRANSIT', 'OUT_FOR_DELIVERY', 'DELIVERED'],
  PARCELSHOP: ['CREATED', 'PICKED_UP', 'IN_TRANSIT', 'DELIVERED_TO_PARCELSHOP'],
} as const;
export type ServiceType = keyof typeof ROUTES;

export const STATUS_DESCRIPTIONS: Record<string, string> = {
  CREATED: 'Parcel data received',
  PICKED_UP: 'Parcel picked up from the sender',
  IN_TRANSIT: 'Parcel in transit',
  OUT_FOR_DELIVERY: 'Out for delivery',
  DELIVERED: 'Delivered',
  DELIVERED_TO_PARCELSHOP: 'Ready for collection at the ParcelShop',
  CANCELED: 'Parcel canceled by the sender',
};

export interface Party {
  name: string;
  street: string;
  city: string;
  zipCode: string;
  countryCode: string;
  phone?: string;
  email?: string;
}

export interface SandboxParcel {
  id: string;
  parcelNumber: string;
  reference: string;
  sender: Party;
  recipient: Party;
  /** Total weight in kg. */
  weight: number;
  service: { type: ServiceType; pickupPointId?: string };
  cod: { amount: number; currency: string; variableSymbol: string } | null;
  /** The JSON body as received. */
  body: unknown;
  createdAt: number;
  /** Steps a test pushed the parcel on by, on top of the time-driven ones. */
  advanced: number;
  /** When the sender canceled it (only before pick-up); it moves no further. */
  canceledAt: number | null;
}

export interface SandboxStats {
  /** Requests to /v1 by `METHOD /v1/route`, faulted or not. */
  requests: Record<string, number>;
}
