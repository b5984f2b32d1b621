import { SettingsForm } from '../../../plugin-api';
import { CARRIER_A_SETTINGS } from '../carrier-a.settings';

/** Carrier A's settings section in the CP (`carrier-a/settings`): every setting but the dashboard layout. */
export const CARRIER_A_SETTINGS_FORM = new SettingsForm(CARRIER_A_SETTINGS, {
  sandbox: 'Sandbox mode',
  customUrl: 'Custom API URL',
  username: 'Username',
  password: 'Password',
  defaultWeight: 'Default weight (g)',
  autoCreateStatus: 'Create parcels at status',
  pickupPointsEnabled: 'Offer pickup points',
  pickupPointCountry: 'Pickup point country',
  labelLimit: 'Label limit per month',
});
