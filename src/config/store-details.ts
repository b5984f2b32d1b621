/** What a store is made of: its name, base currency, country and language. */
export interface StoreDetails {
  name: string;
  baseCurrency: string;
  country: string;
  language: string;
}

/** The details normalised (codes in their usual case, name trimmed). */
export function normaliseStoreDetails(details: StoreDetails): StoreDetails {
  return {
    name: details.name.trim(),
    baseCurrency: details.baseCurrency.trim().toUpperCase(),
    country: details.country.trim().toUpperCase(),
    language: details.language.trim().toLowerCase(),
  };
}

/** What is wrong with each normalised detail, by field; empty when all are fine. */
export function storeDetailsProblems(details: StoreDetails): Partial<Record<keyof StoreDetails, string>> {
  const problems: Partial<Record<keyof StoreDetails, string>> = {};
  if (details.name === '' || details.name.length > 191) problems.name = 'must be 1 to 191 characters';
  if (!/^[A-Z]{3}$/.test(details.baseCurrency) || !Intl.supportedValuesOf('currency').includes(details.baseCurrency)) {
    problems.baseCurrency = 'must be an ISO 4217 currency code such as EUR';
  }
  if (!/^[A-Z]{2}$/.test(details.country)) problems.country = 'must be a two-letter ISO country code such as SK';
  if (!/^[a-z]{2}$/.test(details.language)) problems.language = 'must be a two-letter language code such as en';
  return problems;
}
