import { DashboardLayout, SettingDefinition } from '../../plugin-api';

/** The widgets of the carrier B CP dashboard, in their natural order, and where their layout is kept. */
export const CARRIER_B_DASHBOARD = new DashboardLayout('carrier-b.dashboardLayout', [
  { id: 'configuration', title: 'Configuration' },
  { id: 'prices', title: 'Prices' },
  { id: 'orders-by-country', title: 'Orders this month by country' },
]);

/** A JSON map of lowercase ISO alpha-2 codes to amounts in minor units, e.g. `{"sk": 290, "cz": 350}`. */
function checkCountryAmounts(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'must be a JSON object';
  for (const [country, amount] of Object.entries(value)) {
    if (!/^[a-z]{2}$/.test(country)) return `has ${country}, not a lowercase two-letter country code`;
    if (!Number.isSafeInteger(amount) || (amount as number) < 0) return `must give ${country} a whole amount ≥ 0`;
  }
  return undefined;
}

function checkNotNegative(value: unknown): string | undefined {
  return (value as number) < 0 ? 'must be 0 or more' : undefined;
}

/** Settings of the carrier B widget plugin (docs/configuration.md, docs/integrations.md). */
export const CARRIER_B_SETTINGS = [
  { key: 'carrier-b.apiKey', type: 'string', default: '', secret: true, description: 'Widget API key' },
  {
    key: 'carrier-b.widgetUrl',
    type: 'string',
    default: '',
    description: 'Widget base URL, the library loads from {url}/v6/www/js/library.js (empty: the sandbox stand-in)',
    check: (value) =>
      value === '' || /^https?:\/\/[^/\s?#]+(\/[^\s?#]*)?$/.test(String(value))
        ? undefined
        : 'must be an http(s) URL without query, such as https://widget.example.com',
  },
  {
    key: 'carrier-b.countries',
    type: 'string',
    default: 'sk,cz',
    description: 'Comma-separated lowercase country codes',
    check: (value) =>
      /^ *[a-z]{2}( *, *[a-z]{2})* *$/.test(String(value)) ? undefined : 'must be codes such as sk,cz',
  },
  { key: 'carrier-b.language', type: 'string', default: 'en', description: 'Widget language' },
  {
    key: 'carrier-b.defaultPrice',
    type: 'integer',
    default: 0,
    description: 'Default price (minor units of the default currency)',
    check: checkNotNegative,
  },
  {
    key: 'carrier-b.defaultFreeShippingThreshold',
    type: 'integer',
    default: 0,
    description: 'Free shipping from this subtotal (minor units; 0: never)',
    check: checkNotNegative,
  },
  { key: 'carrier-b.defaultCurrency', type: 'string', default: 'EUR', description: 'Currency of the prices' },
  {
    key: 'carrier-b.countryPricesEnabled',
    type: 'boolean',
    default: false,
    description: 'Enable country-specific prices',
  },
  {
    key: 'carrier-b.countryPrices',
    type: 'json',
    default: {} as Record<string, number>,
    description: 'Country code → price (minor units)',
    check: checkCountryAmounts,
  },
  {
    key: 'carrier-b.countryFreeShippingThresholds',
    type: 'json',
    default: {} as Record<string, number>,
    description: 'Country code → free-shipping threshold (minor units; 0: never)',
    check: checkCountryAmounts,
  },
  {
    key: 'carrier-b.dropOffWeight',
    type: 'integer',
    default: 0,
    description: 'Drop-off only of parcels weighing up to (kg; 0: off)',
    check: checkNotNegative,
  },
  { key: 'carrier-b.claimAssistantOnly', type: 'boolean', default: false, description: 'Complaint points only' },
  { key: 'carrier-b.packetConsignmentOnly', type: 'boolean', default: false, description: 'Drop-off points only' },
] as const satisfies readonly SettingDefinition[];

declare module '../../plugin-api' {
  interface SettingLists {
    carrierB: typeof CARRIER_B_SETTINGS;
  }
}
