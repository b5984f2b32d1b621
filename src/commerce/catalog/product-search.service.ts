import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isSqlite } from '../../database/data-source-options';
import { ProductCondition } from './facets';
import { FulltextLimits, fts5Query, mysqlBooleanQuery, searchWords } from './search-terms';

export interface SearchPage {
  /** Matching product ids, most relevant first. */
  ids: number[];
  total: number;
}

/**
 * Full-text product search over name, SKU and description (index from the ProductSearch migration),
 * limited to the store's visible, enabled products. A hit in the name outweighs one in the SKU, which
 * outweighs one in the description; equal scores fall back to the name.
 */
@Injectable()
export class ProductSearchService {
  private limits?: Promise<FulltextLimits>;

  constructor(private readonly dataSource: DataSource) {}

  /** `narrowedTo`: further conditions on the products (`p`), the facet selection's. */
  async search(
    storeId: number,
    query: string,
    offset: number,
    limit: number,
    narrowedTo: ProductCondition[] = [],
  ): Promise<SearchPage> {
    const words = searchWords(query);
    if (words.length === 0) return { ids: [], total: 0 };
    const [narrowing, params] = this.positional(narrowedTo);
    return isSqlite(this.dataSource.options)
      ? this.searchFts5(storeId, fts5Query(words), offset, limit, narrowing, params)
      : this.searchFulltext(
          storeId,
          mysqlBooleanQuery(words, await this.fulltextLimits()),
          offset,
          limit,
          narrowing,
          params,
        );
  }

  /** The products (`p`) the query finds, as a condition the facet counts start from; null for no real words. */
  async scope(query: string): Promise<ProductCondition | null> {
    const words = searchWords(query);
    if (words.length === 0) return null;
    return isSqlite(this.dataSource.options)
      ? {
          sql: 'p.id IN (SELECT rowid FROM products_fts WHERE products_fts MATCH :searchMatch)',
          params: { searchMatch: fts5Query(words) },
        }
      : {
          sql: 'MATCH(p.name, p.sku, p.description) AGAINST (:searchMatch IN BOOLEAN MODE)',
          params: { searchMatch: mysqlBooleanQuery(words, await this.fulltextLimits()) },
        };
  }

  /** The conditions as ` AND …` with `?` placeholders and their values, in order. */
  private positional(conditions: ProductCondition[]): [string, unknown[]] {
    if (conditions.length === 0) return ['', []];
    const params = Object.assign({}, ...conditions.map((condition) => condition.params)) as Record<string, unknown>;
    const sql = conditions.map((condition) => ` AND ${condition.sql}`).join('');
    return this.dataSource.driver.escapeQueryWithParameters(sql, params);
  }

  private async searchFts5(
    storeId: number,
    match: string,
    offset: number,
    limit: number,
    narrowing: string,
    params: unknown[],
  ): Promise<SearchPage> {
    const from =
      'FROM "products_fts" JOIN "products" "p" ON "p"."id" = "products_fts"."rowid" ' +
      `WHERE "products_fts" MATCH ? AND "p"."storeId" = ? AND "p"."visible" = 1 AND "p"."enabled" = 1${narrowing}`;
    const [rows, [{ total }]] = await Promise.all([
      this.dataSource.query<Array<{ id: number }>>(
        // bm25 is lower for better matches; the weights follow the column order name, sku, description.
        `SELECT "p"."id" AS "id" ${from} ORDER BY bm25("products_fts", 10.0, 5.0, 1.0), LOWER("p"."name"), "p"."id" ` +
          'LIMIT ? OFFSET ?',
        [match, storeId, ...params, limit, offset],
      ),
      this.dataSource.query<Array<{ total: number }>>(`SELECT COUNT(*) AS "total" ${from}`, [
        match,
        storeId,
        ...params,
      ]),
    ]);
    return { ids: rows.map((row) => Number(row.id)), total: Number(total) };
  }

  /**
   * BOOLEAN MODE rather than NATURAL LANGUAGE MODE: it needs every real word (natural mode ranks products
   * matching any word, so "alpine tent" lists every tent) and knows prefixes, while InnoDB still scores it.
   */
  private async searchFulltext(
    storeId: number,
    against: string,
    offset: number,
    limit: number,
    narrowing: string,
    params: unknown[],
  ): Promise<SearchPage> {
    const matches = 'MATCH(`p`.`name`, `p`.`sku`, `p`.`description`) AGAINST (? IN BOOLEAN MODE)';
    const from = `FROM \`products\` \`p\` WHERE ${matches} AND \`p\`.\`storeId\` = ? AND \`p\`.\`visible\` = 1 AND \`p\`.\`enabled\` = 1${narrowing}`;
    const [rows, [{ total }]] = await Promise.all([
      this.dataSource.query<Array<{ id: number }>>(
        `SELECT \`p\`.\`id\` AS \`id\`, MATCH(\`p\`.\`name\`) AGAINST (? IN BOOLEAN MODE) * 3 + ${matches} AS \`score\` ` +
          `${from} ORDER BY \`score\` DESC, \`p\`.\`name\`, \`p\`.\`id\` LIMIT ? OFFSET ?`,
        [against, against, against, storeId, ...params, limit, offset],
      ),
      this.dataSource.query<Array<{ total: number }>>(`SELECT COUNT(*) AS \`total\` ${from}`, [
        against,
        storeId,
        ...params,
      ]),
    ]);
    return { ids: rows.map((row) => Number(row.id)), total: Number(total) };
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
