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

/**
 * What a form post (or its AJAX twin) did, as a handler returns it; `FormAnswerInterceptor` answers it
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
  ) {}
}

/** A server-rendered page as a handler returns it: the view under `views/`, its model, and how to send it. */
export class PageView {
  constructor(
    readonly view: string,
    readonly model: object,
    readonly options: { status?: number; headers?: Record<string, string> } = {},
  ) {}
}

/** A redirect as a handler returns it; 303 See Other unless told, so a form post is followed by a GET. */
export class Redirect {
  constructor(
    readonly url: string,
    readonly status: 301 | 302 | 303 | 307 = 303,
  ) {}
}
