import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ExpiringCache, expiringCache, refreshingCache } from '../../common/expiring-cache';
import { CategoryTree } from '../categories/category-tree';
import { Product } from '../products/product.entity';
import { shownProducts } from '../products/shown-products';
import { foldWord, SearchVocabulary } from './search-vocabulary';
import { SearchSynonym } from './search-synonym.entity';

/**
 * How long a store's vocabulary is kept before it is read again in the background (the old one answering
 * meanwhile: reading 100,000 names takes a second): a product named since then is found by its name at once (the
 * index has it), only typos of a new word wait this long to be forgiven.
 */
const VOCABULARY_TTL_MS = 5 * 60_000;
/** Synonyms are cleared on every CP edit here; the TTL covers edits made on another instance. */
const SYNONYMS_TTL_MS = 60_000;

/** Word (folded) → the other words of its synonym groups. */
export type SynonymMap = ReadonlyMap<string, string[]>;

/**
 * What the search knows beyond the index, per store and cached: the vocabulary its typo tolerance corrects
 * against (words of shown products' names and SKUs and of shown categories) and the CP's synonym groups.
 */
@Injectable()
export class SearchDictionary {
  private readonly vocabularies = new Map<number, ExpiringCache<SearchVocabulary>>();
  private readonly synonymMaps = new Map<number, ExpiringCache<SynonymMap>>();

  constructor(private readonly dataSource: DataSource) {}

  vocabulary(storeId: number): Promise<SearchVocabulary> {
    return this.cached(this.vocabularies, storeId, () =>
      refreshingCache(VOCABULARY_TTL_MS, () => this.loadVocabulary(storeId)),
    );
  }

  synonyms(storeId: number): Promise<SynonymMap> {
    return this.cached(this.synonymMaps, storeId, () =>
      expiringCache(SYNONYMS_TTL_MS, () => this.loadSynonyms(storeId)),
    );
  }

  /** After a synonym edit: the next search reads the groups again. */
  forgetSynonyms(storeId: number): void {
    this.synonymMaps.get(storeId)?.clear();
  }

  private cached<T>(caches: Map<number, ExpiringCache<T>>, storeId: number, make: () => ExpiringCache<T>) {
    let cache = caches.get(storeId);
    if (!cache) {
      cache = make();
      caches.set(storeId, cache);
    }
    return cache();
  }

  private async loadVocabulary(storeId: number): Promise<SearchVocabulary> {
    const shown = shownProducts(storeId);
    const [products, tree] = await Promise.all([
      this.dataSource
        .getRepository(Product)
        .createQueryBuilder('p')
        .select(['p.name AS name', 'p.sku AS sku'])
        .where(shown.sql, shown.params)
        .getRawMany<{ name: string; sku: string }>(),
      CategoryTree.load(this.dataSource.manager, storeId),
    ]);
    return SearchVocabulary.of([
      ...products.flatMap((product) => [product.name, product.sku]),
      ...tree.shownNodes().map((node) => node.name),
    ]);
  }

  private async loadSynonyms(storeId: number): Promise<SynonymMap> {
    const groups = await this.dataSource
      .getRepository(SearchSynonym)
      .find({ where: { storeId }, order: { id: 'ASC' } });
    const map = new Map<string, string[]>();
    for (const group of groups) {
      const words = group.words.map(foldWord);
      for (const word of words) {
        const others = words.filter((other) => other !== word);
        map.set(word, [...new Set([...(map.get(word) ?? []), ...others])]);
      }
    }
    return map;
  }
}
