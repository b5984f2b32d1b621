import { DataSource } from 'typeorm';
import { isMysqlFamily } from './data-source-options';

/**
 * Runs pending migrations. On MySQL several app instances may start together, so they take turns
 * through a named lock; on SQLite the file's own write lock does the same.
 */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  if (!isMysqlFamily(dataSource.options)) {
    return (await dataSource.runMigrations({ transaction: 'each' })).map((migration) => migration.name);
  }
  const runner = dataSource.createQueryRunner();
  try {
    await runner.query(`SELECT GET_LOCK('shop_migrations', 120)`);
    return (await dataSource.runMigrations({ transaction: 'each' })).map((migration) => migration.name);
  } finally {
    await runner.query(`SELECT RELEASE_LOCK('shop_migrations')`).catch(() => undefined);
    await runner.release();
  }
}
