import { setTimeout as sleep } from 'node:timers/promises';
import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';

/**
 * How long a sandbox in its slow (`timeout`) mode keeps the caller waiting: longer than the app waits for any
 * outside service in tests (2.5 s) and for the license server (5 s), so the mode provokes the caller's timeout.
 */
export const SANDBOX_SLOW_MS = 6000;

/**
 * An answer the sandbox gives instead of a handler's result: a bank error body, an empty 503, garbage, a page.
 * Thrown from guards and handlers; `SandboxAnswerFilter` writes it. The app's own error shape
 * (`{ success: false, error }`) must never reach a bank client, so every sandbox controller uses the filter.
 */
export abstract class SandboxAnswer extends Error {
  abstract send(res: Response): void;
}

/** An outside service's JSON error: a status and the body in that service's own shape. */
export class JsonErrorAnswer extends SandboxAnswer {
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

/** The bank's JSON error: 400 `{ errorCode, errorDescription? }`, 401/403 `{ errorCode }`, or OAuth's `{ error }`. */
export class BankApiError extends JsonErrorAnswer {}

/** A bank error by code, with a description only where the bank gives one. */
export function bankError(status: number, errorCode: string, errorDescription?: string): BankApiError {
  return new BankApiError(status, errorDescription ? { errorCode, errorDescription } : { errorCode });
}

/** 400 ILLEGAL_ARGUMENT naming the field and what is wrong with it. */
export function illegalArgument(description: string): BankApiError {
  return bankError(400, 'ILLEGAL_ARGUMENT', description);
}

/** A status without a body, as the bank answers 404/409/429/500/503. */
export class EmptyAnswer extends SandboxAnswer {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }

  send(res: Response): void {
    res.status(this.status).end();
  }
}

/** A 200 that claims JSON and carries a truncated document: a gateway that answers garbage. */
export class GarbageAnswer extends SandboxAnswer {
  constructor(readonly truncatedJson: string) {
    super('HTTP 200 garbage');
  }

  send(res: Response): void {
    res.status(200).set('Content-Type', 'application/json').send(this.truncatedJson);
  }
}

/** The caller hung up while the bank was being slow: there is no one to answer. */
export class NoAnswer extends SandboxAnswer {
  send(): void {}
}

/**
 * Keeps the caller waiting SANDBOX_SLOW_MS, as the service does in its slow mode, then lets the answer go on;
 * throws `NoAnswer` if the caller hung up meanwhile.
 */
export async function answerSlowly(req: Request): Promise<void> {
  // Unref'd, so a test run that ends meanwhile does not wait for the slow service.
  await sleep(SANDBOX_SLOW_MS, undefined, { ref: false });
  if (req.socket.destroyed) throw new NoAnswer();
}

/** Writes every `SandboxAnswer` thrown in a sandbox controller, unless the caller has gone. */
@Catch(SandboxAnswer)
export class SandboxAnswerFilter implements ExceptionFilter {
  catch(answer: SandboxAnswer, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const res = http.getResponse<Response>();
    if (res.headersSent || http.getRequest<Request>().socket.destroyed) return;
    answer.send(res);
  }
}
