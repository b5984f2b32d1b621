import { KeyObject, verify } from 'node:crypto';

/**
 * What a license token asserts. A token is `<base64url(JSON claims)>.<base64url(Ed25519 signature)>`, the
 * signature made by the license server over the first part's characters, so it is verified offline.
 */
export interface LicenseClaims {
  /** The plugin handle the license is for, e.g. `carrier-a`. */
  plugin: string;
  /** The license server's id of this license. */
  licenseId: string;
  licensee: string;
  edition: string;
  /** ISO 8601 instants; a null expiry never ends. */
  issuedAt: string;
  expiresAt: string | null;
}

/** Why a token is refused: no key to check it with, not a token, a failing signature, another plugin's, expired. */
export type LicenseRefusal = 'no-key' | 'malformed' | 'bad-signature' | 'other-plugin' | 'expired';

export type TokenVerdict = { ok: true; claims: LicenseClaims } | { ok: false; refusal: LicenseRefusal; reason: string };

const MAX_TOKEN_LENGTH = 4096;
const ED25519_SIGNATURE_BYTES = 64;
const TEXT_CLAIMS = { licenseId: 64, licensee: 200, edition: 64 } as const;

/** Checks, in this order, the token's shape, its signature by `publicKey`, its claims, its plugin and its expiry. */
export function verifyLicenseToken(
  token: string,
  plugin: string,
  publicKey: KeyObject | null,
  now = new Date(),
): TokenVerdict {
  if (!publicKey) {
    return refuse(
      'no-key',
      'No license public key is configured: set LICENSE_PUBLIC_KEY to the base64 of the license server key (raw 32-byte Ed25519).',
    );
  }
  const parts = token.split('.');
  if (token.length > MAX_TOKEN_LENGTH || parts.length !== 2 || !parts.every(isCanonicalBase64url)) {
    return refuse('malformed', 'This is not a license token: it should be two base64url parts joined by a dot.');
  }
  const [payload, signature] = parts;
  if (!signatureMatches(payload, signature, publicKey)) {
    return refuse(
      'bad-signature',
      'The signature does not match: the token was altered or was not issued by the configured license server.',
    );
  }
  const claims = parseClaims(payload);
  if (!claims) {
    return refuse(
      'malformed',
      'The token is signed but its claims are incomplete (plugin, licenseId, licensee, edition, issuedAt, expiresAt).',
    );
  }
  if (claims.plugin !== plugin) return refuse('other-plugin', `This license is for ${claims.plugin}, not ${plugin}.`);
  if (claims.expiresAt !== null && Date.parse(claims.expiresAt) <= now.getTime()) {
    return refuse('expired', `This license expired on ${new Date(claims.expiresAt).toISOString().slice(0, 10)}.`);
  }
  return { ok: true, claims };
}

function refuse(refusal: LicenseRefusal, reason: string): TokenVerdict {
  return { ok: false, refusal, reason };
}

/**
 * Node decodes base64url leniently (it skips stray characters and ignores trailing bits), so a changed
 * character could decode to the same bytes; only the canonical spelling of the bytes is accepted.
 */
function isCanonicalBase64url(part: string): boolean {
  return /^[A-Za-z0-9_-]+$/.test(part) && Buffer.from(part, 'base64url').toString('base64url') === part;
}

function signatureMatches(payload: string, signature: string, publicKey: KeyObject): boolean {
  const bytes = Buffer.from(signature, 'base64url');
  if (bytes.length !== ED25519_SIGNATURE_BYTES) return false;
  try {
    return verify(null, Buffer.from(payload, 'ascii'), publicKey, bytes);
  } catch {
    return false;
  }
}

function parseClaims(payload: string): LicenseClaims | null {
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof raw !== 'object' || raw === null) return null;
  const claims = raw as Record<string, unknown>;
  const plugin = claims.plugin;
  if (typeof plugin !== 'string' || !/^[a-z0-9][a-z0-9-]{0,63}$/.test(plugin)) return null;
  for (const [name, maxLength] of Object.entries(TEXT_CLAIMS)) {
    const value = claims[name];
    if (typeof value !== 'string' || value.trim() === '' || value.length > maxLength) return null;
  }
  if (!isInstant(claims.issuedAt) || !(claims.expiresAt === null || isInstant(claims.expiresAt))) return null;
  return {
    plugin,
    licenseId: claims.licenseId as string,
    licensee: claims.licensee as string,
    edition: claims.edition as string,
    issuedAt: claims.issuedAt,
    expiresAt: claims.expiresAt,
  };
}

function isInstant(value: unknown): value is string {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value));
}
