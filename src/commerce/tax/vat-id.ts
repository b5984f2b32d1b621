import { EU_COUNTRIES } from '../../common/countries';

/** The number after each VIES prefix (docs/shop.md); Northern Ireland (XI) uses the UK pattern. */
const FORMATS = new Map<string, RegExp>(
  Object.entries({
    AT: 'U[A-Z\\d]{8}',
    BE: '[01]\\d{9}',
    BG: '\\d{9,10}',
    CY: '\\d{8}[A-Z]',
    CZ: '\\d{8,10}',
    DE: '\\d{9}',
    DK: '\\d{8}',
    EE: '\\d{9}',
    EL: '\\d{9}',
    ES: '[A-Z]\\d{7}[A-Z]|\\d{8}[A-Z]|[A-Z]\\d{8}',
    FI: '\\d{8}',
    FR: '[A-Z0-9]{2}\\d{9}',
    HR: '\\d{11}',
    HU: '\\d{8}',
    IE: '[A-Z\\d]{8,9}',
    IT: '\\d{11}',
    LT: '\\d{9}|\\d{12}',
    LU: '\\d{8}',
    LV: '\\d{11}',
    MT: '\\d{8}',
    NL: '\\d{9}B\\d{2}',
    PL: '\\d{10}',
    PT: '\\d{9}',
    RO: '\\d{2,10}',
    SE: '\\d{10}01',
    SI: '\\d{8}',
    SK: '\\d{10}',
    XI: '\\d{9}|\\d{12}|GD\\d{3}|HA\\d{3}',
  }).map(([prefix, pattern]) => [prefix, new RegExp(`^(?:${pattern})$`)] as const),
);

/** A VAT id taken apart: the VIES prefix (`EL`, `XI`, `SK`, …) and the number after it. */
export interface VatIdParts {
  prefix: string;
  number: string;
}

/** Uppercase, without the spaces, dots and dashes people type into VAT ids. */
export function normaliseVatId(raw: string): string {
  return raw.toUpperCase().replace(/[\s.-]/g, '');
}

/** The VIES prefix of a country: `EL` for Greece, `XI` (Northern Ireland) for GB; null outside VIES. */
export function vatPrefixOf(country: string): string | null {
  if (country === 'GR') return 'EL';
  if (country === 'GB') return 'XI';
  return EU_COUNTRIES.includes(country) ? country : null;
}

/** The country a normalised id's own prefix names (`EL…`/`GR…` → `GR`, `XI…` → `GB`); null without one. */
export function countryOfVatId(id: string): string | null {
  const letters = id.slice(0, 2);
  if (letters === 'EL' || letters === 'GR') return 'GR';
  if (letters === 'XI') return 'GB';
  return FORMATS.has(letters) ? letters : null;
}

/**
 * Splits a normalised id into prefix and number; an id without a letter prefix takes the country's.
 * `GR`, the ISO code people type for Greece, is read as `EL`.
 */
export function splitVatId(id: string, country: string): VatIdParts {
  const own = vatPrefixOf(country);
  const letters = /^[A-Z]{2}/.exec(id)?.[0];
  if (letters === 'GR') return { prefix: 'EL', number: id.slice(2) };
  if (letters && FORMATS.has(letters)) return { prefix: letters, number: id.slice(2) };
  // Some numbers begin with two letters of their own (a French check key, the UK's GD/HA ranges).
  if (own && hasVatFormat(own, id)) return { prefix: own, number: id };
  if (letters) return { prefix: letters, number: id.slice(2) };
  return { prefix: own ?? '', number: id };
}

/** Whether `number` has the shape VIES expects after `prefix` (anchored, per country). */
export function hasVatFormat(prefix: string, number: string): boolean {
  return FORMATS.get(prefix)?.test(number) ?? false;
}
