import { normalizeIp } from '@nestjs/throttler';

/**
 * The address a request counts against in every per-address limit: an IPv6 /64 as one (one subscriber holds
 * the whole block and could rotate through it), an IPv4-mapped IPv6 address as its IPv4 one.
 */
export function clientAddress(ip: string | undefined): string {
  return normalizeIp(ip || 'unknown');
}

/**
 * A login name or e-mail as the database finds it: trimmed, lowercase and without accents, as MySQL's
 * accent-insensitive collations compare them, so `jośe@…` and `jose@…` count against one limit.
 */
export function foldedName(name: string): string {
  return name.normalize('NFKD').replace(/\p{M}/gu, '').trim().toLowerCase();
}
