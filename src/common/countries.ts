/** ISO 3166-1 alpha-2 codes of every country and territory. */
const CODES = `
AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ
CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR
GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO
JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR
MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO
RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV
TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW`;

export const COUNTRY_CODES: readonly string[] = CODES.trim().split(/\s+/);
const KNOWN = new Set(COUNTRY_CODES);

/** The member states of the European Union (VAT reverse charge, the EU VAT service). */
export const EU_COUNTRIES: readonly string[] = [
  'AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU',
  'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK',
]; // prettier-ignore

export function isCountryCode(value: unknown): value is string {
  return typeof value === 'string' && KNOWN.has(value);
}

const names = new Map<string, Intl.DisplayNames>();

/** "Slovakia" for `SK`, in the shop's language. */
export function countryName(code: string, locale = 'en'): string {
  let display = names.get(locale);
  if (!display) {
    display = new Intl.DisplayNames([locale], { type: 'region' });
    names.set(locale, display);
  }
  return display.of(code) ?? code;
}

export interface CountryOption {
  code: string;
  name: string;
}

const fullLists = new Map<string, CountryOption[]>();

/** Countries as an address form's select offers them: named in `locale`, by name. Every country: built once. */
export function countryOptions(locale = 'en', codes: readonly string[] = COUNTRY_CODES): CountryOption[] {
  const build = () =>
    codes
      .map((code) => ({ code, name: countryName(code, locale) }))
      .sort((a, b) => a.name.localeCompare(b.name, locale));
  if (codes !== COUNTRY_CODES) return build();
  let list = fullLists.get(locale);
  if (!list) {
    list = build();
    fullLists.set(locale, list);
  }
  return list;
}
