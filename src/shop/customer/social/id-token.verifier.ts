import { JsonWebKey } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AddressGuard } from '../../../common/outbound-address';
import { requestJson } from '../../../common/outbound-http';
import { AppConfig } from '../../../config/app-config';
import { InjectConfig } from '../../../config/config.module';
import { decodeJwt, DecodedJwt, verifyJwtSignature } from './jwt';

/** An id_token the shop will not trust; the message says why (for the log, not the shopper). */
export class IdTokenRejected extends Error {}

export interface IdTokenExpectations {
  jwksUrl: string;
  issuer: string;
  /** Our client id. */
  audience: string;
  /** The nonce sent with the authorization request. */
  nonce: string;
}

/** Providers rotate keys rarely; a token signed with a key we have not seen makes us look again sooner. */
const KEYS_TTL_MS = 60 * 60 * 1000;
const UNKNOWN_KID_REFETCH_MS = 60 * 1000;
/** Tolerated clock difference between the provider and us. */
const CLOCK_SKEW_SECONDS = 60;

interface KeySet {
  keys: JsonWebKey[];
  fetchedAt: number;
}

/**
 * Checks an OpenID Connect id_token (Apple's): RS256/ES256 signature against the provider's JWKS, then
 * `iss`, `aud`, `exp`, `iat` and `nonce`. The key set is cached per URL in this process: it is a public,
 * rarely changing document, so each instance keeping its own copy costs nothing.
 */
@Injectable()
export class IdTokenVerifier {
  private readonly keySets = new Map<string, KeySet>();

  constructor(@InjectConfig() private readonly config: AppConfig) {}

  /** The token's claims once everything checks out; `IdTokenRejected` otherwise. */
  async verify(token: unknown, expected: IdTokenExpectations): Promise<Record<string, unknown>> {
    const jwt = typeof token === 'string' ? decodeJwt(token) : null;
    if (!jwt) throw new IdTokenRejected('the token endpoint returned no id_token');
    const jwk = await this.signingKey(jwt, expected.jwksUrl);
    if (!verifyJwtSignature(jwt, jwk)) throw new IdTokenRejected('the id_token signature does not verify');
    checkClaims(jwt.claims, expected);
    return jwt.claims;
  }

  private async signingKey(jwt: DecodedJwt, jwksUrl: string): Promise<JsonWebKey> {
    const { kid } = jwt.header;
    if (typeof kid !== 'string') throw new IdTokenRejected('the id_token names no key (kid)');
    let keySet = this.keySets.get(jwksUrl);
    const stale = !keySet || Date.now() - keySet.fetchedAt > KEYS_TTL_MS;
    const unknownKid = keySet && !keySet.keys.some((key) => key.kid === kid);
    if (stale || (unknownKid && Date.now() - keySet!.fetchedAt > UNKNOWN_KID_REFETCH_MS)) {
      keySet = await this.fetchKeys(jwksUrl);
      this.keySets.set(jwksUrl, keySet);
    }
    const jwk = keySet!.keys.find((key) => key.kid === kid);
    if (!jwk) throw new IdTokenRejected(`the id_token is signed with an unknown key ${kid}`);
    return jwk;
  }

  private async fetchKeys(jwksUrl: string): Promise<KeySet> {
    const answer = await requestJson<{ keys?: unknown }>(jwksUrl, {
      timeoutMs: this.config.outboundTimeoutMs,
      guard: AddressGuard.forSandboxes(this.config.sandboxes),
    });
    const keys = answer.json?.keys;
    if (answer.status !== 200 || !Array.isArray(keys)) {
      throw new IdTokenRejected(`the key set at ${jwksUrl} answered ${answer.status} without keys`);
    }
    return { keys: keys as JsonWebKey[], fetchedAt: Date.now() };
  }
}

function checkClaims(claims: Record<string, unknown>, expected: IdTokenExpectations): void {
  const now = Math.floor(Date.now() / 1000);
  if (claims.iss !== expected.issuer) throw new IdTokenRejected(`the id_token was issued by ${String(claims.iss)}`);
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audiences.includes(expected.audience)) throw new IdTokenRejected('the id_token is meant for another client');
  if (typeof claims.exp !== 'number' || claims.exp < now - CLOCK_SKEW_SECONDS) {
    throw new IdTokenRejected('the id_token has expired');
  }
  if (typeof claims.iat !== 'number' || claims.iat > now + CLOCK_SKEW_SECONDS) {
    throw new IdTokenRejected('the id_token was issued in the future');
  }
  if (claims.nonce !== expected.nonce) throw new IdTokenRejected('the id_token nonce is not the one we sent');
  if (typeof claims.sub !== 'string' || claims.sub === '') throw new IdTokenRejected('the id_token has no subject');
}
