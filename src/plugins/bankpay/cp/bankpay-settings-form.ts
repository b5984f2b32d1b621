import { SettingsForm } from '../../../plugin-api';
import { BANKPAY_SETTINGS } from '../bankpay.settings';

/** A section of the gateway's CP settings (`bankpay/settings/*`). */
export interface SettingsSection {
  handle: string;
  title: string;
  form: SettingsForm;
}

const LABELS: Record<string, string> = {
  paymentType: 'Payment Type',
  enablePayLaterType: 'Offer pay later',
  enableBankTransfer: 'Offer bank transfer',
  enableQrPay: 'Offer QR payment',
  merchantMid: 'Merchant ID (MID)',
  secretKey: 'Secret key',
  apiKey: 'API key (client id)',
  clientSecret: 'Client secret',
  gatewayBaseUrl: 'REST API base URL',
  cardPayUrl: 'Card-pay URL',
  cardPayPublicKeys: 'Bank ECDSA public keys',
  fee: 'Surcharge (cents)',
  minOrderTotal: 'Minimum subtotal (cents)',
  maxOrderTotal: 'Maximum subtotal (cents)',
  countries: 'Countries',
  sandbox: 'Sandbox mode',
};

function section(handle: string, title: string, keys: readonly string[]): SettingsSection {
  const definitions = keys.map((key) => BANKPAY_SETTINGS.find((definition) => definition.key === key)!);
  return { handle, title, form: new SettingsForm(definitions, LABELS) };
}

export const SETTINGS_SECTIONS: readonly SettingsSection[] = [
  section('general', 'General', [
    'bankpay.paymentType',
    'bankpay.enablePayLaterType',
    'bankpay.enableBankTransfer',
    'bankpay.enableQrPay',
  ]),
  section('credentials', 'Credentials', [
    'bankpay.merchantMid',
    'bankpay.secretKey',
    'bankpay.apiKey',
    'bankpay.clientSecret',
    'bankpay.gatewayBaseUrl',
    'bankpay.cardPayUrl',
    'bankpay.cardPayPublicKeys',
  ]),
  section('pricing', 'Pricing', ['bankpay.fee']),
  section('restrictions', 'Restrictions', ['bankpay.minOrderTotal', 'bankpay.maxOrderTotal', 'bankpay.countries']),
  section('test-cards', 'Test cards', ['bankpay.sandbox']),
];
