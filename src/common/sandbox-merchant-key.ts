import { createHmac } from 'node:crypto';

/**
 * The sandbox bank's CardPay key for merchant `demo` on this install (128 hex characters): made from the session
 * secret, so only this install's demo seed and sandbox bank know it. A published key would let anyone sign a
 * "paid" return for a demo shop that later goes live with it.
 */
export function sandboxMerchantKey(sessionSecret: string): string {
  return createHmac('sha512', sessionSecret).update('sandbox bank: CardPay key of merchant demo').digest('hex');
}
