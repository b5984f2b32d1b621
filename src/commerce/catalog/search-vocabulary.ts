/** Corrections offered for one misspelt word: more only add noise to the query. */
const MAX_CORRECTIONS = 3;

/** Distinct words kept per store: bounds the memory a huge catalog's vocabulary takes. */
export const MAX_VOCABULARY_WORDS = 100_000;

/** A word as the full-text indexes compare it: lower-case, accents folded ("Café" → "cafe"). */
export function foldWord(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * The edit distance a word may be corrected by: none below 4 letters (too many short words are one edit apart),
 * 1 for 4–5 letters, 2 for longer ones.
 */
export function allowedEdits(word: string, loose = false): number {
  const length = [...word].length;
  const edits = length < 4 ? 0 : length <= 5 ? 1 : 2;
  return edits === 0 || !loose ? edits : edits + 1;
}

/**
 * Damerau-Levenshtein distance (optimal string alignment: insertions, deletions, substitutions and swaps of two
 * neighbouring letters), or `max + 1` as soon as it is sure to exceed `max`.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowBest = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2] + 1);
      current.push(value);
      rowBest = Math.min(rowBest, value);
    }
    if (rowBest > max) return max + 1;
    before = previous;
    previous = current;
  }
  return previous[b.length];
}

interface Candidate {
  word: string;
  distance: number;
  /** Matched as the beginning of the word rather than the whole word. */
  prefix: boolean;
  count: number;
}

/**
 * The words of a store's shown products (folded), for typo tolerance: whether a query word begins any of them, and
 * which of them a misspelt word most likely meant. A correction keeps the first letter (typos there are rare), so
 * it compares the word only with the words of its first letter, and the distance gives up early on most of them.
 */
export class SearchVocabulary {
  private readonly sorted: string[];
  /** First letter → the words beginning with it. */
  private readonly byFirstLetter = new Map<string, string[]>();

  /** `counts`: word → how many products use it; the more common word wins a tie. */
  constructor(private readonly counts: ReadonlyMap<string, number>) {
    this.sorted = [...counts.keys()].sort();
    for (const word of this.sorted) {
      const first = firstLetter(word);
      const bucket = this.byFirstLetter.get(first) ?? [];
      bucket.push(word);
      this.byFirstLetter.set(first, bucket);
    }
  }

  /** Counts the words of `texts` (names, SKUs, category names), at most MAX_VOCABULARY_WORDS distinct ones. */
  static of(texts: Iterable<string>): SearchVocabulary {
    const counts = new Map<string, number>();
    for (const text of texts) {
      for (const word of foldWord(text).match(/[\p{L}\p{N}]+/gu) ?? []) {
        if (counts.size >= MAX_VOCABULARY_WORDS && !counts.has(word)) continue;
        counts.set(word, (counts.get(word) ?? 0) + 1);
      }
    }
    return new SearchVocabulary(counts);
  }

  get size(): number {
    return this.sorted.length;
  }

  /** Whether some word begins with `word` (folded): a prefix search finds it as typed. */
  begins(word: string): boolean {
    const folded = foldWord(word);
    let low = 0;
    let high = this.sorted.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.sorted[middle] < folded) low = middle + 1;
      else high = middle;
    }
    return low < this.sorted.length && this.sorted[low].startsWith(folded);
  }

  /**
   * The words `word` most likely meant, best first: within `allowedEdits` of the whole word or of its beginning
   * (same length as `word`), nearest first, whole words before beginnings, common words before rare ones.
   * Empty for a word the vocabulary already begins, and for short words.
   */
  corrections(word: string, loose = false): string[] {
    const folded = foldWord(word);
    const max = allowedEdits(folded, loose);
    if (max === 0 || this.begins(folded)) return [];
    const found: Candidate[] = [];
    for (const candidate of this.byFirstLetter.get(firstLetter(folded)) ?? []) {
      const count = this.counts.get(candidate) ?? 0;
      const whole = editDistance(folded, candidate, max);
      if (whole <= max) {
        found.push({ word: candidate, distance: whole, prefix: false, count });
      } else if (candidate.length > folded.length) {
        const distance = editDistance(folded, candidate.slice(0, folded.length), max);
        if (distance <= max) found.push({ word: candidate, distance, prefix: true, count });
      }
    }
    return found
      .sort(compareCandidates)
      .slice(0, MAX_CORRECTIONS)
      .map((candidate) => candidate.word);
  }
}

function firstLetter(word: string): string {
  return String.fromCodePoint(word.codePointAt(0)!);
}

function compareCandidates(a: Candidate, b: Candidate): number {
  return (
    a.distance - b.distance ||
    Number(a.prefix) - Number(b.prefix) ||
    b.count - a.count ||
    (a.word < b.word ? -1 : a.word > b.word ? 1 : 0)
  );
}
