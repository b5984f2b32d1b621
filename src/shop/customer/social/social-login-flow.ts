import { randomBytes } from 'node:crypto';
import type { Request } from 'express';
import { SocialProvider } from '../../../commerce/customers/social-identity';

/** A login this browser started and has not finished: what the callback checks and needs. */
export interface PendingSocialLogin {
  provider: SocialProvider;
  nonce: string;
  /** Where to go once logged in: a path on this site, or null for the account page. */
  returnTo: string | null;
  expiresAt: number;
}

declare module 'express-session' {
  interface SessionData {
    /** Pending social logins by their `state`; a few at once, so two tabs do not spoil each other's. */
    socialLogins?: Record<string, PendingSocialLogin>;
  }
}

/** Long enough to pick an account and confirm at the provider; the callback is refused afterwards. */
const FLOW_LIFETIME_MS = 10 * 60 * 1000;
const MAX_PENDING = 5;

/** Remembers a new login in the session; `state` and `nonce` are random per flow (128 bits each). */
export function beginSocialLogin(req: Request, provider: SocialProvider, returnTo: string | null) {
  const state = randomBytes(16).toString('hex');
  const nonce = randomBytes(16).toString('hex');
  const now = Date.now();
  const live = Object.entries(req.session.socialLogins ?? {})
    .filter(([, login]) => login.expiresAt > now)
    .slice(-(MAX_PENDING - 1));
  req.session.socialLogins = Object.fromEntries([
    ...live,
    [state, { provider, nonce, returnTo, expiresAt: now + FLOW_LIFETIME_MS }],
  ]);
  return { state, nonce };
}

/**
 * The pending login the callback's `state` names, removed from the session so it is used once; null when
 * the state is missing, unknown (tampered, or another browser's), expired or for another provider.
 */
export function takeSocialLogin(req: Request, provider: SocialProvider, state: unknown): PendingSocialLogin | null {
  const pending = req.session.socialLogins;
  // hasOwn: the state is the caller's text, and `__proto__` must not find Object.prototype.
  if (typeof state !== 'string' || !pending || !Object.hasOwn(pending, state)) return null;
  const login = pending[state];
  delete pending[state];
  if (Object.keys(pending).length === 0) delete req.session.socialLogins;
  return login.provider === provider && login.expiresAt > Date.now() ? login : null;
}
