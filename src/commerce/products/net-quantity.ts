import { toMajor } from '../../common/money';

/**
 * The units a product sold by weight, volume, length or area states its net quantity in (Price Indication
 * Directive 98/6/EC), each with the unit its unit price is shown per and how many of it make one of that.
 * `m2` is the code of square metres (shown as m²).
 */
export const NET_UNITS = {
  kg: { per: 'kg', inOne: 1 },
  g: { per: 'kg', inOne: 1000 },
  l: { per: 'l', inOne: 1 },
  ml: { per: 'l', inOne: 1000 },
  m: { per: 'm', inOne: 1 },
  cm: { per: 'm', inOne: 100 },
  m2: { per: 'm2', inOne: 1 },
} as const;

export type NetUnit = keyof typeof NET_UNITS;
export type UnitPriceUnit = (typeof NET_UNITS)[NetUnit]['per'];

/** Net quantities are stored as whole thousandths of their unit, so 0.75 l is exact: 750. */
export const NET_QUANTITY_SCALE = 1000;
/** The largest net quantity a product states: a million of its unit. */
const MAX_NET_QUANTITY = 1_000_000;

/** A net quantity as stored: `quantity` in thousandths of `unit`. */
export interface NetQuantity {
  quantity: number;
  unit: NetUnit;
}

/** The unit price as the catalog and cart JSON show it (docs/http-contract.md). */
export interface UnitPrice {
  /** The net quantity in `unit`, e.g. 250 (g). */
  quantity: number;
  unit: NetUnit;
  /** Major units of the page's currency per one `per`. */
  price: number;
  per: UnitPriceUnit;
}

export function isNetUnit(value: unknown): value is NetUnit {
  return typeof value === 'string' && Object.hasOwn(NET_UNITS, value);
}

/** What a net quantity must be, for messages. */
export const NET_QUANTITY_RULE = `must be a number > 0 with at most 3 decimals, up to ${MAX_NET_QUANTITY}`;
export const NET_UNIT_RULE = `must be one of ${Object.keys(NET_UNITS).join(', ')}`;

/** 250, "0.75" or "0,75" → thousandths (250000, 750); null for anything else. */
export function parseNetQuantity(value: unknown): number | null {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const normalized = text.replace(',', '.');
  if (!/^\d{1,7}(\.\d{1,3})?$/.test(normalized)) return null;
  const thousandths = Math.round(Number(normalized) * NET_QUANTITY_SCALE);
  return thousandths > 0 && thousandths <= MAX_NET_QUANTITY * NET_QUANTITY_SCALE ? thousandths : null;
}

/**
 * A net quantity given as a quantity (a number, or form text like "0,75") and a unit code: both or neither
 * (null). Problems name the field that is wrong.
 */
export function readNetQuantity(
  quantity: unknown,
  unit: unknown,
): { net: NetQuantity | null; problems: Array<{ field: 'netQuantity' | 'netUnit'; message: string }> } {
  const blank = (value: unknown) => value === undefined || value === null || value === '';
  if (blank(quantity) && blank(unit)) return { net: null, problems: [] };
  const thousandths = parseNetQuantity(quantity);
  const problems: Array<{ field: 'netQuantity' | 'netUnit'; message: string }> = [];
  if (thousandths === null) problems.push({ field: 'netQuantity', message: NET_QUANTITY_RULE });
  if (!isNetUnit(unit)) problems.push({ field: 'netUnit', message: NET_UNIT_RULE });
  return problems.length > 0
    ? { net: null, problems }
    : { net: { quantity: thousandths!, unit: unit as NetUnit }, problems };
}

/** The net quantity of a product or variant row, or null when it states none. */
export function netQuantityOf(row: { netQuantity: number | null; netUnit: string | null }): NetQuantity | null {
  return row.netQuantity && isNetUnit(row.netUnit) ? { quantity: row.netQuantity, unit: row.netUnit } : null;
}

/**
 * The price of one `per` unit (1 kg, 1 l, 1 m, 1 m²) in minor units, rounded half up once: 1290 for 250 g
 * → 5160 per kg. Integer arithmetic throughout, so no binary fraction decides the rounding.
 */
export function unitPriceMinor(priceMinor: number, net: NetQuantity): number {
  const numerator = BigInt(priceMinor) * BigInt(NET_UNITS[net.unit].inOne) * BigInt(NET_QUANTITY_SCALE);
  const denominator = BigInt(net.quantity);
  return Number((2n * numerator + denominator) / (2n * denominator));
}

/** The unit price of a price in minor units of a currency with `decimals`, or null without a net quantity. */
export function pricePerUnit(priceMinor: number, net: NetQuantity | null, decimals: number): UnitPrice | null {
  if (!net) return null;
  return {
    quantity: net.quantity / NET_QUANTITY_SCALE,
    unit: net.unit,
    price: toMajor(unitPriceMinor(priceMinor, net), decimals),
    per: NET_UNITS[net.unit].per,
  };
}
