import { createHash, randomBytes } from 'node:crypto';

/** How the token of a link sent by e-mail (password reset, address verification, staff invitation) looks: 256 random bits as hex. */
export const LINK_TOKEN_PATTERN = /^[0-9a-f]{64}$/;

/** A new link token; only its digest is stored, so a copy of the database opens nothing. */
export function newLinkToken(): string {
  return randomBytes(32).toString('hex');
}

/** The stored form of a link token: its SHA-256, as hex. */
export function hashLinkToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
