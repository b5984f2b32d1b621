/**
 * The EU member states' VAT rates in force on 1 January 2026, in hundredths of a percent: standard, reduced (the
 * higher reduced rate) and the second reduced rate where the country has one. Compiled from the European
 * Commission's "VAT rates applied in the Member States of the European Union" and the changes the member states
 * announced for 2025 (SK, RO, EE, FI); super-reduced and parking rates are left out. The migration that made the
 * `vat_rates` table seeded it from this list, dated 2026-01-01; shops must check the rates they charge
 * (docs/shop.md, _VAT by destination_).
 */
export const EU_VAT_RATES_2026: Readonly<Record<string, readonly [number, number?, number?]>> = {
  AT: [2000, 1300, 1000],
  BE: [2100, 1200, 600],
  BG: [2000, 900],
  CY: [1900, 900, 500],
  CZ: [2100, 1200],
  DE: [1900, 700],
  DK: [2500],
  EE: [2400, 1300, 900],
  ES: [2100, 1000, 400],
  FI: [2550, 1350, 1000],
  FR: [2000, 1000, 550],
  GR: [2400, 1300, 600],
  HR: [2500, 1300, 500],
  HU: [2700, 1800, 500],
  IE: [2300, 1350, 900],
  IT: [2200, 1000, 500],
  LT: [2100, 900, 500],
  LU: [1700, 800, 300],
  LV: [2100, 1200, 500],
  MT: [1800, 700, 500],
  NL: [2100, 900],
  PL: [2300, 800, 500],
  PT: [2300, 1300, 600],
  RO: [2100, 1100],
  SE: [2500, 1200, 600],
  SI: [2200, 950, 500],
  SK: [2300, 1900, 500],
};

export const EU_VAT_RATES_DATE = '2026-01-01';

/** Whether a country is an EU member state, where distance sales to consumers fall under the One-Stop-Shop. */
export function isEuCountry(country: string): boolean {
  return Object.hasOwn(EU_VAT_RATES_2026, country);
}
