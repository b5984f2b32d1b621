import type { NetUnit, UnitPrice, UnitPriceUnit } from '../../commerce/products/net-quantity';
import { formatAmount } from '../../common/money-format';
import { translations } from './translations';

const SYMBOLS: Record<NetUnit | UnitPriceUnit, string> = {
  kg: 'kg',
  g: 'g',
  l: 'l',
  ml: 'ml',
  m: 'm',
  cm: 'cm',
  m2: 'm²',
};
const numberFormats = new Map<string, Intl.NumberFormat>();

/**
 * "250 g (€51.60 per kg)", "250 g (51,60 € za kg)": a net quantity and its unit price as `language` writes
 * them (locales `catalog.unitPrice`), the price in `currency`.
 */
export function unitPriceText(
  value: UnitPrice,
  currency: { code: string; decimals: number },
  language: string,
): string {
  let numbers = numberFormats.get(language);
  if (!numbers) {
    numbers = new Intl.NumberFormat(language, { maximumFractionDigits: 3 });
    numberFormats.set(language, numbers);
  }
  return translations().t(language, 'catalog.unitPrice', {
    quantity: `${numbers.format(value.quantity)}\u00a0${SYMBOLS[value.unit]}`,
    price: formatAmount(value.price, currency, language),
    per: SYMBOLS[value.per],
  });
}
