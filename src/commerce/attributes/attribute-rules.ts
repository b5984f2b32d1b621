import { boundedSlug, isUrlSlug, SLUG_LENGTH } from '../../common/slug';

/** An attribute's code: lowercase ASCII letters and digits joined by single `-`, up to 64 characters. */
export const MAX_CODE_LENGTH = 64;
export const MAX_VALUE_LENGTH = 191;
/** Per product: attributes set on it and values of one attribute (import rows and the CP form). */
export const MAX_ATTRIBUTES_PER_PRODUCT = 30;
export const MAX_VALUES_PER_ATTRIBUTE = 20;

export function isAttributeCode(code: unknown): code is string {
  return isUrlSlug(code, MAX_CODE_LENGTH);
}

/** A value's form in the filter URL ("Merino Wool" → "merino-wool"); empty when it has no letter or digit. */
export function valueSlug(value: string): string {
  return boundedSlug(value, SLUG_LENGTH);
}

/** The name a new attribute gets from its code: "country-of-origin" → "Country of origin". */
export function nameFromCode(code: string): string {
  const words = code.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Product attributes by code, each with its value texts. */
export type AttributeValues = Record<string, string[]>;

/**
 * Checks `{ code: value | [values] }` (an import row's `attributes`, the CP form's): the values as a list,
 * or null with `problems` filled in (each message prefixed with `field`).
 */
export function readAttributeValues(value: unknown, field: string, problems: string[]): AttributeValues | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    problems.push(`${field} must be an object of attribute codes and their value or list of values`);
    return null;
  }
  const before = problems.length;
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_ATTRIBUTES_PER_PRODUCT)
    problems.push(`${field} may name at most ${MAX_ATTRIBUTES_PER_PRODUCT} attributes`);
  const result: AttributeValues = {};
  for (const [code, given] of entries) {
    if (!isAttributeCode(code)) {
      problems.push(
        `${field} code "${code}" must be lowercase letters and digits joined by single hyphens (up to ${MAX_CODE_LENGTH})`,
      );
      continue;
    }
    const values = Array.isArray(given) ? given : [given];
    const fits = (item: unknown) =>
      typeof item === 'string' && item.trim() !== '' && item.length <= MAX_VALUE_LENGTH && valueSlug(item) !== '';
    if (values.length === 0 || values.length > MAX_VALUES_PER_ATTRIBUTE || !values.every(fits)) {
      problems.push(
        `${field}.${code} must be 1 to ${MAX_VALUES_PER_ATTRIBUTE} texts of 1 to ${MAX_VALUE_LENGTH} characters with a letter or digit`,
      );
      continue;
    }
    result[code] = (values as string[]).map((item) => item.trim());
  }
  return problems.length > before ? null : result;
}
