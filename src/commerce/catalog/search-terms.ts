/** More words than this add nothing to a shop search but cost one index lookup each. */
const MAX_WORDS = 8;

/**
 * The words of a shopper's query, lower-cased and deduplicated. Only letters, digits and combining marks
 * survive, so nothing the user types can reach the full-text syntax (quotes, operators, column filters).
 */
export function searchWords(query: string): string[] {
  const words =
    query
      .normalize('NFC')
      .toLowerCase()
      .match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
  return [...new Set(words)].slice(0, MAX_WORDS);
}

/** FTS5: every word as a quoted prefix term; terms side by side are ANDed. `["cafe", "fil"]` → `"cafe"* "fil"*` */
export function fts5Query(words: string[]): string {
  return words.map((word) => `"${word}"*`).join(' ');
}

/** What the server's FULLTEXT index leaves out: words shorter than its minimum token size, and stopwords. */
export interface FulltextLimits {
  minTokenSize: number;
  stopwords: ReadonlySet<string>;
}

/**
 * MySQL/MariaDB BOOLEAN MODE: each indexed word is a required prefix term (`+word*`). A word the index
 * never holds (too short, a stopword) would make a required term that matches nothing, so it is only
 * optional (`word*`): it still finds longer words it begins ("te" → "tent") and adds to the relevance.
 */
export function mysqlBooleanQuery(words: string[], limits: FulltextLimits): string {
  return words
    .map((word) => ([...word].length >= limits.minTokenSize && !limits.stopwords.has(word) ? `+${word}*` : `${word}*`))
    .join(' ');
}
