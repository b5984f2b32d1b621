import { createHash } from 'node:crypto';

/** Same product, variant, configuration and custom data → same key → one merged cart line. */
export function lineKey(
  productId: number,
  variantId: number | null,
  configuration: Record<string, string> | null,
  custom: Record<string, unknown> | null,
): string {
  return createHash('sha256')
    .update(canonicalJson([productId, variantId, configuration ?? {}, custom ?? {}]))
    .digest('hex');
}

/** JSON with object keys sorted at every depth, so `{a,b}` and `{b,a}` hash alike. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}
