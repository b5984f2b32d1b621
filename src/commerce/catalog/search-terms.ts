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

/**
 * FTS5: every word as a quoted prefix term, OR-ed with the words it may also mean (synonyms, corrections); the
 * groups are ANDed, explicitly (FTS5 takes no implicit AND beside a parenthesised group).
 * `[["cafe"], ["fil", "filter"]]` → `"cafe"* AND ("fil"* OR "filter"*)`
 */
export function fts5Query(terms: string[][]): string {
  return terms
    .map((alternatives) => {
      const group = alternatives.map((word) => `"${word}"*`);
      return group.length === 1 ? group[0] : `(${group.join(' OR ')})`;
    })
    .join(' AND ');
}

/** What the server's FULLTEXT index leaves out: words shorter than its minimum token size, and stopwords. */
export interface FulltextLimits {
  minTokenSize: number;
  stopwords: ReadonlySet<string>;
}

/**
 * MySQL/MariaDB BOOLEAN MODE: each word with its alternatives (synonyms, corrections) is a required group of
 * prefix terms (`+(cofe* coffee*)`, one of them must match). A word the index never holds (too short, a
 * stopword) would make a required term that matches nothing, so a group of only such words is optional
 * (`word*`): it still finds longer words it begins ("te" → "tent") and adds to the relevance.
 */
export function mysqlBooleanQuery(terms: string[][], limits: FulltextLimits): string {
  const indexed = (word: string) => [...word].length >= limits.minTokenSize && !limits.stopwords.has(word);
  return terms
    .map((alternatives) => {
      const held = alternatives.filter(indexed);
      if (held.length === 0) return alternatives.map((word) => `${word}*`).join(' ');
      return held.length === 1 ? `+${held[0]}*` : `+(${held.map((word) => `${word}*`).join(' ')})`;
    })
    .join(' ');
}
