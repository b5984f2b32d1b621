import { errorCatalogue } from '../../plugin-api';

/** Carrier A could not be used as configured, or it answered with an error; the message says which. */
export class CarrierAConfigurationError extends Error {
  constructor(
    message: string,
    /** The carrier may have acted on the request (sent, but no clear answer came back). */
    readonly outcomeUnknown = false,
  ) {
    super(message);
  }
}

/** A JSON object (not an array). */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The carrier's own words from an error body: `errors[].message`, `error`, `message` or `detail`. */
export function carrierMessage(body: unknown): string | null {
  if (!isRecord(body)) return null;
  if (Array.isArray(body.errors)) {
    const messages = body.errors
      .map((entry: unknown) => (isRecord(entry) ? entry.message : entry))
      .filter((message): message is string => typeof message === 'string' && message !== '');
    if (messages.length > 0) return messages.join('; ');
  }
  for (const field of ['error', 'message', 'detail']) {
    const value = body[field];
    if (typeof value === 'string' && value !== '') return value;
    if (isRecord(value) && typeof value.message === 'string') return value.message;
  }
  return null;
}

/** What carrier A refuses staff: a parcel for an order that makes no sense, or one more without the confirmation. */
export const carrierAErrors = errorCatalogue({
  carrier_a_parcel_refused: { status: 409, message: (p: { reason: string }) => p.reason },
});
