import type { RequestOptions } from 'node:http';
import type OAuth2Strategy from 'passport-oauth2';

type Execute = (library: unknown, options: RequestOptions, body: unknown, callback: unknown) => void;

/**
 * Gives every call a strategy makes (token exchange, profile) a deadline. passport-oauth2 talks through
 * node-oauth, which has no timeout at all, and DESIGN.md §5 wants one on every outside call; the abort
 * reaches the strategy as an ordinary request error.
 */
export function withTimeout<T extends OAuth2Strategy>(strategy: T, timeoutMs: number): T {
  const client = (strategy as unknown as { _oauth2: { _executeRequest: Execute } })._oauth2;
  const execute = client._executeRequest.bind(client);
  client._executeRequest = (library, options, body, callback) =>
    execute(library, { ...options, signal: AbortSignal.timeout(timeoutMs) }, body, callback);
  return strategy;
}
