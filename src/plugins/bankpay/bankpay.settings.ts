import { SettingDefinition } from '../../config/setting-definition';

/** Settings of the bank payment gateway plugin (spec "Feature flags and settings", DESIGN.md §4). */
export const BANKPAY_SETTINGS: readonly SettingDefinition[] = [
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
    default: true,
    description: 'Sandbox mode: return validation treats every authorization as OK',
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
  },
  {
    key: 'bankpay.secretKey',
    type: 'string',
    default: '',
    secret: true,
    description: 'HMAC signing secret for the card redirect',
  },
  { key: 'bankpay.apiKey', type: 'string', default: '', secret: true, description: 'REST API client id' },
  { key: 'bankpay.clientSecret', type: 'string', default: '', secret: true, description: 'REST API client secret' },
  {
    key: 'bankpay.gatewayBaseUrl',
    type: 'string',
    default: '',
    description: 'REST API base URL (empty: the local sandbox)',
  },
  {
    key: 'bankpay.cardPayUrl',
    type: 'string',
    default: '',
    description: 'Card redirect URL (empty: the local sandbox)',
  },
];
