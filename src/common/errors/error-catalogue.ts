import { AppError, FieldErrors } from './app-error';

/** One coded error: its HTTP status and its message, fixed or built from the params the thrower passes. */
export interface ErrorEntry {
  status: number;
  message: string | ((params: never) => string);
}

/** What a throw site may add to a catalogued error, as `AppError` takes it. */
export interface ErrorExtras {
  /** A function gets the message, for a field whose problem the message states. */
  fields?: FieldErrors | ((message: string) => FieldErrors);
  /** Extra facts a client can act on, e.g. `{ available: 2 }` for an out-of-stock answer. */
  details?: Record<string, unknown>;
}

/** A fixed message takes no params; a message template takes its params object first. */
type ErrorFactory<Entry extends ErrorEntry> = Entry['message'] extends (params: infer Params) => string
  ? (params: Params, extras?: ErrorExtras) => AppError
  : (extras?: ErrorExtras) => AppError;

export type ErrorCatalogue<Entries extends Record<string, ErrorEntry>> = {
  readonly [Code in keyof Entries]: ErrorFactory<Entries[Code]>;
};

/**
 * Every code registered so far, across all catalogues. `not_found` and `validation_failed` are AppError's generic
 * codes (`AppError.notFound`, `AppError.invalid`), whose message says what was not found or invalid.
 */
const registeredCodes = new Set<string>(['not_found', 'validation_failed']);

/**
 * A domain's coded errors, one entry per code: `catalogue.code(params?, extras?)` builds the `AppError`. A code
 * registered in a second catalogue throws when the modules load, so each code has exactly one status and message.
 */
export function errorCatalogue<const Entries extends Record<string, ErrorEntry>>(
  entries: Entries,
): ErrorCatalogue<Entries> {
  const factories: Record<string, unknown> = {};
  for (const [code, { status, message }] of Object.entries(entries)) {
    if (registeredCodes.has(code)) throw new Error(`The error code ${code} is already in an error catalogue.`);
    registeredCodes.add(code);
    const build = (text: string, extras: ErrorExtras = {}, params?: Record<string, unknown>) => {
      const fields = typeof extras.fields === 'function' ? extras.fields(text) : extras.fields;
      return new AppError(code, text, status, fields, extras.details, params);
    };
    factories[code] =
      typeof message === 'string'
        ? (extras?: ErrorExtras) => build(message, extras)
        : (params: never, extras?: ErrorExtras) => build(message(params), extras, params);
  }
  return factories as ErrorCatalogue<Entries>;
}
