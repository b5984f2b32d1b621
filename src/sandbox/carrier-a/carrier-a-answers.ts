import type { Response } from 'express';
import { SandboxAnswer } from '../common/sandbox-answers';

/** The carrier's JSON error, `{ errors: [{ message }] }`, or another of its shapes (`{ detail }` on 5xx). */
export class CarrierApiError extends SandboxAnswer {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(JSON.stringify(body));
  }

  send(res: Response): void {
    res.status(this.status).json(this.body);
  }
}

/** An error in the carrier's usual shape, one entry per message. */
export function carrierError(status: number, ...messages: string[]): CarrierApiError {
  return new CarrierApiError(status, { errors: messages.map((message) => ({ message })) });
}
