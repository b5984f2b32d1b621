import { generateKeyPairSync } from 'node:crypto';
import { sandboxMerchantKey } from '../../common/sandbox-merchant-key';

/**
 * A demo shop has every feature on and every integration pointed at its sandbox (docs/demo-catalog.md). The CardPay key
 * is the one the sandbox bank gives this install: no published key is ever stored.
 */
export function demoSettings(sessionSecret: string): Record<string, unknown> {
  return { ...DEMO_SETTINGS, 'bankpay.secretKey': sandboxMerchantKey(sessionSecret) };
}

const DEMO_SETTINGS: Record<string, unknown> = {
  customerAccountsEnabled: true,
  salesCheckoutEnableAjax: true,
  salesCouponsEnabled: true,
  salesAbandonedCartsEnabled: true,
  salesGiftCardsEnabled: true,
  salesValidateVAT: true,
  salesValidateVATType: 'format_existence',
  salesDeliveryTimeEnabled: true,
  flowsEnabled: true,
  salesCashOnDeliveryEnabled: true,
  salesCashOnDeliveryFee: 150,
  salesBankTransferEnabled: true,
  salesBankTransferHolder: 'Demo Outdoor & Coffee s.r.o.',
  salesBankTransferIban: 'SK31 1200 0000 1987 4263 7541',
  salesBankTransferBic: 'SUBASKBX',
  salesSellerAddress: 'Hlavná 12, 811 01 Bratislava',
  salesSellerVatId: 'SK2020123456',
  'bankpay.paymentType': 'bankPayPlusAPI',
  // The sandbox bank lets the shopper pick each outcome; the gateway's sandbox mode would force them all to OK.
  'bankpay.sandbox': false,
  'bankpay.enablePayLaterType': true,
  'bankpay.enableBankTransfer': true,
  'bankpay.enableQrPay': true,
  'bankpay.merchantMid': 'demo',
  'bankpay.apiKey': 'sandbox-client',
  'bankpay.clientSecret': 'sandbox-secret',
  'carrier-a.sandbox': true,
  'carrier-a.username': 'sandbox',
  'carrier-a.password': 'sandbox',
  'carrier-a.pickupPointsEnabled': true,
  'carrier-a.autoCreateStatus': 'paid',
  'carrier-b.apiKey': 'sandbox-widget-key',
  'carrier-b.countryPricesEnabled': true,
  'carrier-b.countryPrices': { sk: 290, cz: 350 },
  'carrier-b.countryFreeShippingThresholds': { sk: 5000, cz: 6000 },
};

/**
 * Social logins against the sandbox providers (src/sandbox/oauth), which take any client id with secret
 * `sandbox-secret`; Apple's client secret is a JWT signed with the team's key, here one made for this demo.
 * Only where the sandboxes run: in production these would send shoppers to the real providers.
 */
export function demoSocialLogins(): Record<string, unknown> {
  return {
    'social.google.clientId': 'demo-shop',
    'social.google.clientSecret': 'sandbox-secret',
    'social.facebook.clientId': 'demo-shop',
    'social.facebook.clientSecret': 'sandbox-secret',
    'social.apple.clientId': 'com.example.demo-shop',
    'social.apple.teamId': 'SANDBOX001',
    'social.apple.keyId': 'SANDBOXKEY',
    'social.apple.privateKey': generateKeyPairSync('ec', { namedCurve: 'P-256' })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString(),
  };
}
