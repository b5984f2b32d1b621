import { SettingDefinition } from '../../config/setting-definition';

/** Settings of the carrier B widget plugin (spec "Widget options (carrier B)", DESIGN.md §4). */
export const CARRIER_B_SETTINGS: readonly SettingDefinition[] = [
  { key: 'carrier-b.apiKey', type: 'string', default: '', secret: true, description: 'Widget API key' },
  {
    key: 'carrier-b.countries',
    type: 'string',
    default: 'sk,cz',
    description: 'Comma-separated lowercase country codes',
  },
  { key: 'carrier-b.language', type: 'string', default: 'en', description: 'Widget language' },
  { key: 'carrier-b.defaultPrice', type: 'integer', default: 0, description: 'Default price in minor units' },
  {
    key: 'carrier-b.defaultFreeShippingThreshold',
    type: 'integer',
    default: 0,
    description: 'Free shipping from this subtotal (minor units; 0: never)',
  },
  { key: 'carrier-b.defaultCurrency', type: 'string', default: 'EUR', description: 'Currency of the prices' },
  {
    key: 'carrier-b.countryPricesEnabled',
    type: 'boolean',
    default: false,
    description: 'Enable country-specific prices',
  },
  { key: 'carrier-b.countryPrices', type: 'json', default: {}, description: 'Country code → price (minor units)' },
  {
    key: 'carrier-b.countryFreeShippingThresholds',
    type: 'json',
    default: {},
    description: 'Country code → free-shipping threshold (minor units)',
  },
  {
    key: 'carrier-b.dropOffWeight',
    type: 'integer',
    default: 0,
    description: 'Drop-off only of parcels weighing up to (kg; 0: off)',
  },
  { key: 'carrier-b.claimAssistantOnly', type: 'boolean', default: false, description: 'Complaint points only' },
  { key: 'carrier-b.packetConsignmentOnly', type: 'boolean', default: false, description: 'Drop-off points only' },
];
