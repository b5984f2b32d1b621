import { SettingDefinition } from '../../plugin-api';
import { SECRET_KEY_PATTERN } from './card-pay/card-pay-signature';

const MERCHANT_MID = /^[a-z0-9]{3,4}$/;

/** Blank means "not configured"; the gateway refuses to start a payment that needs a blank credential. */
const blankOr = (pattern: RegExp, rule: string) => (value: unknown) =>
  value === '' || pattern.test(String(value)) ? undefined : rule;

const notNegative = (value: unknown) => ((value as number) < 0 ? 'must not be negative' : undefined);

const countryList = (value: unknown) =>
  Array.isArray(value) && value.every((code) => typeof code === 'string' && /^[A-Z]{2}$/.test(code))
    ? undefined
    : 'must be a JSON array of two-letter country codes, e.g. ["SK","CZ"]';

const pemKeys = (value: unknown) =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.values(value).every((pem) => typeof pem === 'string' && pem.includes('BEGIN PUBLIC KEY'))
    ? undefined
    : 'must be a JSON object of key id to PEM public key';

/** Settings of the bank payment gateway plugin (docs/configuration.md). */
export const BANKPAY_SETTINGS = [
  {
    key: 'bankpay.paymentType',
    type: 'string',
    default: 'bankPayPlusAPI',
    choices: ['bankCardPay', 'bankPayPlusAPI'],
    description: 'Payment Type: signed card redirect or the REST API',
  },
  {
    key: 'bankpay.sandbox',
    type: 'boolean',
    default: false,
    description: 'Sandbox mode: return validation treats every authorization as OK',
    loosensSecurity: 'every PayPlus return counts as paid, whatever the bank answered',
  },
  { key: 'bankpay.enablePayLaterType', type: 'boolean', default: false, description: 'Offer the pay-later loan' },
  {
    key: 'bankpay.enableBankTransfer',
    type: 'boolean',
    default: false,
    description: 'Offer bank transfer (REST API only)',
  },
  { key: 'bankpay.enableQrPay', type: 'boolean', default: false, description: 'Offer QR payment (REST API only)' },
  {
    key: 'bankpay.merchantMid',
    type: 'string',
    default: '',
    description: 'Merchant id for the card redirect (3-4 lowercase letters or digits)',
    check: blankOr(MERCHANT_MID, 'must be 3 or 4 lowercase letters or digits'),
  },
  {
    key: 'bankpay.secretKey',
    type: 'string',
    default: '',
    secret: true,
    description: 'HMAC signing secret for the card redirect (128 hex characters)',
    check: blankOr(SECRET_KEY_PATTERN, 'must be 128 hexadecimal characters'),
  },
  { key: 'bankpay.apiKey', type: 'string', default: '', secret: true, description: 'REST API client id' },
  { key: 'bankpay.clientSecret', type: 'string', default: '', secret: true, description: 'REST API client secret' },
  {
    key: 'bankpay.gatewayBaseUrl',
    type: 'string',
    default: '',
    description: 'REST API base URL (empty: the local sandbox)',
    outboundUrl: true,
  },
  {
    key: 'bankpay.cardPayUrl',
    type: 'string',
    default: '',
    description: 'Card redirect URL (empty: the local sandbox)',
  },
  {
    key: 'bankpay.cardPayPublicKeys',
    type: 'json',
    default: {} as Record<string, string>,
    description: "The bank's ECDSA public keys by key id (PEM); when set, card returns must carry a valid ECDSA",
    check: pemKeys,
  },
  {
    key: 'bankpay.fee',
    type: 'integer',
    default: 0,
    description: 'Surcharge for paying through the bank, minor units of the base currency',
    check: notNegative,
  },
  {
    key: 'bankpay.minOrderTotal',
    type: 'integer',
    default: 0,
    description: 'Offer the bank methods from this goods subtotal up (minor units of the base currency; 0: no limit)',
    check: notNegative,
  },
  {
    key: 'bankpay.maxOrderTotal',
    type: 'integer',
    default: 0,
    description: 'Offer the bank methods up to this goods subtotal (minor units of the base currency; 0: no limit)',
    check: notNegative,
  },
  {
    key: 'bankpay.countries',
    type: 'json',
    default: [] as string[],
    description: 'Countries the bank methods are offered for (empty: all)',
    check: countryList,
  },
] as const satisfies readonly SettingDefinition[];

declare module '../../plugin-api' {
  interface SettingLists {
    bankpay: typeof BANKPAY_SETTINGS;
  }
}
