import { IncomingHttpHeaders, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { AddressGuard, RefusedAddressError } from './outbound-address';

/**
 * Why an outside call gave no usable answer: no answer in time, no connection, an unreadable body, or an
 * address the shop may not call (refused before connecting).
 */
export class OutboundError extends Error {
  constructor(
    readonly reason: 'timeout' | 'network' | 'garbage' | 'refused',
    message: string,
    /** The HTTP status, when the service answered at all. */
    readonly status: number | null = null,
  ) {
    super(message);
  }

  /**
   * Whether the service may have acted on the request: it was sent and no clear answer came back. Only a
   * refused address, a connection that could not be opened, or an error status, proves it was not.
   */
  get outcomeUnknown(): boolean {
    if (this.reason === 'refused') return false;
    if (this.reason === 'garbage') return this.status !== null && this.status < 400;
    return this.reason === 'timeout' || !this.neverConnected;
  }

  private get neverConnected(): boolean {
    const code = (this.cause as { code?: string } | undefined)?.code;
    return code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN';
  }
}

export interface OutboundExchange {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  timeoutMs: number;
  /**
   * Keeps the call out of the shop's network; every URL taken from a setting gets one. Without it any address
   * is called, for URLs only the operator sets (LICENSE_SERVER_URL).
   */
  guard?: AddressGuard;
  /** The largest body accepted; `MAX_ANSWER_BYTES` unless told (a product picture may be larger). */
  maxBytes?: number;
}

export interface OutboundAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** No service the shop calls answers more (labels, key sets and API answers are far smaller). */
const MAX_ANSWER_BYTES = 5 * 1024 * 1024;

/**
 * One HTTP exchange with an outside service, bounded by a timeout (the whole exchange, body included) and
 * by `MAX_ANSWER_BYTES`, and never following redirects. Error statuses are answers; no usable answer raises an `OutboundError`.
 */
export function exchange(target: string, call: OutboundExchange): Promise<OutboundAnswer> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return Promise.reject(new OutboundError('refused', `${JSON.stringify(target)} is not an absolute URL`));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return Promise.reject(new OutboundError('refused', `only http and https URLs can be called, not ${url.protocol}`));
  }
  // A literal IP address is connected to without a lookup, so the guard's lookup never sees it.
  if (call.guard?.refusesLiteral(url.hostname)) return Promise.reject(refusal(new RefusedAddressError(url.host)));
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const maxBytes = call.maxBytes ?? MAX_ANSWER_BYTES;
  return new Promise<OutboundAnswer>((resolve, reject) => {
    const request = send(
      url,
      { method: call.method ?? 'GET', headers: call.headers, agent: call.guard?.agentFor(url.protocol) },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size <= maxBytes) return;
          const status = res.statusCode ?? null;
          fail(new OutboundError('garbage', `${url.host} answered more than ${maxBytes} bytes`, status));
          request.destroy();
        });
        res.on('end', () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
        });
        res.on('error', fail);
      },
    );
    const timer = setTimeout(() => {
      fail(new OutboundError('timeout', `no answer from ${url.host} within ${call.timeoutMs} ms`));
      request.destroy();
    }, call.timeoutMs);
    // The first failure settles the promise; the ones a destroyed request raises after it change nothing.
    function fail(error: Error) {
      clearTimeout(timer);
      if (error instanceof OutboundError) return reject(error);
      if (error instanceof RefusedAddressError) return reject(refusal(error));
      const failure = new OutboundError('network', `${url.host} unreachable: ${error.message}`);
      failure.cause = error;
      reject(failure);
    }
    request.on('error', fail);
    request.end(call.body);
  });
}

function refusal(error: RefusedAddressError): OutboundError {
  const failure = new OutboundError('refused', `${error.message}, which the shop may not call`);
  failure.cause = error;
  return failure;
}

export interface OutboundRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  headers?: Record<string, string>;
  /** Sent as JSON unless it is already a string or form data. */
  body?: unknown;
  timeoutMs: number;
  guard?: AddressGuard;
}

export interface OutboundResponse<T> {
  status: number;
  /** The parsed JSON body; undefined when the body was empty. */
  json: T | undefined;
}

/** A JSON exchange (see `exchange`): a body that is not JSON raises `garbage`; HTTP error statuses are returned. */
export async function requestJson<T = unknown>(url: string, request: OutboundRequest): Promise<OutboundResponse<T>> {
  const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
  let body: string | undefined;
  if (request.body instanceof URLSearchParams) {
    body = request.body.toString();
    headers['content-type'] ??= 'application/x-www-form-urlencoded;charset=UTF-8';
  } else if (typeof request.body === 'string') {
    body = request.body;
    headers['content-type'] ??= 'text/plain;charset=UTF-8';
  } else if (request.body !== undefined) {
    body = JSON.stringify(request.body);
    headers['content-type'] ??= 'application/json';
  }
  const answer = await exchange(url, { ...request, headers, body });
  const text = answer.body.toString('utf8');
  if (text.trim() === '') return { status: answer.status, json: undefined };
  try {
    return { status: answer.status, json: JSON.parse(text) as T };
  } catch {
    const message = `${new URL(url).host} answered ${answer.status} with a body that is not JSON`;
    throw new OutboundError('garbage', message, answer.status);
  }
}
