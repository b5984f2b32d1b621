import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isSqlite } from '../../database/data-source-options';
import { ProductCondition } from './facets';
import { SearchDictionary } from './search-dictionary.service';
import { FulltextLimits, fts5Query, mysqlBooleanQuery, searchWords } from './search-terms';
import { foldWord, SearchVocabulary } from './search-vocabulary';

/**
 * A spelling the search offers instead of the query: `applied` when the shown results are those of this spelling
 * alone ("Showing results for …"), else a suggestion for a query that found nothing ("Did you mean …?").
 */
export interface DidYouMean {
  query: string;
  applied: boolean;
}

export interface SearchPage {
  /** Matching product ids, most relevant first. */
  ids: number[];
  total: number;
  didYouMean: DidYouMean | null;
  /** The products the searched terms match (`p`), before any narrowing: where facet counts start; null: none. */
  matched: ProductCondition | null;
}

/** Extra conditions on the products (`p`) as ` AND …` with `?` placeholders, and their values in order. */
type Narrowing = [sql: string, params: unknown[]];

/**
 * Full-text product search over name, SKU and description (index from the ProductSearch migration),
 * limited to the store's visible, enabled products. A hit in the name outweighs one in the SKU, which
 * outweighs one in the description; equal scores fall back to the name.
 *
 * It forgives (docs/shop.md, _Search_): every word is a prefix, a word also finds its CP synonyms, and a word
 * that begins no word of the vocabulary (SearchDictionary) also finds the words it is a likely typo of.
 */
@Injectable()
export class ProductSearchService {
  private limits?: Promise<FulltextLimits>;

  constructor(
    private readonly dataSource: DataSource,
    private readonly dictionary: SearchDictionary,
  ) {}

  /** One page of what `query` finds, narrowed by `narrowedTo` (the facet selection). */
  async search(
    storeId: number,
    query: string,
    offset: number,
    limit: number,
    narrowedTo: ProductCondition[] = [],
  ): Promise<SearchPage> {
    const words = searchWords(query);
    const empty = { ids: [], total: 0, didYouMean: null, matched: null };
    if (words.length === 0) return empty;
    const narrowing = this.positional(narrowedTo);
    const [vocabulary, synonyms] = await Promise.all([
      this.dictionary.vocabulary(storeId),
      this.dictionary.synonyms(storeId),
    ]);
    const asTyped = words.map((word) => [...new Set([word, ...(synonyms.get(foldWord(word)) ?? [])])]);
    const corrections = asTyped.map((alternatives) =>
      alternatives.some((word) => vocabulary.begins(word)) ? [] : vocabulary.corrections(alternatives[0]),
    );
    if (corrections.every((found) => found.length === 0)) {
      const page = await this.find(storeId, asTyped, offset, limit, narrowing);
      const matched = await this.matching(asTyped);
      return page.total > 0
        ? { ...page, didYouMean: null, matched }
        : this.nothingFound(storeId, words, vocabulary, narrowing, matched);
    }
    const searched = asTyped.map((alternatives, index) => [...alternatives, ...corrections[index]]);
    const [page, matched] = await Promise.all([
      this.find(storeId, searched, offset, limit, narrowing),
      this.matching(searched),
    ]);
    if (page.total === 0) return this.nothingFound(storeId, words, vocabulary, narrowing, matched);
    // Only when the words as typed find nothing are the results the corrections' alone.
    const applied = (await this.count(storeId, asTyped, narrowing)) === 0;
    const corrected = words.map((word, index) => corrections[index][0] ?? word).join(' ');
    return {
      ...page,
      didYouMean: applied ? { query: corrected, applied } : null,
      matched,
    };
  }

  /** The products the terms match, as a condition on `p` with named parameters (for the facet counts). */
  private async matching(terms: string[][]): Promise<ProductCondition> {
    return isSqlite(this.dataSource.options)
      ? {
          sql: 'p.id IN (SELECT rowid FROM products_fts WHERE products_fts MATCH :searchMatch)',
          params: { searchMatch: fts5Query(terms) },
        }
      : {
          sql: 'MATCH(p.name, p.sku, p.description) AGAINST (:searchMatch IN BOOLEAN MODE)',
          params: { searchMatch: await this.fulltextAgainst(terms) },
        };
  }

  private positional(conditions: ProductCondition[]): Narrowing {
    if (conditions.length === 0) return ['', []];
    const params = Object.assign({}, ...conditions.map((condition) => condition.params)) as Record<string, unknown>;
    const sql = conditions.map((condition) => ` AND ${condition.sql}`).join('');
    return this.dataSource.driver.escapeQueryWithParameters(sql, params);
  }

  /**
   * Nothing found even with the corrections: a looser spelling (one more edit) that does find something, if any.
   * `matched` stays what was searched: the facets a shopper narrowed to nothing still show, at 0.
   */
  private async nothingFound(
    storeId: number,
    words: string[],
    vocabulary: SearchVocabulary,
    narrowing: Narrowing,
    matched: ProductCondition,
  ): Promise<SearchPage> {
    const empty = { ids: [], total: 0, didYouMean: null, matched };
    const respelt = words.map((word) => vocabulary.corrections(word, true)[0] ?? word);
    if (respelt.every((word, index) => word === words[index])) return empty;
    if (
      (await this.count(
        storeId,
        respelt.map((word) => [word]),
        narrowing,
      )) === 0
    )
      return empty;
    return { ...empty, didYouMean: { query: respelt.join(' '), applied: false } };
  }

  private async find(storeId: number, terms: string[][], offset: number, limit: number, narrowing: Narrowing) {
    const [ids, total] = await Promise.all([
      this.ids(storeId, terms, offset, limit, narrowing),
      this.count(storeId, terms, narrowing),
    ]);
    return { ids, total };
  }

  private async ids(
    storeId: number,
    terms: string[][],
    offset: number,
    limit: number,
    [narrowed, params]: Narrowing,
  ): Promise<number[]> {
    const rows = isSqlite(this.dataSource.options)
      ? await this.dataSource.query<Array<{ id: number }>>(
          // bm25 is lower for better matches; the weights follow the column order name, sku, description.
          `SELECT "p"."id" AS "id" ${FTS5_FROM}${narrowed} ORDER BY bm25("products_fts", 10.0, 5.0, 1.0), ` +
            'LOWER("p"."name"), "p"."id" LIMIT ? OFFSET ?',
          [fts5Query(terms), storeId, ...params, limit, offset],
        )
      : await this.fulltextAgainst(terms).then((against) =>
          this.dataSource.query<Array<{ id: number }>>(
            `SELECT \`p\`.\`id\` AS \`id\`, MATCH(\`p\`.\`name\`) AGAINST (? IN BOOLEAN MODE) * 3 + ${FULLTEXT_MATCH} ` +
              `AS \`score\` ${FULLTEXT_FROM}${narrowed} ORDER BY \`score\` DESC, \`p\`.\`name\`, \`p\`.\`id\` ` +
              'LIMIT ? OFFSET ?',
            [against, against, against, storeId, ...params, limit, offset],
          ),
        );
    return rows.map((row) => Number(row.id));
  }

  private async count(storeId: number, terms: string[][], [narrowed, params]: Narrowing): Promise<number> {
    const [{ total }] = isSqlite(this.dataSource.options)
      ? await this.dataSource.query<Array<{ total: number }>>(`SELECT COUNT(*) AS "total" ${FTS5_FROM}${narrowed}`, [
          fts5Query(terms),
          storeId,
          ...params,
        ])
      : await this.dataSource.query<Array<{ total: number }>>(
          `SELECT COUNT(*) AS \`total\` ${FULLTEXT_FROM}${narrowed}`,
          [await this.fulltextAgainst(terms), storeId, ...params],
        );
    return Number(total);
  }

  private async fulltextAgainst(terms: string[][]): Promise<string> {
    return mysqlBooleanQuery(terms, await this.fulltextLimits());
  }

  /** Read once from the server: they are fixed when the index is built. */
  private fulltextLimits(): Promise<FulltextLimits> {
    this.limits ??= (async () => {
      const [settings] = await this.dataSource.query<Array<{ minTokenSize: number; enabled: number; table: string }>>(
        'SELECT @@innodb_ft_min_token_size AS minTokenSize, @@innodb_ft_enable_stopword AS enabled, ' +
          '@@innodb_ft_server_stopword_table AS `table`',
      );
      let stopwords: Array<{ value: string }> = [];
      if (Number(settings.enabled)) {
        const custom = settings.table ? String(settings.table).split('/') : null;
        stopwords = await this.dataSource.query(
          custom
            ? `SELECT \`value\` FROM \`${custom[0]}\`.\`${custom[1]}\``
            : 'SELECT `value` FROM INFORMATION_SCHEMA.INNODB_FT_DEFAULT_STOPWORD',
        );
      }
      return {
        minTokenSize: Number(settings.minTokenSize),
        stopwords: new Set(stopwords.map((row) => String(row.value).toLowerCase())),
      };
    })().catch((error) => {
      this.limits = undefined;
      throw error;
    });
    return this.limits;
  }
}

const FTS5_FROM =
  'FROM "products_fts" JOIN "products" "p" ON "p"."id" = "products_fts"."rowid" ' +
  'WHERE "products_fts" MATCH ? AND "p"."storeId" = ? AND "p"."visible" = 1 AND "p"."enabled" = 1';

/**
 * BOOLEAN MODE rather than NATURAL LANGUAGE MODE: it needs every real word (natural mode ranks products
 * matching any word, so "alpine tent" lists every tent) and knows prefixes, while InnoDB still scores it.
 */
const FULLTEXT_MATCH = 'MATCH(`p`.`name`, `p`.`sku`, `p`.`description`) AGAINST (? IN BOOLEAN MODE)';
const FULLTEXT_FROM =
  `FROM \`products\` \`p\` WHERE ${FULLTEXT_MATCH} AND \`p\`.\`storeId\` = ? ` +
  'AND `p`.`visible` = 1 AND `p`.`enabled` = 1';
