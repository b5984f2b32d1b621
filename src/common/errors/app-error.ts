/** Field name → messages, as in the JSON error body's `error.fields`. */
export type FieldErrors = Record<string, string[]>;

/**
 * An expected business outcome (out of stock, illegal transition, bad input) with a stable `code`.
 * The exception filter maps it to the JSON error shape of docs/http-contract.md or to a flash + redirect.
 */
export class AppError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 400,
    readonly fields?: FieldErrors,
    /** Extra facts a client can act on, e.g. `{ available: 2 }` for an out-of-stock answer. */
    readonly details?: Record<string, unknown>,
    /** What a catalogued message was made from: a translation of it (`errors.<code>`) is filled from them too. */
    readonly params?: Record<string, unknown>,
  ) {
    super(message);
  }

  static notFound(message = 'Not found'): AppError {
    return new AppError('not_found', message, 404);
  }

  static conflict(code: string, message: string): AppError {
    return new AppError(code, message, 409);
  }

  static invalid(fields: FieldErrors, message = 'Please correct the highlighted fields'): AppError {
    return new AppError('validation_failed', message, 400, fields);
  }
}

/** Thrown by CP guards when no CP user is logged in: answered with a redirect to the CP login. */
export class CpLoginRequired extends Error {}

/** Thrown by account guards when no customer is logged in: pages redirect to the shop login, JSON gets a 401. */
export class CustomerLoginRequired extends Error {}
