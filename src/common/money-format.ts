import { toMajor } from './money';

const formatters = new Map<string, Intl.NumberFormat>();

/** "€12.50", "1 250 Kč", "7 896 Ft": minor units shown the way the locale writes that currency. */
export function formatMoney(minor: number, currency: { code: string; decimals: number }, locale = 'en'): string {
  return formatAmount(toMajor(minor, currency.decimals), currency, locale);
}

/** The same for an amount already in major units (the catalog JSON's `price: 12.5`). */
export function formatAmount(major: number, currency: { code: string; decimals: number }, locale = 'en'): string {
  const key = `${locale}:${currency.code}:${currency.decimals}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency: currency.code,
      minimumFractionDigits: currency.decimals,
      maximumFractionDigits: currency.decimals,
    });
    formatters.set(key, formatter);
  }
  return formatter.format(major);
}
