import { createHash, generateKeyPairSync, JsonWebKey, KeyObject, sign } from 'node:crypto';

interface SigningKey {
  kid: string;
  privateKey: KeyObject;
  publicJwk: JsonWebKey;
}

let signingKey: SigningKey | undefined;

/** The sandbox Apple's RS256 key pair, made once per process on first use; the JWKS publishes its public half. */
function signingKeyPair(): SigningKey {
  if (!signingKey) {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwk = publicKey.export({ format: 'jwk' });
    const kid = createHash('sha256').update(String(jwk.n)).digest('base64url').slice(0, 10);
    signingKey = { kid, privateKey, publicJwk: { ...jwk, kid, use: 'sig', alg: 'RS256' } };
  }
  return signingKey;
}

/** `GET /auth/keys`: Apple's JWKS shape. */
export function publicKeySet(): { keys: JsonWebKey[] } {
  return { keys: [signingKeyPair().publicJwk] };
}

/** An RS256 JWT; `spoilSignature` flips a bit of the signature, as a forger without the key would produce. */
export function signJwt(claims: Record<string, unknown>, spoilSignature = false): string {
  const { kid, privateKey } = signingKeyPair();
  const input = `${encodePart({ alg: 'RS256', kid })}.${encodePart(claims)}`;
  const signature = sign('sha256', Buffer.from(input), privateKey);
  if (spoilSignature) signature[signature.length - 1] ^= 0x01;
  return `${input}.${signature.toString('base64url')}`;
}

export interface DecodedJwt {
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
}

/** Header and claims of a compact JWT, or null when it is not one. The signature is not checked. */
export function decodeJwt(token: string): DecodedJwt | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  try {
    const header: unknown = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
    const claims: unknown = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    return isObject(header) && isObject(claims) ? { header, claims } : null;
  } catch {
    return null;
  }
}

function encodePart(value: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
