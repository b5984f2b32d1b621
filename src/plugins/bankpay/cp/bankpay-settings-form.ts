import { SettingDefinition } from '../../../config/setting-definition';

/** A section of the gateway's CP settings (spec "Control-panel routes": bankpay/settings/*). */
export interface SettingsSection {
  handle: string;
  title: string;
  keys: readonly string[];
}

export const SETTINGS_SECTIONS: readonly SettingsSection[] = [
  {
    handle: 'general',
    title: 'General',
    keys: ['bankpay.paymentType', 'bankpay.enablePayLaterType', 'bankpay.enableBankTransfer', 'bankpay.enableQrPay'],
  },
  {
    handle: 'credentials',
    title: 'Credentials',
    keys: [
      'bankpay.merchantMid',
      'bankpay.secretKey',
      'bankpay.apiKey',
      'bankpay.clientSecret',
      'bankpay.gatewayBaseUrl',
      'bankpay.cardPayUrl',
      'bankpay.cardPayPublicKeys',
    ],
  },
  { handle: 'pricing', title: 'Pricing', keys: ['bankpay.fee'] },
  {
    handle: 'restrictions',
    title: 'Restrictions',
    keys: ['bankpay.minOrderTotal', 'bankpay.maxOrderTotal', 'bankpay.countries'],
  },
  { handle: 'test-cards', title: 'Test cards', keys: ['bankpay.sandbox'] },
];

/** One input of a section form, as the view renders it. */
export interface SettingsField {
  /** Form field name: the key without its `bankpay.` prefix. */
  name: string;
  label: string;
  description: string;
  kind: 'checkbox' | 'select' | 'secret' | 'number' | 'json' | 'text';
  value: string;
  checked: boolean;
  options: Array<{ value: string; selected: boolean }>;
  /** For secrets: what is stored, masked (the value itself never reaches the page). */
  masked: string;
}

export function fieldName(key: string): string {
  return key.slice('bankpay.'.length);
}

/** The form field for a setting and its current value. */
export function settingsField(definition: SettingDefinition, value: unknown): SettingsField {
  const field: SettingsField = {
    name: fieldName(definition.key),
    label: labelOf(fieldName(definition.key)),
    description: definition.description,
    kind: kindOf(definition),
    value: '',
    checked: value === true,
    options: (definition.choices ?? []).map((choice) => ({ value: choice, selected: choice === value })),
    masked: '',
  };
  if (field.kind === 'secret') field.masked = mask(String(value ?? ''));
  else if (field.kind === 'json') field.value = JSON.stringify(value);
  else if (field.kind !== 'checkbox') field.value = String(value ?? '');
  return field;
}

/**
 * The values a section's form posts, typed for SettingsService.save: an unticked box is false, and a secret
 * left blank keeps what is stored (the form never shows it).
 */
export function submittedValues(
  section: SettingsSection,
  definitionOf: (key: string) => SettingDefinition,
  body: Record<string, unknown>,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const key of section.keys) {
    const definition = definitionOf(key);
    const input = body[fieldName(key)];
    const text = typeof input === 'string' ? input.trim() : '';
    if (definition.type === 'boolean') values[key] = text === 'on' || text === 'true';
    else if (definition.secret && text === '') continue;
    else values[key] = text === '' && definition.type === 'json' ? JSON.stringify(definition.default) : text;
  }
  return values;
}

function kindOf(definition: SettingDefinition): SettingsField['kind'] {
  if (definition.type === 'boolean') return 'checkbox';
  if (definition.choices) return 'select';
  if (definition.secret) return 'secret';
  if (definition.type === 'integer') return 'number';
  if (definition.type === 'json') return 'json';
  return 'text';
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

function labelOf(name: string): string {
  return LABELS[name] ?? name;
}

/** Enough to recognise a stored secret, never enough to use it. */
function mask(secret: string): string {
  if (secret === '') return 'not set';
  return secret.length <= 8 ? '••••••••' : `••••••••${secret.slice(-4)}`;
}
