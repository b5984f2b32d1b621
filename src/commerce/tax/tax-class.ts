/**
 * The VAT classes a product can be in (docs/shop.md, _VAT by destination_). Which goods fall in which class is each
 * country's law; the shop keeps one class per product, and each country's table says what the class costs there.
 */
export const TAX_CLASSES = ['standard', 'reduced', 'reduced2', 'zero'] as const;
export type TaxClass = (typeof TAX_CLASSES)[number];

/** How staff see the classes (CP, CLI). */
export const TAX_CLASS_LABELS: Record<TaxClass, string> = {
  standard: 'Standard rate',
  reduced: 'Reduced rate',
  reduced2: 'Second reduced rate',
  zero: 'Zero rate',
};

export function isTaxClass(value: unknown): value is TaxClass {
  return typeof value === 'string' && (TAX_CLASSES as readonly string[]).includes(value);
}

/** Rates are hundredths of a percent (1900 = 19 %, 550 = 5.5 %); as a percent for people: 19, 5.5. */
export function ratePercent(rate: number): number {
  return rate / 100;
}
