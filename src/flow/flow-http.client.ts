import { LookupAddress, lookup } from 'node:dns';
import { request as httpRequest, IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, LookupFunction } from 'node:net';
import { Injectable } from '@nestjs/common';
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

/** Addresses a flow may not call: the shop's own network, loopback, link-local, multicast and reserved. */
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv6');
}
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/**
 * The `httpRequest` flow action's one outside call: a bounded time, no redirects followed, and never an
 * address inside the shop's network, checked on the address actually connected to (a name that resolves
 * to a private address is refused too). Loopback is allowed only while the app runs its sandboxes (never
 * in production), so tests and a local demo can call the app itself.
 */
@Injectable()
export class FlowHttpClient {
  private readonly allowLoopback: boolean;
  private readonly timeoutMs: number;

  constructor(@InjectConfig() config: AppConfig) {
    this.allowLoopback = config.sandboxes;
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
    // A literal IP address is connected to without a lookup, so it is checked here.
    const literal = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal) && this.refused(literal)) throw this.refusal(url.host);
    return url;
  }

  private exchange(url: URL, call: FlowHttpRequest): Promise<number> {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<number>((resolve, reject) => {
      const headers: Record<string, string> = { 'user-agent': 'storefront-flows' };
      if (call.body !== undefined) headers['content-type'] = call.contentType ?? 'text/plain; charset=utf-8';
      const request = send(
        url,
        { method: call.method, headers, lookup: this.guardedLookup },
        (res: IncomingMessage) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
          res.on('error', fail);
        },
      );
      const timer = setTimeout(() => {
        request.destroy();
        reject(new FlowHttpError(`no answer from ${url.host} within ${this.timeoutMs} ms`, true));
      }, this.timeoutMs);
      function fail(error: Error) {
        reject(
          error instanceof FlowHttpError ? error : new FlowHttpError(`${url.host} unreachable: ${error.message}`, true),
        );
      }
      request.on('error', fail);
      request.on('close', () => clearTimeout(timer));
      request.end(call.body);
    });
  }

  /** `lookup` for the connection: resolves the name, then refuses it if any address is private. */
  private readonly guardedLookup: LookupFunction = (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      if (addresses.some((address) => this.refused(address.address))) {
        return callback(this.refusal(hostname), '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };

  /** BlockList also matches IPv4-mapped IPv6 addresses (`::ffff:10.0.0.1`) against the IPv4 ranges. */
  private refused(address: string): boolean {
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (LOOPBACK.check(address, family)) return !this.allowLoopback;
    return PRIVATE.check(address, family);
  }

  private refusal(host: string): FlowHttpError {
    return new FlowHttpError(`${host} is a private or loopback address, which flows may not call`, false);
  }
}
