import { Injectable } from '@nestjs/common';
import { AddressGuard, RefusedAddressError } from '../common/outbound-address';
import { exchange, OutboundError } from '../common/outbound-http';
import { AppConfig } from '../config/app-config';
import { InjectConfig } from '../config/config.module';
import { HttpMethod } from './flow-actions';

export interface FlowHttpRequest {
  method: HttpMethod;
  url: string;
  body?: string;
  contentType?: string;
}

/** Why a call failed; `retryable` when the same call may work later (no answer, 5xx, 429). */
export class FlowHttpError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

/**
 * The `httpRequest` flow action's one outside call: a bounded time, no redirects followed, and never an
 * address inside the shop's network, checked on the address actually connected to (a name that resolves
 * to a private address is refused too). Loopback is allowed only while the app runs its sandboxes (never
 * in production), so tests and a local demo can call the app itself.
 */
@Injectable()
export class FlowHttpClient {
  private readonly guard: AddressGuard;
  private readonly timeoutMs: number;

  constructor(@InjectConfig() config: AppConfig) {
    this.guard = AddressGuard.forSandboxes(config.sandboxes);
    this.timeoutMs = config.outboundTimeoutMs;
  }

  /** Sends the request and answers the status of a 2xx answer; anything else is a FlowHttpError. */
  async send(call: FlowHttpRequest): Promise<number> {
    const url = this.target(call.url);
    const status = await this.exchange(url, call);
    if (status >= 200 && status < 300) return status;
    const why = status >= 300 && status < 400 ? ' (redirects are not followed)' : '';
    throw new FlowHttpError(`${url.host} answered ${status}${why}`, status >= 500 || status === 429);
  }

  private target(text: string): URL {
    let url: URL;
    try {
      url = new URL(text.trim());
    } catch {
      throw new FlowHttpError('the URL is not a valid absolute URL', false);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new FlowHttpError(`only http and https URLs can be called, not ${url.protocol}`, false);
    }
    return url;
  }

  private async exchange(url: URL, call: FlowHttpRequest): Promise<number> {
    const headers: Record<string, string> = { 'user-agent': 'storefront-flows' };
    if (call.body !== undefined) headers['content-type'] = call.contentType ?? 'text/plain; charset=utf-8';
    try {
      const answer = await exchange(url.href, {
        method: call.method,
        headers,
        body: call.body,
        timeoutMs: this.timeoutMs,
        guard: this.guard,
      });
      return answer.status;
    } catch (error) {
      if (!(error instanceof OutboundError)) throw error;
      if (error.cause instanceof RefusedAddressError) {
        throw new FlowHttpError(`${error.cause.message}, which flows may not call`, false);
      }
      throw new FlowHttpError(error.message, error.reason === 'timeout' || error.reason === 'network');
    }
  }
}
