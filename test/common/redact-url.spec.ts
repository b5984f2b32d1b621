import { redactUrl } from '../../src/common/redact-url';

describe('redactUrl', () => {
  it.each([
    ['/core/flow/webhook/s3cr3t?x=1', '/core/flow/webhook/[redacted]?x=1'],
    ['/core/flow/webhook/s3cr3t/', '/core/flow/webhook/[redacted]/'],
    ['/CORE/Flow/WebHook/s3cr3t', '/CORE/Flow/WebHook/[redacted]'],
    ['/core/flow/webhook//s3cr3t', '/core/flow/webhook//[redacted]'],
    ['/core/flow/webhook%2Fs3cr3t', '/core/flow/webhook%2F[redacted]'],
    ['/shop/order/view/0123456789abcdef0123456789abcdef', '/shop/order/view/[redacted]'],
    ['/shop/order/pay/0123456789abcdef0123456789abcdef?a=b', '/shop/order/pay/[redacted]?a=b'],
    ['/shop/checkout/process-payment/0123456789abcdef?AMT=1', '/shop/checkout/process-payment/[redacted]?AMT=1'],
    [
      '/shop/checkout/process-payment?order=abc&paymentId=p1',
      '/shop/checkout/process-payment?order=[redacted]&paymentId=p1',
    ],
    ['/shop/cart/share/0123456789abcdef0123456789abcdef', '/shop/cart/share/[redacted]'],
    ['/shop/marketing/abandoned-carts/recover/3f2a-uid', '/shop/marketing/abandoned-carts/recover/[redacted]'],
    ['/shop/marketing/gift-cards/item-details/GIFT-ABCD-1234', '/shop/marketing/gift-cards/item-details/[redacted]'],
    ['/shop/marketing/gift-cards/preview-card/GIFT-ABCD-1234', '/shop/marketing/gift-cards/preview-card/[redacted]'],
    ['/shop/marketing/gift-cards/preview/12', '/shop/marketing/gift-cards/preview/12'],
    ['/shop/wishlist/shared/12/ff00ee', '/shop/wishlist/shared/12/[redacted]'],
    ['/shop/wishlist/shared/12%2Fff00ee', '/shop/wishlist/shared/12%2F[redacted]'],
    ['/shop/login?return=%2Fshop%2Fcart%2Fshare%2Ff00d', '/shop/login?return=%2Fshop%2Fcart%2Fshare%2F[redacted]'],
    ['/shop/create-new-password?token=t0k3n', '/shop/create-new-password?token=[redacted]'],
    ['/shop/verify-otp?to%6Ben=t0k3n', '/shop/verify-otp?to%6Ben=[redacted]'],
    ['/shop/verify-otp?token[]=t0k3n', '/shop/verify-otp?token[]=[redacted]'],
    ['/shop/newsletter/confirm?email=a%40b.c&sig=ff', '/shop/newsletter/confirm?email=[redacted]&sig=[redacted]'],
    [
      '/shop/auth/social/google/callback?state=s&code=c',
      '/shop/auth/social/google/callback?state=[redacted]&code=[redacted]',
    ],
    [
      '/shop/checkout/process-payment?AMT=1.00&HMAC=abc&ECDSA=def',
      '/shop/checkout/process-payment?AMT=1.00&HMAC=[redacted]&ECDSA=[redacted]',
    ],
    [
      '/_sandbox/oauth/facebook/me?fields=id&access_token=t&appsecret_proof=p',
      '/_sandbox/oauth/facebook/me?fields=id&access_token=[redacted]&appsecret_proof=[redacted]',
    ],
    ['/shop/catalog/products?page=2&q=%E0', '/shop/catalog/products?page=2&q=%E0'],
  ])('%s → %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});
