import { sameSitePath } from '../common/back-url';
import { isCountryCode } from '../common/countries';
import { documentNumberFormatProblem } from '../commerce/invoices/document-number';
import { isEmailAddress } from '../common/email-address';
import { SettingDefinition } from './setting-definition';

function countryList(value: unknown): string | undefined {
  if (!Array.isArray(value) || !value.every(isCountryCode))
    return 'must be a JSON list of ISO country codes, e.g. ["SK","CZ"]';
}

function timeZone(value: unknown): string | undefined {
  try {
    new Intl.DateTimeFormat('en', { timeZone: String(value) });
  } catch {
    return 'must be an IANA time zone such as Europe/Bratislava';
  }
}

function nonNegative(value: unknown): string | undefined {
  if ((value as number) < 0) return 'must not be negative';
}

function positive(value: unknown): string | undefined {
  if ((value as number) < 1) return 'must be at least 1';
}

/** Longest reminder delay: 30 days. */
const MAX_REMINDER_MINUTES = 43_200;

/** Up to 5 whole minutes, each later than the one before. */
function reminderDelays(value: unknown): string | undefined {
  const ok =
    Array.isArray(value) &&
    value.length <= 5 &&
    value.every(
      (minutes, i) =>
        Number.isSafeInteger(minutes) && minutes > (i === 0 ? 0 : value[i - 1]) && minutes <= MAX_REMINDER_MINUTES,
    );
  if (!ok) return `must be a JSON list of up to 5 ascending minutes (at most ${MAX_REMINDER_MINUTES}), e.g. [60,1440]`;
}

/** Up to ten years; 0 means gift cards never expire. */
function giftCardValidity(value: unknown): string | undefined {
  if ((value as number) < 0 || (value as number) > 120) return 'must be from 0 (never expires) to 120 months';
}

/** Up to a year; 0 means customers cannot ask for returns. */
function returnWindow(value: unknown): string | undefined {
  if ((value as number) < 0 || (value as number) > 365) return 'must be from 0 (no returns) to 365 days';
}

function withdrawalPeriod(value: unknown): string | undefined {
  // The law gives consumers 14 days at least (Directive 2011/83/EU, Art. 9); a shop may give more.
  if ((value as number) < 14 || (value as number) > 365) return 'must be from 14 to 365 days';
}

/** Blank, or an absolute https URL without credentials (what a script tag and the CSP can name). */
function optionalScriptUrl(value: unknown): string | undefined {
  if (value === '') return undefined;
  try {
    const url = new URL(String(value));
    if (url.protocol === 'https:' && !url.username && !url.password) return undefined;
  } catch {
    // falls through to the message
  }
  return 'must be blank or an https URL, e.g. https://analytics.example.com/script.js';
}

/** Blank, or an image the shop serves itself (`img-src 'self'`): a path under /public without `..`. */
function logoPath(value: unknown): string | undefined {
  if (value === '' || /^\/public\/(?!.*\.\.)[\w./-]+\.(svg|png|jpe?g|webp|gif)$/i.test(String(value))) return undefined;
  return 'must be blank or an image path under /public, e.g. /public/images/logo.svg';
}

/** Shop-wide settings and feature flags (docs/configuration.md). */
export const CORE_SETTINGS = [
  {
    key: 'customerAccountsEnabled',
    type: 'boolean',
    default: true,
    description: 'Customer login, registration and account pages',
  },
  {
    key: 'customerLogoutRedirect',
    type: 'string',
    default: '/',
    description: 'Where shoppers land after logging out: a path on this site, e.g. /shop/catalog/products',
    check: (value) =>
      sameSitePath(value, '') === value ? undefined : 'must be a path on this site starting with one /, e.g. /shop',
  },
  { key: 'salesCheckoutEnableAjax', type: 'boolean', default: true, description: 'JSON answers for AJAX add-to-cart' },
  { key: 'salesCouponsEnabled', type: 'boolean', default: true, description: 'Coupon codes in the cart' },
  {
    key: 'salesCustomerCancelEnabled',
    type: 'boolean',
    default: false,
    description: 'Customers may cancel their own unpaid orders (account order page, guest order view)',
  },
  {
    key: 'salesAbandonedCartsEnabled',
    type: 'boolean',
    default: false,
    description: 'Abandoned-cart reminders and recovery links',
  },
  {
    key: 'salesAbandonedCartsIdleMinutes',
    type: 'integer',
    default: 60,
    check: positive,
    description: 'Minutes without activity after which a cart with an e-mail and items counts as abandoned',
  },
  {
    key: 'salesAbandonedCartsReminderDelays',
    type: 'json',
    default: [60, 1440, 4320] as number[],
    check: reminderDelays,
    description: 'Minutes after the last cart activity at which the reminder e-mails go out (empty list: none)',
  },
  {
    key: 'salesGiftCardsEnabled',
    type: 'boolean',
    default: false,
    description: 'Gift cards: previews, vouchers and redemption',
  },
  {
    key: 'salesGiftCardsValidityMonths',
    type: 'integer',
    default: 12,
    check: giftCardValidity,
    description: 'Months a new gift card stays valid (0: it never expires)',
  },
  {
    key: 'salesReturnWindowDays',
    type: 'integer',
    default: 14,
    check: returnWindow,
    description: 'Days after delivery (the order completed) in which customers may ask to return lines (0: no returns)',
  },
  {
    key: 'salesTermsCheckbox',
    type: 'boolean',
    default: false,
    description:
      'Checkout asks the shopper to tick "I accept the terms and conditions"; the order keeps the version and time',
  },
  {
    key: 'salesWithdrawalDays',
    type: 'integer',
    default: 14,
    check: withdrawalPeriod,
    description:
      'Days after delivery (or the order, while not delivered) in which a withdrawal is on time; later ones are recorded as late',
  },
  { key: 'salesValidateVAT', type: 'boolean', default: false, description: 'Check VAT ids at checkout' },
  {
    key: 'shipmentsShipOrderOn',
    type: 'string',
    default: 'parcel',
    choices: ['parcel', 'first-scan'],
    description:
      "When a carrier's parcel moves its order to shipped: as soon as the parcel is made, or at the carrier's first scan",
  },
  {
    key: 'shipmentsShippedMail',
    type: 'boolean',
    default: true,
    description: 'E-mail the shopper the tracking link when the order ships',
  },
  {
    key: 'shipmentsDeliveredMail',
    type: 'boolean',
    default: true,
    description: "E-mail the shopper when every parcel of the order is delivered (the order's move to completed)",
  },
  {
    key: 'salesCanceledMail',
    type: 'boolean',
    default: true,
    description: 'E-mail the shopper when their order is canceled',
  },
  {
    key: 'salesRefundedMail',
    type: 'boolean',
    default: true,
    description: 'E-mail the shopper each refund of their order',
  },
  {
    key: 'salesReturnApprovedMail',
    type: 'boolean',
    default: true,
    description: "E-mail the shopper when staff approve their return, with staff's message",
  },
  {
    key: 'salesReturnRefusedMail',
    type: 'boolean',
    default: true,
    description: "E-mail the shopper when staff refuse their return, with staff's reason",
  },
  {
    key: 'salesReturnReceivedMail',
    type: 'boolean',
    default: true,
    description: 'E-mail the shopper when their returned items arrive',
  },
  {
    key: 'salesOrderEditedMail',
    type: 'boolean',
    default: true,
    description: "E-mail the shopper when staff change their order's addresses or contact, or add a note for them",
  },
  {
    key: 'salesPaymentLinkMail',
    type: 'boolean',
    default: true,
    description:
      'E-mail the shopper a new payment link when staff change the lines of an order whose payment the gateway already held',
  },
  {
    key: 'salesValidateVATType',
    type: 'string',
    default: 'format',
    choices: ['none', 'format', 'format_existence'],
    description:
      'How VAT ids are checked: format only (VAT is still charged), or format and existence with the EU VAT service (a registered id of another EU country is reverse-charged)',
  },
  {
    key: 'salesVatServiceUrl',
    type: 'string',
    default: '',
    description: 'EU VAT service (VIES REST) base URL; empty: the local sandbox, or the EU service in production',
    outboundUrl: true,
  },
  { key: 'salesDeliveryTimeEnabled', type: 'boolean', default: false, description: 'Delivery slots at checkout' },
  {
    key: 'salesTimezone',
    type: 'string',
    default: 'Europe/Bratislava',
    check: timeZone,
    description: "The shop's time zone: which delivery slots have already begun",
  },
  {
    key: 'salesAllowedCountries',
    type: 'json',
    default: [] as string[],
    check: countryList,
    description: 'ISO codes of the countries the shop sells to (empty list: every country)',
  },
  {
    key: 'salesCashOnDeliveryEnabled',
    type: 'boolean',
    default: false,
    description: 'Offer cash on delivery (never with pickup-point shipping)',
  },
  {
    key: 'salesCashOnDeliveryFee',
    type: 'integer',
    default: 0,
    check: nonNegative,
    description: 'Cash-on-delivery fee in minor units of the base currency',
  },
  {
    key: 'salesBankTransferEnabled',
    type: 'boolean',
    default: false,
    description: 'Offer payment by bank transfer in advance (the order waits in pending_payment)',
  },
  {
    key: 'salesBankTransferDeadlineDays',
    type: 'integer',
    default: 7,
    check: nonNegative,
    description: 'Cancel an order awaiting a bank transfer this many days after it was placed (0: never)',
  },
  {
    key: 'salesOnlinePaymentDeadlineMinutes',
    type: 'integer',
    default: 60,
    check: nonNegative,
    description:
      'Cancel an order paid online this many minutes after its last payment attempt started or failed unpaid (0: never)',
  },
  { key: 'salesBankTransferHolder', type: 'string', default: '', description: 'Bank transfer: account holder' },
  { key: 'salesBankTransferIban', type: 'string', default: '', description: 'Bank transfer: IBAN' },
  { key: 'salesBankTransferBic', type: 'string', default: '', description: 'Bank transfer: BIC / SWIFT' },
  {
    key: 'salesSellerAddress',
    type: 'string',
    default: '',
    description: "The seller's postal address on invoices (lines separated by commas)",
  },
  { key: 'salesSellerVatId', type: 'string', default: '', description: "The seller's VAT id on invoices" },
  {
    key: 'salesInvoiceIssuedWhen',
    type: 'string',
    default: 'paid',
    choices: ['paid', 'shipped'],
    description:
      'When an order gets its invoice number: once it is paid (cash on delivery: once it is accepted), or once it ships',
  },
  {
    key: 'salesInvoiceNumberFormat',
    type: 'string',
    default: '{year}-{seq:6}',
    check: documentNumberFormatProblem,
    description: 'Invoice numbers: {year} and {seq} (or {seq:N}, padded to N digits), a gap-free sequence each year',
  },
  {
    key: 'salesCreditNoteNumberFormat',
    type: 'string',
    default: 'CN{year}-{seq:6}',
    check: documentNumberFormatProblem,
    description: 'Credit note numbers, a sequence of their own: {year} and {seq} (or {seq:N})',
  },
  {
    key: 'salesSellerEmail',
    type: 'string',
    default: '',
    description: "The seller's e-mail address in order e-mails, where shoppers' replies go (empty: MAIL_FROM's)",
    check: (value) => (value === '' || isEmailAddress(String(value)) ? undefined : 'must be an e-mail address'),
  },
  { key: 'salesSellerPhone', type: 'string', default: '', description: "The seller's phone number in order e-mails" },
  {
    key: 'storeLegalName',
    type: 'string',
    default: '',
    description: "The seller's registered name on invoices and in e-mail footers (empty: the store's name)",
  },
  {
    key: 'storeLogoPath',
    type: 'string',
    default: '',
    check: logoPath,
    description: 'The logo in the shop header: an image under /public, e.g. /public/images/logo.svg (empty: none)',
  },
  {
    key: 'mailSenderName',
    type: 'string',
    default: '',
    description: "The name e-mails are sent from (empty: MAIL_FROM's, or the store's name)",
  },
  {
    key: 'mailSenderEmail',
    type: 'string',
    default: '',
    description: "The address e-mails are sent from (empty: MAIL_FROM's)",
    check: (value) => (value === '' || isEmailAddress(String(value)) ? undefined : 'must be an e-mail address'),
  },
  {
    key: 'salesTaxRate',
    type: 'integer',
    default: 20,
    description: "The shop's own standard VAT rate in percent, until a rate for it is entered in the VAT rate table",
  },
  {
    key: 'salesOssDestinationVat',
    type: 'boolean',
    default: false,
    description:
      "Above the EU's EUR 10,000 distance-sales threshold: consumers in other EU countries pay their country's VAT",
  },
  {
    key: 'salesPricesStable',
    type: 'string',
    default: 'gross',
    choices: ['gross', 'net'],
    description:
      "When another country's VAT applies: gross, every consumer pays the shelf price; net, the net price stays",
  },
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
    default: ['/products', '/produkty', '/produkte', '/termekek'] as string[],
    description: 'Extra paths that serve the product listing',
  },
  {
    key: 'privacyOptionalScriptUrl',
    type: 'string',
    default: '',
    check: optionalScriptUrl,
    description:
      'A non-essential script (e.g. analytics) loaded only after the visitor allows it in the cookie notice; blank: no script and no notice',
  },
] as const satisfies readonly SettingDefinition[];

declare module './settings.service' {
  interface SettingLists {
    core: typeof CORE_SETTINGS;
  }
}
