import { SettingDefinition } from '../../../src/plugin-api';

/** The example plugin's settings: `<handle>.<name>`, defined when its module loads. */
export const EXAMPLE_SETTINGS: readonly SettingDefinition[] = [
  { key: 'example.invoiceEnabled', type: 'boolean', default: true, description: 'Offer payment by invoice' },
  { key: 'example.greeting', type: 'string', default: 'Hello from the example plugin', description: 'Greeting' },
];
