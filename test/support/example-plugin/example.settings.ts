import { DashboardLayout, SettingDefinition, SettingsForm } from '../../../src/plugin-api';

/** The example plugin's settings: `<handle>.<name>`, defined when its module loads. */
export const EXAMPLE_SETTINGS = [
  { key: 'example.invoiceEnabled', type: 'boolean', default: true, description: 'Offer payment by invoice' },
  { key: 'example.greeting', type: 'string', default: 'Hello from the example plugin', description: 'Greeting' },
] as const satisfies readonly SettingDefinition[];

/** `settings.get('example.greeting')` is a string, `isOn('example.invoiceEnabled')` a checked flag. */
declare module '../../../src/plugin-api' {
  interface SettingLists {
    example: typeof EXAMPLE_SETTINGS;
  }
}

/** The dashboard's widgets; staff's arrangement is kept in a setting of its own, registered with the others. */
export const EXAMPLE_DASHBOARD = new DashboardLayout('example.dashboardLayout', [
  { id: 'greeting', title: 'Greeting' },
  { id: 'invoices', title: 'Invoices' },
]);

/** The settings section, `example/settings`: its fields are named by the keys without `example.`. */
export const EXAMPLE_SETTINGS_FORM = new SettingsForm(EXAMPLE_SETTINGS, { invoiceEnabled: 'Pay by invoice' });
