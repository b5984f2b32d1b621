/** Query parameters that carry credentials: reset tokens, signed links, OAuth codes, guest order numbers. */
const SECRET_PARAMS = /([?&](?:token|sig|code|state|order|order_number|email|HMAC|ECDSA)=)[^&#]*/gi;

/**
 * Path segments that are credentials themselves: webhook secrets and guest order numbers. Case-insensitive
 * like the router, and the webhook's also after doubled or encoded slashes, so no spelling that reaches (or
 * nearly reaches) a route carries its secret into a log.
 */
const SECRET_SEGMENTS = /(\/flow\/webhook(?:\/|%2f)+|\/shop\/order\/(?:view|pay)\/|\/process-payment\/)[^/?#]+/gi;

/** A request URL fit for logs: every credential it may carry replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_SEGMENTS, '$1[redacted]').replace(SECRET_PARAMS, '$1[redacted]');
}
