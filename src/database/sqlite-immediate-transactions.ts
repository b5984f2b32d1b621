import { DataSource, QueryRunner } from 'typeorm';
import { isSqlite } from './data-source-options';

/**
 * TypeORM opens SQLite transactions DEFERRED: a transaction starts as a reader and becomes a writer at its first
 * write. In WAL mode a reader whose snapshot another process has written past since cannot become a writer, and
 * SQLite answers "database is locked" at once, without waiting the busy timeout. Other processes are real here:
 * the CLI (a catalog import), a jobs worker, a second app on the same file. Opening every transaction IMMEDIATE
 * takes the write lock up front, where the busy timeout applies; inside one process the transaction runner admits
 * one unit of work at a time anyway, so nothing here waits that did not wait before.
 */
export function beginImmediateOnSqlite(dataSource: DataSource): void {
  if (!isSqlite(dataSource.options)) return;
  // The better-sqlite3 driver hands out one query runner for the whole data source.
  const queryRunner: QueryRunner = dataSource.driver.createQueryRunner('master');
  const query = queryRunner.query.bind(queryRunner) as (sql: string, ...rest: unknown[]) => Promise<unknown>;
  queryRunner.query = ((sql: string, ...rest: unknown[]) =>
    query(sql === 'BEGIN TRANSACTION' ? 'BEGIN IMMEDIATE TRANSACTION' : sql, ...rest)) as QueryRunner['query'];
}
