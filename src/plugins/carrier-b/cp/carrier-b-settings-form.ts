import { SettingsForm } from '../../../plugin-api';
import { CARRIER_B_SETTINGS } from '../carrier-b.settings';

/** Carrier B's settings section in the CP (`carrier-b/settings`): every setting but the dashboard layout. */
export const CARRIER_B_SETTINGS_FORM = new SettingsForm(CARRIER_B_SETTINGS, {
  apiKey: 'API key',
  widgetUrl: 'Widget URL',
  countries: 'Countries',
  language: 'Widget language',
  defaultPrice: 'Default price (minor units)',
  defaultFreeShippingThreshold: 'Free shipping from (minor units)',
  defaultCurrency: 'Currency',
  countryPricesEnabled: 'Country prices',
  countryPrices: 'Price by country',
  countryFreeShippingThresholds: 'Free shipping by country',
  dropOffWeight: 'Drop-off weight (kg)',
  claimAssistantOnly: 'Complaint points only',
  packetConsignmentOnly: 'Drop-off points only',
});
