import { DataSource, QueryRunner } from 'typeorm';
import { ConfigError } from '../config/app-config';
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
    const applied = (await dataSource.runMigrations({ transaction: 'each' })).map((migration) => migration.name);
    await assertUtf8mb4(runner);
    return applied;
  } finally {
    await runner.query(`SELECT RELEASE_LOCK('shop_migrations')`).catch(() => undefined);
    await runner.release();
  }
}

/**
 * Text must reach MySQL as utf8mb4 and be stored so: anything less turns "Kč" into an error or "K?". Start-up
 * stops with what to do instead. (TypeORM's own `migrations` table holds only ASCII class names.)
 */
async function assertUtf8mb4(runner: QueryRunner): Promise<void> {
  const [{ charset }] = (await runner.query('SELECT @@character_set_connection AS charset')) as Array<{
    charset: string;
  }>;
  if (charset !== 'utf8mb4') {
    throw new ConfigError(`The database connection uses ${charset}, not utf8mb4: text would be mangled.`);
  }
  const tables = (await runner.query(
    `SELECT TABLE_NAME AS name, TABLE_COLLATION AS collation FROM information_schema.TABLES
     WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE' AND TABLE_NAME <> 'migrations'
       AND TABLE_COLLATION NOT LIKE 'utf8mb4%' ORDER BY TABLE_NAME`,
  )) as Array<{ name: string; collation: string }>;
  if (tables.length > 0) {
    const named = tables.map(({ name, collation }) => `${name} (${collation})`).join(', ');
    throw new ConfigError(
      `Tables that cannot store every letter (e.g. "č"): ${named}. Convert each with ALTER TABLE <name> CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci, then start again.`,
    );
  }
}
