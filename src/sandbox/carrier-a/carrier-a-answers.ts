import { JsonErrorAnswer } from '../common/sandbox-answers';

/** The carrier's JSON error, `{ errors: [{ message }] }`, or another of its shapes (`{ detail }` on 5xx). */
export class CarrierApiError extends JsonErrorAnswer {}

/** An error in the carrier's usual shape, one entry per message. */
export function carrierError(status: number, ...messages: string[]): CarrierApiError {
  return new CarrierApiError(status, { errors: messages.map((message) => ({ message })) });
}
