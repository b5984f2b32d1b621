import { QueryFailedError } from 'typeorm';
import { AppError } from './app-error';
import { commonErrors } from './common-errors';

/** The services the shop stands on. */
export type Dependency = 'database' | 'redis';

/** Seconds a 503 asks the client to wait: about the time a restarted Redis or MariaDB takes to come back. */
export const RETRY_AFTER_S = 5;

/** The one answer while a dependency is away: 503 `service_unavailable` with `Retry-After`. */
export function serviceUnavailable(): AppError {
  return commonErrors.service_unavailable({ details: { retryAfter: RETRY_AFTER_S } });
}

/**
 * node-redis's and ioredis's errors for a connection that is down, closed or not ready. Matched by class name: the
 * clients load only when Redis is configured, and neither names its errors.
 */
const REDIS_ERRORS = new Set([
  'ClientClosedError',
  'ClientOfflineError',
  'SocketClosedUnexpectedlyError',
  'ConnectionTimeoutError',
  'SocketTimeoutError',
  'ReconnectStrategyError',
  'MaxRetriesPerRequestError',
]);
const IOREDIS_MESSAGES = ['Connection is closed.', "Stream isn't writeable and enableOfflineQueue options is false"];

/** Server-side MySQL/MariaDB errors that mean "not now" rather than "not this query". */
const MYSQL_GOING_AWAY = new Set([
  'ER_SERVER_SHUTDOWN',
  'ER_NORMAL_SHUTDOWN',
  'ER_SHUTDOWN_COMPLETE',
  'ER_CON_COUNT_ERROR',
  'ER_CONNECTION_KILLED',
]);

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

interface DriverError {
  code?: unknown;
  fatal?: unknown;
  sqlState?: unknown;
}

/**
 * The dependency an error says is unreachable, or null when it is about something else. TypeORM wraps a failed
 * query (QueryFailedError), but hands over a pool's failure to connect as mysql2 raised it; mysql2 marks every error
 * that ends a connection `fatal` (ECONNREFUSED, ECONNRESET, PROTOCOL_CONNECTION_LOST, "connection is in closed
 * state"). A bare socket error without that mark comes from a Redis client: node-redis fails the commands in flight
 * with its socket's error.
 */
export function unavailableDependency(error: unknown): Dependency | null {
  // Not `instanceof Error`: socket errors are made by Node itself, which may be another realm's Error (under jest).
  if (typeof error !== 'object' || error === null) return null;
  const cause = error instanceof QueryFailedError ? (error.driverError as DriverError | undefined) : error;
  const { code, fatal, sqlState } = (cause ?? {}) as DriverError;
  if (fatal === true || (typeof code === 'string' && MYSQL_GOING_AWAY.has(code))) return 'database';
  if (error instanceof QueryFailedError) return null;
  const { message } = error as { message?: unknown };
  if (REDIS_ERRORS.has(error.constructor.name) || IOREDIS_MESSAGES.includes(String(message))) return 'redis';
  if (typeof code === 'string' && NETWORK_CODES.has(code) && sqlState === undefined) return 'redis';
  return null;
}
