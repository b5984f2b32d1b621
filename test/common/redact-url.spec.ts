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
    [
      '/shop/checkout/process-payment?order=abc&paymentId=p1',
      '/shop/checkout/process-payment?order=[redacted]&paymentId=p1',
    ],
    ['/shop/create-new-password?token=t0k3n', '/shop/create-new-password?token=[redacted]'],
    ['/shop/newsletter/confirm?email=a%40b.c&sig=ff', '/shop/newsletter/confirm?email=[redacted]&sig=[redacted]'],
    [
      '/shop/auth/social/google/callback?state=s&code=c',
      '/shop/auth/social/google/callback?state=[redacted]&code=[redacted]',
    ],
    [
      '/shop/checkout/process-payment?AMT=1.00&HMAC=abc&ECDSA=def',
      '/shop/checkout/process-payment?AMT=1.00&HMAC=[redacted]&ECDSA=[redacted]',
    ],
    ['/shop/catalog/products?page=2', '/shop/catalog/products?page=2'],
  ])('%s → %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});
