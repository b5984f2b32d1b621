import { ShippingMethod } from './shipping-method.entity';

/** What a shipping rate depends on: where the parcel goes, what the goods are worth and weigh. */
export interface ShippingContext {
  /** ISO alpha-2 destination country. */
  country: string;
  /** Cart subtotal before discounts, in minor units of the base currency (free-shipping thresholds). */
  subtotalBase: number;
  weightGrams: number;
}

/**
 * A browser script that completes the choice of a method at checkout, such as a carrier's pickup-point picker
 * (docs/integrations.md, _Carriers_). The checkout page loads `script` and starts the widget named `name` with
 * `data`: public values only, since they reach the browser (a widget's own API key is meant to).
 */
export interface ShippingWidget {
  name: string;
  /** A script of the shop's own, under `/public/js/`. */
  script: string;
  data: Record<string, string>;
}

/** A method that can ship this cart, with its price: a shipping method entry (docs/http-contract.md, _Shapes_). */
export interface ShippingQuote {
  method: ShippingMethod;
  /** The `type:handle:id` identifier checkout passes around. */
  value: string;
  /** Minor units of the base currency, after free-shipping rules. */
  price: number;
  /** The shopper picks a pickup point (carrier widgets); cash on delivery is not offered then. */
  pickupPoints: boolean;
  /** Only on methods that passed their provider's checks, so a widget renders only for what is on offer. */
  widget?: ShippingWidget;
}

export interface ShippingMethodId {
  type: string;
  handle: string;
  id: number;
}

const IDENTIFIER = /^([a-z0-9][a-z0-9-]{0,63}):([a-z0-9][a-z0-9-]{0,63}):([1-9][0-9]{0,9})$/;

/** `core:flat-rate:1` → its parts; null when malformed. */
export function parseShippingMethodId(value: unknown): ShippingMethodId | null {
  const match = typeof value === 'string' ? IDENTIFIER.exec(value) : null;
  return match ? { type: match[1], handle: match[2], id: Number(match[3]) } : null;
}

export function shippingMethodId(method: Pick<ShippingMethod, 'type' | 'handle' | 'id'>): string {
  return `${method.type}:${method.handle}:${method.id}`;
}

/**
 * The common rate rules of a configured method: offered in its countries (all when none are listed),
 * up to its weight limit, at its price, free from its threshold on. Null when it cannot ship the cart.
 */
export function tableRate(
  method: ShippingMethod,
  context: ShippingContext,
  options: { pickupPoints?: boolean; widget?: ShippingWidget } = {},
): ShippingQuote | null {
  if (method.countries.length > 0 && !method.countries.includes(context.country)) return null;
  if (method.maxWeightGrams !== null && context.weightGrams > method.maxWeightGrams) return null;
  const free = method.freeShippingThreshold !== null && context.subtotalBase >= method.freeShippingThreshold;
  return {
    method,
    value: shippingMethodId(method),
    price: free ? 0 : method.price,
    pickupPoints: options.pickupPoints ?? false,
    ...(options.widget && { widget: options.widget }),
  };
}
