/**
 * Routes whose path is a bearer credential, spelled as their controllers declare them: whoever holds the URL
 * holds the thing (a webhook, a guest order, a cart, a gift card, a wishlist, a staff invitation). `:secret` marks the segment no log
 * may keep; another `:param` stands for any segment. A new route of that kind belongs in this list.
 */
export const SECRET_ROUTES = [
  '/core/flow/webhook/:secret',
  '/shop/order/view/:secret',
  '/shop/order/pay/:secret',
  '/shop/order/cancel/:secret',
  '/shop/order/withdraw/:secret',
  '/shop/checkout/process-payment/:secret',
  '/shop/cart/share/:secret',
  '/shop/marketing/abandoned-carts/recover/:secret',
  '/shop/marketing/gift-cards/item-details/:secret',
  '/shop/marketing/gift-cards/preview-card/:secret',
  '/shop/wishlist/shared/:id/:secret',
  // A CP staff member's invitation or password-reset link, under whatever CP_TRIGGER names the CP.
  '/:cpTrigger/set-password/:secret',
];

/**
 * Query parameters that carry credentials: reset tokens, signed links (and the address they sign), OAuth codes
 * and state, guest order numbers, the card gateway's signatures, a Graph API token and its proof.
 */
const SECRET_PARAMS = new Set([
  'token',
  'sig',
  'code',
  'state',
  'order',
  'order_number',
  'email',
  'hmac',
  'ecdsa',
  'access_token',
  'appsecret_proof',
]);

const REDACTED = '[redacted]';

/**
 * One pattern per route, `$1` being everything before the secret. Case-insensitive like the router, and a slash
 * may be doubled or percent-encoded, so no spelling that reaches (or nearly reaches) a route, nor a route
 * quoted in another URL's query (`?return=%2Fshop%2Fcart%2Fshare%2F…`), carries its secret into a log.
 */
const SECRET_SEGMENTS = SECRET_ROUTES.map((route) => {
  const slash = '(?:/|%2f)+';
  const [before] = route.split('/:secret');
  const prefix = before
    .split('/')
    .filter(Boolean)
    .map((segment) => (segment.startsWith(':') ? '[^/?#]+?' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join(slash);
  return new RegExp(`(${slash}${prefix}${slash})[^/?#]+`, 'gi');
});

/** A request URL fit for logs: every credential it may carry replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  const redacted = SECRET_SEGMENTS.reduce((text, pattern) => text.replace(pattern, `$1${REDACTED}`), url);
  const queryStart = redacted.indexOf('?');
  if (queryStart < 0) return redacted;
  const query = redacted
    .slice(queryStart + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      return equals >= 0 && SECRET_PARAMS.has(paramName(pair.slice(0, equals)))
        ? `${pair.slice(0, equals)}=${REDACTED}`
        : pair;
    })
    .join('&');
  return `${redacted.slice(0, queryStart)}?${query}`;
}

/** A parameter's name, loosely: `to%6Ben`, `token[]` and `TOKEN` all count as `token` (too much redacted costs nothing). */
function paramName(raw: string): string {
  let name = raw.replace(/\+/g, ' ');
  try {
    name = decodeURIComponent(name);
  } catch {
    // A malformed escape: the name as it was written.
  }
  return name.replace(/\[.*$/, '').toLowerCase();
}
