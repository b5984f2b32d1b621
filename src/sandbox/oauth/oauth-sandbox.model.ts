/** The sandbox OAuth providers' vocabulary: who can sign in, what they hand out, the test switches. */

/** Where the sandbox providers are mounted; each provider lives under `{OAUTH_BASE}/{provider}`. */
export const OAUTH_BASE = '/_sandbox/oauth';

export const PROVIDERS = ['google', 'facebook', 'apple'] as const;
export type Provider = (typeof PROVIDERS)[number];

export const PROVIDER_NAMES: Record<Provider, string> = { google: 'Google', facebook: 'Facebook', apple: 'Apple' };

/** Every sandbox provider accepts any client id with this secret (Apple: a client-secret JWT instead). */
export const SANDBOX_CLIENT_SECRET = 'sandbox-secret';

/** A person who can sign in at every sandbox provider; each provider knows them under its own subject id. */
export interface SandboxUser {
  key: string;
  firstName: string;
  lastName: string;
  email: string;
  emailVerified: boolean;
  subjects: Record<Provider, string>;
}

/** An authorization code: single use, bound to the client and redirect URI it was issued for. */
export interface IssuedCode {
  provider: Provider;
  clientId: string;
  redirectUri: string;
  userKey: string;
  scope: string;
  nonce: string | null;
  expiresAt: number;
}

export interface IssuedAccessToken {
  provider: Provider;
  clientId: string;
  userKey: string;
  scope: string;
  expiresAt: number;
}

/** How the next Apple id_tokens are spoiled, so tests can check the shop rejects them. */
export const ID_TOKEN_FAULTS = [
  'none',
  'bad-signature',
  'wrong-audience',
  'wrong-issuer',
  'expired',
  'wrong-nonce',
] as const;
export type IdTokenFault = (typeof ID_TOKEN_FAULTS)[number];

/** What the token and profile endpoints do: answer, hang past the client's timeout, or fail with 503. */
export const ENDPOINT_MODES = ['normal', 'timeout', 'error'] as const;
export type EndpointMode = (typeof ENDPOINT_MODES)[number];

export const CODE_LIFETIME_MS = 10 * 60 * 1000;
export const TOKEN_LIFETIME_SECONDS = 3600;
