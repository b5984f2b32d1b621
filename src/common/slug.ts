/**
 * A URL segment made from a name: accents folded to ASCII, lower-cased, every run of other characters one `-`,
 * none at either end. "Café & Crème" → "cafe-creme"; empty when nothing of the name is left.
 */
export function urlSlug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** The length of the `slug` columns of categories and attribute values. */
export const SLUG_LENGTH = 100;

/** urlSlug cut to `maxLength` characters, without a trailing `-` where the cut fell. */
export function boundedSlug(text: string, maxLength: number): string {
  return urlSlug(text).slice(0, maxLength).replace(/-+$/, '');
}

/** Whether `value` is what urlSlug makes (lowercase ASCII letters and digits joined by single `-`), ≤ `maxLength`. */
export function isUrlSlug(value: unknown, maxLength: number): value is string {
  return typeof value === 'string' && value.length <= maxLength && /^[a-z0-9]+(-[a-z0-9]+)*$/.test(value);
}
