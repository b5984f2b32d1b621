import { errorCatalogue } from './error-catalogue';

/** Codes any area answers with: access, throttling, request bodies, the services and upstreams the shop uses. */
export const commonErrors = errorCatalogue({
  login_required: {
    status: 401,
    message: (p: { where: 'the control panel' | 'your account' }) => `Log in to ${p.where} first.`,
  },
  /** The shop's login names an account by e-mail or username; the CP's by e-mail only. */
  invalid_credentials: {
    status: 401,
    message: (p: { login: 'shop' | 'cp' }) =>
      p.login === 'cp' ? 'Wrong e-mail or password.' : 'The e-mail, username or password is not right.',
  },
  /** Generic, like `not_found`: the message says what is refused and why. */
  forbidden: { status: 403, message: (p: { reason: string }) => p.reason },
  csrf_invalid: {
    status: 403,
    message: 'Your session has expired or the form is stale. Reload the page and try again.',
  },
  /** `wait` is "30 seconds", "a minute", …; the thrower adds `{ retryAfter }` seconds to the details. */
  too_many_requests: {
    status: 429,
    message: (p: { what: string; wait: string }) => `Too many ${p.what}. Try again in ${p.wait}.`,
  },
  invalid_json: { status: 400, message: 'The request body is not valid JSON.' },
  payload_too_large: {
    status: 413,
    message: (p: { limit?: number }) => `The request body is larger than the ${p.limit} bytes allowed.`,
  },
  /** A bank or carrier failed: the message is what it said, or that it did not answer. */
  upstream_failed: { status: 502, message: (p: { failure: string }) => p.failure },
  service_unavailable: {
    status: 503,
    message: 'The shop will be back in a moment. Please try again in a few seconds.',
  },
});
