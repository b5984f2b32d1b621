import { SettingDefinition } from './setting-definition';

/** Shop-wide settings and feature flags (spec "Feature flags and settings", DESIGN.md §4). */
export const CORE_SETTINGS: readonly SettingDefinition[] = [
  {
    key: 'customerAccountsEnabled',
    type: 'boolean',
    default: true,
    description: 'Customer login, registration and account pages',
  },
  { key: 'salesCheckoutEnableAjax', type: 'boolean', default: true, description: 'JSON answers for AJAX add-to-cart' },
  { key: 'salesCouponsEnabled', type: 'boolean', default: true, description: 'Coupon codes in the cart' },
  {
    key: 'salesAbandonedCartsEnabled',
    type: 'boolean',
    default: false,
    description: 'Abandoned-cart reminders and recovery links',
  },
  {
    key: 'salesGiftCardsEnabled',
    type: 'boolean',
    default: false,
    description: 'Gift cards: previews, vouchers and redemption',
  },
  { key: 'salesValidateVAT', type: 'boolean', default: false, description: 'Check VAT ids at checkout' },
  {
    key: 'salesValidateVATType',
    type: 'string',
    default: 'format',
    choices: ['none', 'format', 'format_existence'],
    description: 'How VAT ids are checked: format only, or format and existence with the EU VAT service',
  },
  { key: 'salesDeliveryTimeEnabled', type: 'boolean', default: false, description: 'Delivery slots at checkout' },
  { key: 'salesTaxRate', type: 'integer', default: 20, description: 'VAT rate in percent applied to cart totals' },
  {
    key: 'salesPricesIncludeTax',
    type: 'boolean',
    default: true,
    description: 'Catalog prices include VAT (the tax part is shown in totals)',
  },
  { key: 'flowsEnabled', type: 'boolean', default: false, description: 'Automation flows and their webhooks' },
  {
    key: 'catalogAliases',
    type: 'json',
    default: ['/products', '/produkty', '/produkte', '/termekek'],
    description: 'Extra paths that serve the product listing',
  },
];
