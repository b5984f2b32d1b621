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
