import { createPublicKey, KeyObject } from 'node:crypto';

/**
 * The sandbox license server's public key (base64 of the raw 32 bytes), derived once from the test seed in
 * src/sandbox/licenses. It verifies sandbox test licenses and nothing else: the app trusts it only while
 * sandboxes are on and no LICENSE_PUBLIC_KEY is set.
 */
export const SANDBOX_LICENSE_PUBLIC_KEY = 'xp0R+xJ9CoAQZB4Pp0jxWDxS6M+sLPNZaAu5h89odXI=';

/** The Ed25519 key a LICENSE_PUBLIC_KEY value stands for; throws unless it is the base64 of 32 bytes. */
export function ed25519PublicKey(base64: string): KeyObject {
  const raw = Buffer.from(base64, 'base64');
  if (raw.length !== 32 || raw.toString('base64') !== base64) {
    throw new Error('must be the base64 of a raw 32-byte Ed25519 public key');
  }
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
}
