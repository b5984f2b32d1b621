import type { RequestOptions } from 'node:http';
import type OAuth2Strategy from 'passport-oauth2';
import { AddressGuard, RefusedAddressError } from '../../../common/outbound-address';

type Library = { globalAgent: { protocol?: string } };
type Execute = (library: Library, options: RequestOptions, body: unknown, callback: (error: unknown) => void) => void;

/**
 * Bounds every call a strategy makes (token exchange with the client secret, profile): a deadline, since
 * passport-oauth2 talks through node-oauth, which has no timeout at all and docs/architecture.md wants one on every
 * outside call; and the address guard, since the provider's base URL is a setting and the secret must not
 * go into the shop's own network. Both reach the strategy as an ordinary request error.
 */
export function bounded<T extends OAuth2Strategy>(strategy: T, timeoutMs: number, guard: AddressGuard): T {
  const client = (strategy as unknown as { _oauth2: { _executeRequest: Execute } })._oauth2;
  const execute = client._executeRequest.bind(client);
  client._executeRequest = (library, options, body, callback) => {
    const host = options.host ?? '';
    if (guard.refusesLiteral(host)) return callback(new RefusedAddressError(host));
    const agent = guard.agentFor(library.globalAgent.protocol ?? 'http:');
    execute(library, { ...options, agent, signal: AbortSignal.timeout(timeoutMs) }, body, callback);
  };
  return strategy;
}
