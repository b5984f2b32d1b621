import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isSqlite } from '../../database/data-source-options';
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

  async search(storeId: number, query: string, offset: number, limit: number): Promise<SearchPage> {
    const words = searchWords(query);
    if (words.length === 0) return { ids: [], total: 0 };
    return isSqlite(this.dataSource.options)
      ? this.searchFts5(storeId, fts5Query(words), offset, limit)
      : this.searchFulltext(storeId, mysqlBooleanQuery(words, await this.fulltextLimits()), offset, limit);
  }

  private async searchFts5(storeId: number, match: string, offset: number, limit: number): Promise<SearchPage> {
    const from =
      'FROM "products_fts" JOIN "products" "p" ON "p"."id" = "products_fts"."rowid" ' +
      'WHERE "products_fts" MATCH ? AND "p"."storeId" = ? AND "p"."visible" = 1 AND "p"."enabled" = 1';
    const [rows, [{ total }]] = await Promise.all([
      this.dataSource.query<Array<{ id: number }>>(
        // bm25 is lower for better matches; the weights follow the column order name, sku, description.
        `SELECT "p"."id" AS "id" ${from} ORDER BY bm25("products_fts", 10.0, 5.0, 1.0), LOWER("p"."name"), "p"."id" ` +
          'LIMIT ? OFFSET ?',
        [match, storeId, limit, offset],
      ),
      this.dataSource.query<Array<{ total: number }>>(`SELECT COUNT(*) AS "total" ${from}`, [match, storeId]),
    ]);
    return { ids: rows.map((row) => Number(row.id)), total: Number(total) };
  }

  /**
   * BOOLEAN MODE rather than NATURAL LANGUAGE MODE: it needs every real word (natural mode ranks products
   * matching any word, so "alpine tent" lists every tent) and knows prefixes, while InnoDB still scores it.
   */
  private async searchFulltext(storeId: number, against: string, offset: number, limit: number): Promise<SearchPage> {
    const matches = 'MATCH(`p`.`name`, `p`.`sku`, `p`.`description`) AGAINST (? IN BOOLEAN MODE)';
    const from = `FROM \`products\` \`p\` WHERE ${matches} AND \`p\`.\`storeId\` = ? AND \`p\`.\`visible\` = 1 AND \`p\`.\`enabled\` = 1`;
    const [rows, [{ total }]] = await Promise.all([
      this.dataSource.query<Array<{ id: number }>>(
        `SELECT \`p\`.\`id\` AS \`id\`, MATCH(\`p\`.\`name\`) AGAINST (? IN BOOLEAN MODE) * 3 + ${matches} AS \`score\` ` +
          `${from} ORDER BY \`score\` DESC, \`p\`.\`name\`, \`p\`.\`id\` LIMIT ? OFFSET ?`,
        [against, against, against, storeId, limit, offset],
      ),
      this.dataSource.query<Array<{ total: number }>>(`SELECT COUNT(*) AS \`total\` ${from}`, [against, storeId]),
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
