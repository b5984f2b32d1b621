import { NewParcel } from './carrier-a-sandbox.state';
import { Party, ROUTES, ServiceType } from './carrier-a-sandbox.model';

type Fields = Record<string, unknown>;

const isRecord = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/** Reads a `POST /v1/parcels` body; the carrier's messages for every problem found, or the parcel. */
export function readParcel(body: unknown): { problems: string[]; parcel?: NewParcel } {
  const problems: string[] = [];
  if (!isRecord(body)) return { problems: ['The request body must be a JSON object'] };
  if (!text(body.reference)) problems.push('reference: required');
  const sender = readParty('sender', body.sender, problems);
  const recipient = readParty('recipient', body.recipient, problems);
  const weights = readWeights(body.parcels, problems);
  const service = readService(body.service, problems);
  const cod = readCod(body.cod, problems);
  if (problems.length > 0 || !sender || !recipient || !service) return { problems };
  return {
    problems,
    parcel: {
      reference: body.reference as string,
      sender,
      recipient,
      weight: Number(weights.reduce((sum, weight) => sum + weight, 0).toFixed(3)),
      service,
      cod,
      body,
    },
  };
}

function readParty(name: string, value: unknown, problems: string[]): Party | undefined {
  if (!isRecord(value)) {
    problems.push(`${name}: required`);
    return undefined;
  }
  const missing = ['name', 'street', 'city', 'zipCode'].filter((field) => !text(value[field]));
  for (const field of missing) problems.push(`${name}.${field}: required`);
  if (typeof value.countryCode !== 'string' || !/^[A-Z]{2}$/.test(value.countryCode)) {
    problems.push(`${name}.countryCode: must be an ISO 3166-1 alpha-2 code`);
  }
  const optional = ['phone', 'email'].filter((field) => value[field] !== undefined && typeof value[field] !== 'string');
  for (const field of optional) problems.push(`${name}.${field}: must be a string`);
  return missing.length > 0 ? undefined : (value as unknown as Party);
}

function readWeights(value: unknown, problems: string[]): number[] {
  if (!Array.isArray(value) || value.length === 0) {
    problems.push('parcels: at least one parcel is required');
    return [];
  }
  return value.flatMap((parcel: unknown, index) => {
    const weight = isRecord(parcel) ? parcel.weight : undefined;
    if (typeof weight !== 'number' || !(weight >= 0.1 && weight <= 31.5)) {
      problems.push(`parcels[${index}].weight: must be between 0.1 and 31.5 kg`);
      return [];
    }
    return [weight];
  });
}

function readService(value: unknown, problems: string[]): NewParcel['service'] | undefined {
  const type = isRecord(value) ? value.type : undefined;
  if (typeof type !== 'string' || !Object.hasOwn(ROUTES, type)) {
    problems.push(`service.type: must be one of ${Object.keys(ROUTES).join(', ')}`);
    return undefined;
  }
  const pickupPointId = (value as Fields).pickupPointId;
  if (type === 'PARCELSHOP' && !text(pickupPointId)) {
    problems.push('service.pickupPointId: required for PARCELSHOP');
    return undefined;
  }
  return type === 'PARCELSHOP' ? { type, pickupPointId: pickupPointId as string } : { type: type as ServiceType };
}

function readCod(value: unknown, problems: string[]): NewParcel['cod'] {
  if (value === undefined || value === null) return null;
  if (
    !isRecord(value) ||
    typeof value.amount !== 'number' ||
    !(value.amount > 0) ||
    typeof value.currency !== 'string' ||
    !/^[A-Z]{3}$/.test(value.currency) ||
    !text(value.variableSymbol)
  ) {
    problems.push('cod: needs a positive amount, an ISO currency and a variableSymbol');
    return null;
  }
  return { amount: value.amount, currency: value.currency, variableSymbol: value.variableSymbol };
}
