import { LookupAddress, lookup } from 'node:dns';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { BlockList, isIP, LookupFunction } from 'node:net';

/** The shop's own network: private, shared, link-local, benchmarking, multicast, reserved and unspecified. */
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

/** A call the guard stopped before it connected: the host is, or resolves to, an address it refuses. */
export class RefusedAddressError extends Error {
  constructor(readonly host: string) {
    super(`${host} is a private or loopback address`);
  }
}

/**
 * Keeps a server-side call out of the shop's own network (SSRF): private, link-local, multicast, reserved
 * and unspecified addresses are refused, and loopback too unless allowed, which only the sandboxes do
 * (never in production), so tests and the demo can call the app itself. Names are checked on the addresses
 * they resolve to when the connection is made (`lookup`, through the guard's own agents), so a public name
 * pointing inward is refused as well; an IP literal is connected to without a lookup, so callers check it
 * first with `refusesLiteral`.
 */
export class AddressGuard {
  private static readonly shared = new Map<boolean, AddressGuard>();

  /** Sockets opened under this guard's lookup are pooled apart from unguarded ones. */
  private readonly agents: Record<'http:' | 'https:', HttpAgent>;

  private constructor(private readonly allowLoopback: boolean) {
    this.agents = {
      'http:': new HttpAgent({ keepAlive: true, lookup: this.lookup }),
      'https:': new HttpsAgent({ keepAlive: true, lookup: this.lookup }),
    };
  }

  /** The guard for calls the shop makes on its settings: loopback only while the sandboxes run. */
  static forSandboxes(sandboxes: boolean): AddressGuard {
    let guard = AddressGuard.shared.get(sandboxes);
    if (!guard) AddressGuard.shared.set(sandboxes, (guard = new AddressGuard(sandboxes)));
    return guard;
  }

  /** Whether an IP address may not be called. IPv4-mapped IPv6 (`::ffff:10.0.0.1`) counts as its IPv4. */
  refuses(address: string): boolean {
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (LOOPBACK.check(address, family)) return !this.allowLoopback;
    return PRIVATE.check(address, family);
  }

  /** Whether a host (`10.0.0.1`, `[::1]`, `::1`) is an IP literal the guard refuses; names pass here. */
  refusesLiteral(host: string): boolean {
    const literal = host.replace(/^\[|\]$/g, '');
    return isIP(literal) !== 0 && this.refuses(literal);
  }

  /** The agent for a URL's protocol, whose connections resolve names through the guard. */
  agentFor(protocol: string): HttpAgent {
    return protocol === 'https:' ? this.agents['https:'] : this.agents['http:'];
  }

  /** `lookup` for a connection: resolves the name, and fails when any of its addresses is refused. */
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 0);
      if (addresses.some((address) => this.refuses(address.address))) {
        return callback(new RefusedAddressError(hostname), '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
