import type { FlashMessage } from '../../common/session-data';

/** A message in the page's language: a translation key and its parameters (what `t(res, key, params)` takes). */
export interface PageMessage {
  key: string;
  params?: Record<string, unknown>;
}

/** Where a browser goes after its form post. */
export type BrowserTarget =
  /** Back to the page the form was on (its Referer, when a page of this site), else `fallback`. */
  | { back: string }
  /** Always this page of the shop. */
  | { to: string };

/** How a flash message is shown: a success, a neutral note, or an outcome that went wrong without being an error. */
export type FlashKind = 'success' | 'info' | 'error';

/**
 * What a form post (or its AJAX twin) did, as a handler returns it; `AnswerInterceptor` answers it
 * (docs/http-contract.md, _Answers_): scripts and API clients get the `json` body, a browser gets `message`
 * as a flash and a 303 to `target`. Errors are not answers: they are thrown and reach the exception filter.
 */
export class FormAnswer {
  constructor(
    /** The flash: a text shown as it is, or a `PageMessage` shown in the page's language. */
    readonly message: string | PageMessage,
    readonly target: BrowserTarget,
    /**
     * The whole JSON body, built only when JSON is what the client gets (it may price a cart). Without it
     * every client is redirected, as a browser is.
     */
    readonly json?: () => object | Promise<object>,
    readonly flash: FlashKind = 'success',
  ) {}

  /** Done: a browser gets `message` and goes to `target`, a script gets `{ success: true, message, ...facts }`. */
  static done(message: string, target: BrowserTarget, facts: Record<string, unknown> = {}): FormAnswer {
    return new FormAnswer(message, target, () => ({ success: true, message, ...facts }));
  }

  /** A note for a browser only (everyone is redirected): "You are logged out", "No change". */
  static note(flash: FlashKind, message: string | PageMessage, target: BrowserTarget): FormAnswer {
    return new FormAnswer(message, target, undefined, flash);
  }
}

/** A server-rendered page as a handler returns it: the view under `views/`, its model, and how to send it. */
export class PageView {
  constructor(
    readonly view: string,
    readonly model: object,
    readonly options: { status?: number; headers?: Record<string, string> } = {},
  ) {}
}

/**
 * A JSON body sent with its own status to every client, a browser too: for an answer whose body is not the error
 * shape the exception filter gives (a 502 that still says `valid: false`), or that a browser must get as JSON.
 * A plain object returned is sent with the route's status.
 */
export class JsonAnswer {
  constructor(
    readonly status: number,
    readonly body: object,
  ) {}
}

/** A file sent whole (a PDF, a CSV export): shown by the browser (`inline`) or saved (`attachment`). */
export class FileAnswer {
  constructor(
    readonly body: Buffer | string,
    readonly file: {
      /** Its media type, e.g. `application/pdf` or `text/csv; charset=utf-8`. */
      type: string;
      filename: string;
      disposition: 'inline' | 'attachment';
      /** Further headers, e.g. the PDF's own Content-Security-Policy. */
      headers?: Record<string, string>;
    },
  ) {}
}

/**
 * A redirect as a handler returns it; 303 See Other unless told, so a form post is followed by a GET. `flashes` are
 * shown on the page it leads to.
 */
export class Redirect {
  constructor(
    readonly url: string,
    readonly status: 301 | 302 | 303 | 307 = 303,
    readonly flashes: readonly FlashMessage[] = [],
  ) {}
}
