import { fts5Query, mysqlBooleanQuery } from '../../src/commerce/catalog/search-terms';
import { allowedEdits, SearchVocabulary } from '../../src/commerce/catalog/search-vocabulary';

describe('search vocabulary', () => {
  const vocabulary = SearchVocabulary.of([
    'Coffee Scoop',
    'Coffee Mug',
    'Leverette Espresso Maker',
    'Hand Burr Grinder',
    'Café Filter Papers',
    'Cone Dripper',
    'DEMO-MUG-ENAMEL',
  ]);

  it('allows no edit below 4 letters, 1 for 4–5 letters and 2 for longer words; one more when loose', () => {
    expect(['mug', 'cofe', 'tenty', 'grnder'].map((word) => allowedEdits(word))).toEqual([0, 1, 1, 2]);
    expect(['mug', 'cofe', 'grnder'].map((word) => allowedEdits(word, true))).toEqual([0, 2, 3]);
  });

  it('knows the beginnings of its words, accents folded', () => {
    expect(vocabulary.begins('espre')).toBe(true);
    expect(vocabulary.begins('Café')).toBe(true);
    expect(vocabulary.begins('cafe')).toBe(true);
    expect(vocabulary.begins('enamel')).toBe(true);
    expect(vocabulary.begins('cofe')).toBe(false);
    expect(vocabulary.size).toBe(16);
  });

  it('corrects a misspelt word to the nearest words or word beginnings, never a short word or a known one', () => {
    // One edit from "cafe" and "cone" too: the word that only lacks typed letters comes first.
    expect(vocabulary.corrections('cofe')).toEqual(['coffee', 'cafe', 'cone']);
    expect(vocabulary.corrections('grnider')).toEqual(['grinder']);
    expect(vocabulary.corrections('expresso')).toEqual(['espresso']);
    expect(vocabulary.corrections('expreso')).toEqual(['espresso']);
    expect(vocabulary.corrections('grnder')).toEqual(['grinder']);
    expect(vocabulary.corrections('grind')).toEqual([]);
    expect(vocabulary.corrections('mig')).toEqual([]);
    expect(vocabulary.corrections('zzqx')).toEqual([]);
    // Two edits for a 4-letter word only when loose (the "did you mean" of a search that found nothing).
    expect(vocabulary.corrections('grnd')).toEqual([]);
    expect(vocabulary.corrections('grnd', true)).toEqual(['grinder']);
  });

  it('puts alternatives into the full-text syntax of both databases', () => {
    expect(fts5Query([['cofe', 'coffee'], ['mug']])).toBe('("cofe"* OR "coffee"*) AND "mug"*');
    const limits = { minTokenSize: 3, stopwords: new Set(['the']) };
    expect(mysqlBooleanQuery([['cofe', 'coffee'], ['mug']], limits)).toBe('+(cofe* coffee*) +mug*');
    expect(mysqlBooleanQuery([['te', 'tent'], ['the'], ['a', 'b']], limits)).toBe('+tent* the* a* b*');
  });

  it('corrects a word among 100,000 distinct words within milliseconds', () => {
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    const random = (seed: number) => () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const next = random(42);
    const names: string[] = [];
    for (let index = 0; index < 100_000; index++) {
      const length = 4 + Math.floor(next() * 8);
      names.push(Array.from({ length }, () => letters[Math.floor(next() * 26)]).join('') + ' coffee');
    }
    const built = Date.now();
    const big = SearchVocabulary.of(names);
    const buildMs = Date.now() - built;
    big.corrections('cofeee'); // warm up
    const started = process.hrtime.bigint();
    const rounds = 10;
    for (let round = 0; round < rounds; round++) big.corrections('cofeee');
    const perWordMs = Number(process.hrtime.bigint() - started) / 1e6 / rounds;
    expect(big.corrections('cofeee')).toContain('coffee');
    process.stdout.write(
      `vocabulary of ${big.size} words: built in ${buildMs} ms, ${perWordMs.toFixed(2)} ms a word\n`,
    );
    // Only a guard against a pathological slowdown: the test machine is shared and loops run slower in Jest.
    expect(perWordMs).toBeLessThan(500);
  });
});
