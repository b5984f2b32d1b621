/**
 * Document numbers from a format such as `{year}-{seq:6}`: `{year}` is the four-digit year, `{seq}` the place in the
 * year's sequence, `{seq:N}` the same padded with zeros to N digits; everything else is written as it stands.
 */
const TOKEN = /\{(year|seq)(?::(\d{1,2}))?\}/g;
const LITERAL = /^[A-Za-z0-9\-/_. #]*$/;

export function formatDocumentNumber(format: string, year: number, sequence: number): string {
  return format.replace(TOKEN, (_match, token: string, width?: string) =>
    token === 'year' ? String(year) : String(sequence).padStart(Number(width ?? 0), '0'),
  );
}

/**
 * The setting's check: `{year}` and `{seq}` once each (a sequence starts again every year, so the year must tell
 * the numbers apart), other characters letters, digits, `-/_. #`, and at most 40 characters.
 */
export function documentNumberFormatProblem(value: unknown): string | undefined {
  const format = String(value);
  const tokens = [...format.matchAll(TOKEN)].map((match) => match[1]);
  const literal = format.replace(TOKEN, '');
  const once = (token: string) => tokens.filter((found) => found === token).length === 1;
  if (format.length > 40 || !once('year') || !once('seq') || !LITERAL.test(literal))
    return 'must hold {year} and {seq} (or {seq:N} for N digits) once each, with letters, digits and -/_. # around them, e.g. {year}-{seq:6}';
}
