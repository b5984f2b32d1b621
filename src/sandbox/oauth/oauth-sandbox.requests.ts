import type { Request, Response } from 'express';
import { safeEqual } from '../../common/ids';
import { isHttpUrl } from '../common/http-url';
import { SandboxAnswer } from '../common/sandbox-answers';
import { decodeJwt } from './oauth-sandbox.jwt';
import { OAUTH_BASE, Provider, PROVIDERS, SANDBOX_CLIENT_SECRET } from './oauth-sandbox.model';
import { AuthorizeRequest, ProviderPageAnswer } from './oauth-sandbox.pages';

/** A JSON error in the provider's own shape (RFC 6749 §5.2, or the Graph API's `{ error: { … } }`). */
export class ProviderJsonError extends SandboxAnswer {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(JSON.stringify(body));
  }

  send(res: Response): void {
    if (this.status === 401) res.setHeader('WWW-Authenticate', 'Bearer error="invalid_token"');
    res.status(this.status).json(this.body);
  }
}

/** The Graph API's error body; `code` 190 is a bad access token, 100 a bad parameter. */
export function graphError(code: number, message: string): ProviderJsonError {
  return new ProviderJsonError(400, { error: { message, type: 'OAuthException', code, fbtrace_id: 'sandbox' } });
}

/** A token-endpoint error: the Graph API's shape at Facebook, RFC 6749 §5.2 elsewhere. */
export function tokenError(provider: Provider, error: string, description: string): ProviderJsonError {
  if (provider === 'facebook') return graphError(error === 'invalid_grant' ? 100 : 101, description);
  return new ProviderJsonError(error === 'invalid_client' ? 401 : 400, { error, error_description: description });
}

export function pageProvider(value: string): Provider {
  if ((PROVIDERS as readonly string[]).includes(value)) return value as Provider;
  throw ProviderPageAnswer.message(404, 'Unknown provider', `The sandbox signs in with ${PROVIDERS.join(', ')}.`);
}

export function apiProvider(value: string): Provider {
  if ((PROVIDERS as readonly string[]).includes(value)) return value as Provider;
  throw new ProviderJsonError(404, { error: 'not_found', error_description: `No sandbox provider ${value}.` });
}

function text(input: Record<string, unknown>, name: string): string | null {
  const value = input[name];
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * The authorization request (from the page's query or its form post). Like the real providers, a request
 * that cannot be answered safely (no client, no usable redirect URI) gets an error page, not a redirect.
 * Any redirect URI is accepted: the sandbox has no client registry.
 */
export function readAuthorizeRequest(provider: Provider, input: Record<string, unknown>): AuthorizeRequest {
  const refuse = (detail: string) => ProviderPageAnswer.message(400, 'Invalid request', detail, provider);
  const clientId = text(input, 'client_id');
  if (!clientId) throw refuse('client_id is missing.');
  const redirectUri = text(input, 'redirect_uri');
  if (!redirectUri || !isHttpUrl(redirectUri)) throw refuse('redirect_uri must be an absolute http(s) URL.');
  if (text(input, 'response_type') !== 'code') throw refuse('response_type must be code.');
  const scope = text(input, 'scope') ?? '';
  let responseMode: string | null = null;
  if (provider === 'apple') {
    responseMode = text(input, 'response_mode') ?? 'query';
    if (responseMode !== 'query' && responseMode !== 'form_post') {
      throw refuse('response_mode must be query or form_post.');
    }
    // Apple's rule: the name and e-mail travel in a form post only.
    if (responseMode === 'query' && /\b(name|email)\b/.test(scope)) {
      throw refuse('response_mode must be form_post when name or email scope is requested.');
    }
  }
  return { clientId, redirectUri, scope, state: text(input, 'state'), nonce: text(input, 'nonce'), responseMode };
}

export interface TokenRequest {
  code: string;
  clientId: string;
  redirectUri: string;
}

/** The authorization-code grant with the client's credentials in the form body (`client_secret_post`). */
export function readTokenRequest(provider: Provider, input: Record<string, unknown>, issuer: string): TokenRequest {
  if (text(input, 'grant_type') !== 'authorization_code') {
    throw tokenError(provider, 'unsupported_grant_type', 'grant_type must be authorization_code.');
  }
  const clientId = text(input, 'client_id');
  const clientSecret = text(input, 'client_secret');
  if (!clientId || !clientSecret) {
    throw tokenError(provider, 'invalid_client', 'client_id and client_secret are required.');
  }
  const problem =
    provider === 'apple'
      ? appleClientSecretProblem(clientSecret, clientId, issuer)
      : safeEqual(clientSecret, SANDBOX_CLIENT_SECRET)
        ? null
        : `Wrong client_secret; the sandbox accepts ${SANDBOX_CLIENT_SECRET}.`;
  if (problem) throw tokenError(provider, 'invalid_client', problem);
  const code = text(input, 'code');
  const redirectUri = text(input, 'redirect_uri');
  if (!code || !redirectUri) throw tokenError(provider, 'invalid_request', 'code and redirect_uri are required.');
  return { code, clientId, redirectUri };
}

/** Apple's longest client-secret lifetime: six months. */
const MAX_CLIENT_SECRET_SECONDS = 15_777_000;

/**
 * Apple's client secret is an ES256 JWT the shop signs with its key. The sandbox cannot know that key, so it
 * checks the form and the claims (iss = team id, sub = client id, aud = Apple, a live expiry), not the signature.
 */
function appleClientSecretProblem(secret: string, clientId: string, issuer: string): string | null {
  const jwt = decodeJwt(secret);
  if (!jwt) return 'client_secret must be a JWT signed with your key.';
  const { header, claims } = jwt;
  const now = Math.floor(Date.now() / 1000);
  if (header.alg !== 'ES256' || typeof header.kid !== 'string') return 'client_secret must be ES256 with a kid.';
  if (typeof claims.iss !== 'string' || claims.iss === '') return 'client_secret needs iss (your team id).';
  if (claims.sub !== clientId) return 'client_secret sub must be the client_id.';
  if (claims.aud !== issuer) return `client_secret aud must be ${issuer}.`;
  if (typeof claims.exp !== 'number' || typeof claims.iat !== 'number' || claims.exp <= now) {
    return 'client_secret has expired or lacks iat/exp.';
  }
  if (claims.exp - claims.iat > MAX_CLIENT_SECRET_SECONDS) return 'client_secret may live six months at most.';
  return null;
}

/** The bearer token of a profile request: the Authorization header or the `access_token` query parameter. */
export function bearerToken(req: Request): string | null {
  const header = req.get('authorization');
  if (header?.startsWith('Bearer ')) return header.slice('Bearer '.length).trim();
  return text(req.query as Record<string, unknown>, 'access_token');
}

/** This provider's issuer as the caller reached it, e.g. `http://127.0.0.1:3000/_sandbox/oauth/apple`. */
export function issuerFor(req: Request, provider: Provider): string {
  return `${req.protocol}://${req.get('host')}${OAUTH_BASE}/${provider}`;
}
