import { createPrivateKey, KeyObject, randomBytes, sign } from 'node:crypto';

/** The claims of a license token (the app's `LicenseClaims`: ISO instants, a null expiry never ends). */
export interface SandboxLicenseClaims {
  plugin: string;
  licenseId: string;
  licensee: string;
  edition: string;
  issuedAt: string;
  expiresAt: string | null;
}

/**
 * SANDBOX-ONLY TEST KEY, public on purpose: it signs the sandbox's test licenses and nothing else. Its public
 * half is SANDBOX_LICENSE_PUBLIC_KEY in src/config/licenses, which the app trusts only while sandboxes are on
 * and no LICENSE_PUBLIC_KEY is set; a real license server keeps its own key to itself.
 */
const SANDBOX_LICENSE_SEED = 'b7fe612a6b83546a61cb9c9c82803cd155a5da9006c3e52bb3cb316630466547';
/** The PKCS#8 DER header of an Ed25519 private key (RFC 8410); the 32-byte seed follows it. */
const PKCS8_ED25519_HEADER = '302e020100300506032b657004220420';

export const SANDBOX_LICENSE_KEY: KeyObject = createPrivateKey({
  key: Buffer.from(PKCS8_ED25519_HEADER + SANDBOX_LICENSE_SEED, 'hex'),
  format: 'der',
  type: 'pkcs8',
});

const DAY_MS = 24 * 60 * 60 * 1000;

/** Test claims for `plugin`, valid for `expiresInDays` (negative: already expired; null: never expires). */
export function testClaims(plugin: string, licensee: string, expiresInDays: number | null): SandboxLicenseClaims {
  const now = Date.now();
  return {
    plugin,
    licenseId: `SBX-${randomBytes(6).toString('hex').toUpperCase()}`,
    licensee,
    edition: 'test',
    issuedAt: new Date(now).toISOString(),
    expiresAt: expiresInDays === null ? null : new Date(now + expiresInDays * DAY_MS).toISOString(),
  };
}

/** `<base64url(JSON claims)>.<base64url(Ed25519 signature over the first part)>`. */
export function signLicense(claims: SandboxLicenseClaims, privateKey: KeyObject = SANDBOX_LICENSE_KEY): string {
  const payload = Buffer.from(JSON.stringify(claims), 'utf8').toString('base64url');
  return `${payload}.${sign(null, Buffer.from(payload, 'ascii'), privateKey).toString('base64url')}`;
}
