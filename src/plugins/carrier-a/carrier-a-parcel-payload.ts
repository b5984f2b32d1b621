import { Address, amountDue, Order, parseShippingMethodId } from '../../plugin-api';
import { CarrierAParcelRequest, CarrierAParty } from './carrier-a.client';
import { CarrierAConfigurationError } from './carrier-a.errors';
import { PARCELSHOP_HANDLE } from './carrier-a-shipping.provider';

/** The carrier's weight range per parcel, in kg. */
const MIN_KG = 0.1;
const MAX_KG = 31.5;

export interface SenderDetails {
  name: string;
  /** The seller's address as a comma-separated line, e.g. `Hlavná 12, 811 01 Bratislava`. */
  address: string;
  countryCode: string;
}

/**
 * The `POST /v1/parcels` body for an order: recipient from its shipping address, sender from the shop's
 * address, weight from the order or the default, and cash on delivery while it is unpaid.
 */
export function parcelPayload(
  order: Order,
  paid: boolean,
  sender: SenderDetails,
  defaultWeightGrams: number,
): CarrierAParcelRequest {
  const address = order.shippingAddress ?? order.billingAddress;
  const grams = order.weightGrams > 0 ? order.weightGrams : defaultWeightGrams;
  const parcelShop = parseShippingMethodId(order.shippingMethod)?.handle === PARCELSHOP_HANDLE;
  const pickupPointId = order.pickupPoint?.id;
  if (parcelShop && typeof pickupPointId !== 'string') {
    throw new CarrierAConfigurationError(`Carrier A: order ${order.number} has no ParcelShop chosen`);
  }
  return {
    reference: order.number,
    sender: senderParty(sender),
    recipient: recipientParty(address, order.email),
    parcels: [{ weight: Math.min(MAX_KG, Math.max(MIN_KG, Math.round(grams / 100) / 10)) }],
    service: parcelShop ? { type: 'PARCELSHOP', pickupPointId: pickupPointId as string } : { type: 'CLASSIC' },
    ...(paid
      ? {}
      : { cod: { amount: amountDue(order) / 100, currency: order.currency, variableSymbol: String(order.id) } }),
  };
}

function recipientParty(address: Address, email: string): CarrierAParty {
  return {
    name: [address.company, `${address.firstName} ${address.lastName}`.trim()].filter(Boolean).join(', '),
    street: address.street,
    city: address.city,
    zipCode: address.zipCode.replace(/\s+/g, ''),
    countryCode: address.country.toUpperCase(),
    ...(address.phone ? { phone: address.phone } : {}),
    email,
  };
}

/** `Street 1, 811 01 City`: the first part is the street, the last a ZIP code and the town. */
function senderParty({ name, address, countryCode }: SenderDetails): CarrierAParty {
  const parts = address
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const town = /^(\d[\d ]*\d)\s+(.+)$/.exec(parts.at(-1) ?? '');
  if (parts.length < 2 || !town) {
    throw new CarrierAConfigurationError(
      'Carrier A: set the seller address (salesSellerAddress) as "street, ZIP town" to send parcels',
    );
  }
  return { name, street: parts[0], city: town[2], zipCode: town[1].replace(/\s+/g, ''), countryCode };
}
