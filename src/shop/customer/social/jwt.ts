import { createPrivateKey, createPublicKey, JsonWebKey, sign, verify } from 'node:crypto';

/** A compact JWT taken apart; nothing in it is trusted until `verifyJwtSignature` says so. */
export interface DecodedJwt {
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
  signingInput: string;
  signature: Buffer;
}

const encodePart = (value: Record<string, unknown>) => Buffer.from(JSON.stringify(value)).toString('base64url');

function decodePart(part: string): Record<string, unknown> | null {
  const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

export function decodeJwt(token: string): DecodedJwt | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  try {
    const header = decodePart(parts[0]);
    const claims = decodePart(parts[1]);
    if (!header || !claims) return null;
    return { header, claims, signingInput: `${parts[0]}.${parts[1]}`, signature: Buffer.from(parts[2], 'base64url') };
  } catch {
    return null;
  }
}

/** An ES256 JWT signed with a PEM private key (JWS wants the raw r‖s signature, not DER). */
export function signEs256(kid: string, claims: Record<string, unknown>, privateKeyPem: string): string {
  const input = `${encodePart({ alg: 'ES256', kid })}.${encodePart(claims)}`;
  const signature = sign('sha256', Buffer.from(input), {
    key: createPrivateKey(privateKeyPem),
    dsaEncoding: 'ieee-p1363',
  });
  return `${input}.${signature.toString('base64url')}`;
}

/** True when the signature verifies with `jwk` under the header's algorithm (RS256 or ES256 only). */
export function verifyJwtSignature(jwt: DecodedJwt, jwk: JsonWebKey): boolean {
  const { alg } = jwt.header;
  const fits = (alg === 'RS256' && jwk.kty === 'RSA') || (alg === 'ES256' && jwk.kty === 'EC' && jwk.crv === 'P-256');
  if (!fits) return false;
  try {
    const key = createPublicKey({ key: jwk, format: 'jwk' });
    const data = Buffer.from(jwt.signingInput);
    return alg === 'ES256'
      ? verify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, jwt.signature)
      : verify('sha256', data, key, jwt.signature);
  } catch {
    return false;
  }
}
