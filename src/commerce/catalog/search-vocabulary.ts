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

interface Candidate {
  word: string;
  distance: number;
  /** Matched as the beginning of the word rather than the whole word. */
  prefix: boolean;
  /** The typed letters all appear in the word in order: only letters were left out ("cofe" in "coffee"). */
  lettersLeftOut: boolean;
  count: number;
}

/**
 * The words of a store's shown products (folded), for typo tolerance: whether a query word begins any of them, and
 * which of them a misspelt word most likely meant. A correction keeps the first letter (typos there are rare) and
 * walks that letter's words in sorted order as a trie: words sharing a beginning share its rows of the distance
 * table, and a beginning already too far from the typed word skips every word that has it.
 */
export class SearchVocabulary {
  private readonly sorted: string[];
  /** First letter → the words beginning with it, sorted. */
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
    const index = lowerBound(this.sorted, folded);
    return index < this.sorted.length && this.sorted[index].startsWith(folded);
  }

  /**
   * The words `word` most likely meant, best first: within `allowedEdits` of the whole word or of its beginning
   * (same length as `word`); nearest first, then words that only lack some typed letters, whole words before
   * beginnings, common words before rare ones. Empty for a word the vocabulary already begins, and for short words.
   */
  corrections(word: string, loose = false): string[] {
    const typed = foldWord(word);
    const max = allowedEdits(typed, loose);
    if (max === 0 || this.begins(typed)) return [];
    const words = this.byFirstLetter.get(firstLetter(typed)) ?? [];
    const n = typed.length;
    const deepest = n + max;
    // rows[d]: distances between the typed word's beginnings and the current word's first d letters.
    const rows = Array.from({ length: deepest + 1 }, () => new Int32Array(n + 1));
    for (let j = 0; j <= n; j++) rows[0][j] = j;
    let path = '';
    let valid = 0;
    const found: Candidate[] = [];
    for (let index = 0; index < words.length;) {
      const candidate = words[index];
      let depth = Math.min(valid, commonPrefixLength(path, candidate));
      path = candidate;
      let prunedAt = 0;
      for (depth += 1; depth <= Math.min(candidate.length, deepest); depth++) {
        const row = rows[depth];
        const above = rows[depth - 1];
        row[0] = depth;
        let rowBest = depth;
        for (let j = 1; j <= n; j++) {
          const cost = typed[j - 1] === candidate[depth - 1] ? 0 : 1;
          let value = Math.min(above[j] + 1, row[j - 1] + 1, above[j - 1] + cost);
          if (depth > 1 && j > 1 && typed[j - 1] === candidate[depth - 2] && typed[j - 2] === candidate[depth - 1]) {
            value = Math.min(value, rows[depth - 2][j - 2] + 1);
          }
          row[j] = value;
          if (value < rowBest) rowBest = value;
        }
        if (rowBest > max) {
          prunedAt = depth;
          break;
        }
      }
      valid = (prunedAt || depth) - 1;
      if (!prunedAt || prunedAt > n) this.consider(found, typed, candidate, rows, max, prunedAt > 0);
      // Every following word with the beginning that went too far is as far: skip them all.
      index = prunedAt ? lowerBound(words, `${candidate.slice(0, prunedAt)}\uffff`, index + 1) : index + 1;
    }
    return found
      .sort(compareCandidates)
      .slice(0, MAX_CORRECTIONS)
      .map((candidate) => candidate.word);
  }

  /** `pruned`: the rows past the typed word's length went too far, so the whole word is too. */
  private consider(found: Candidate[], typed: string, word: string, rows: Int32Array[], max: number, pruned: boolean) {
    const n = typed.length;
    const whole = !pruned && word.length <= n + max ? rows[word.length][n] : max + 1;
    const prefix = word.length > n ? rows[n][n] : max + 1;
    const distance = Math.min(whole, prefix);
    if (distance > max) return;
    found.push({
      word,
      distance,
      prefix: whole > max,
      lettersLeftOut: isSubsequence(typed, word),
      count: this.counts.get(word) ?? 0,
    });
  }
}

function firstLetter(word: string): string {
  return String.fromCodePoint(word.codePointAt(0)!);
}

function compareCandidates(a: Candidate, b: Candidate): number {
  return (
    a.distance - b.distance ||
    Number(b.lettersLeftOut) - Number(a.lettersLeftOut) ||
    Number(a.prefix) - Number(b.prefix) ||
    b.count - a.count ||
    (a.word < b.word ? -1 : a.word > b.word ? 1 : 0)
  );
}

/** The first index at or after `from` whose word is not below `word`. */
function lowerBound(words: string[], word: string, from = 0): number {
  let low = from;
  let high = words.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (words[middle] < word) low = middle + 1;
    else high = middle;
  }
  return low;
}

function commonPrefixLength(a: string, b: string): number {
  let length = 0;
  while (length < a.length && length < b.length && a[length] === b[length]) length++;
  return length;
}

function isSubsequence(letters: string, word: string): boolean {
  let at = 0;
  for (const letter of word) if (letter === letters[at]) at++;
  return at === letters.length;
}
