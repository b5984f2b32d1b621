import { CORE_SETTINGS } from './core-settings';
import { SettingsField, SettingsForm } from './settings-form';

/** The sections of the CP settings screen, in page order, with their headings. */
export const SETTING_GROUPS = {
  store: 'Store',
  catalog: 'Catalog',
  cart: 'Cart',
  checkout: 'Checkout and payment',
  tax: 'Tax and invoices',
  customers: 'Customers, returns and withdrawals',
  marketing: 'Marketing',
  mail: 'E-mails to shoppers',
  flows: 'Flows',
} as const;

export type SettingGroup = keyof typeof SETTING_GROUPS;

type CoreSettingKey = (typeof CORE_SETTINGS)[number]['key'];

/** The section each core setting is shown in; a setting added to CORE_SETTINGS does not compile until it has one. */
const GROUP_OF: Record<CoreSettingKey, SettingGroup> = {
  salesSellerAddress: 'store',
  salesSellerVatId: 'store',
  salesSellerPhone: 'store',
  salesTimezone: 'store',
  salesAllowedCountries: 'store',
  privacyOptionalScriptUrl: 'store',
  catalogAliases: 'catalog',
  salesCheckoutEnableAjax: 'cart',
  salesCouponsEnabled: 'cart',
  salesTermsCheckbox: 'checkout',
  salesDeliveryTimeEnabled: 'checkout',
  salesCashOnDeliveryEnabled: 'checkout',
  salesCashOnDeliveryFee: 'checkout',
  salesBankTransferEnabled: 'checkout',
  salesBankTransferHolder: 'checkout',
  salesBankTransferIban: 'checkout',
  salesBankTransferBic: 'checkout',
  salesBankTransferDeadlineDays: 'checkout',
  salesOnlinePaymentDeadlineMinutes: 'checkout',
  shipmentsShipOrderOn: 'checkout',
  salesValidateVAT: 'tax',
  salesValidateVATType: 'tax',
  salesVatServiceUrl: 'tax',
  salesTaxRate: 'tax',
  salesPricesIncludeTax: 'tax',
  salesOssDestinationVat: 'tax',
  salesPricesStable: 'tax',
  salesInvoiceIssuedWhen: 'tax',
  salesInvoiceNumberFormat: 'tax',
  salesCreditNoteNumberFormat: 'tax',
  customerAccountsEnabled: 'customers',
  customerLogoutRedirect: 'customers',
  salesCustomerCancelEnabled: 'customers',
  salesReturnWindowDays: 'customers',
  salesWithdrawalDays: 'customers',
  salesAbandonedCartsEnabled: 'marketing',
  salesAbandonedCartsIdleMinutes: 'marketing',
  salesAbandonedCartsReminderDelays: 'marketing',
  salesGiftCardsEnabled: 'marketing',
  salesGiftCardsValidityMonths: 'marketing',
  salesSellerEmail: 'mail',
  shipmentsShippedMail: 'mail',
  shipmentsDeliveredMail: 'mail',
  salesCanceledMail: 'mail',
  salesRefundedMail: 'mail',
  salesReturnApprovedMail: 'mail',
  salesReturnRefusedMail: 'mail',
  salesReturnReceivedMail: 'mail',
  salesOrderEditedMail: 'mail',
  salesPaymentLinkMail: 'mail',
  flowsEnabled: 'flows',
};

/** The CP settings screen's form: every core setting, its field named by its key. */
export const CORE_SETTINGS_FORM = new SettingsForm(CORE_SETTINGS);

export interface SettingsSection {
  group: SettingGroup;
  heading: string;
  fields: SettingsField[];
}

/** The form's fields in their sections, in page order. */
export function inSections(fields: readonly SettingsField[]): SettingsSection[] {
  return (Object.keys(SETTING_GROUPS) as SettingGroup[]).map((group) => ({
    group,
    heading: SETTING_GROUPS[group],
    fields: fields.filter((field) => GROUP_OF[field.name as CoreSettingKey] === group),
  }));
}
