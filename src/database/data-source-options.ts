import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { RowDataPacket } from 'mysql2/promise';
import { DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

/** One DataSource definition for the embedded SQLite file and for MySQL/MariaDB, chosen by URL. */
export function dataSourceOptions(databaseUrl: string): DataSourceOptions {
  const common = { entities: ENTITIES, migrations: MIGRATIONS, synchronize: false, migrationsRun: false };
  if (databaseUrl.startsWith('sqlite:')) {
    const file = databaseUrl.slice('sqlite:'.length);
    if (file !== ':memory:') mkdirSync(dirname(resolve(file)), { recursive: true });
    return {
      ...common,
      type: 'better-sqlite3',
      database: file,
      enableWAL: true,
      // Other processes (the CLI, a jobs worker) may hold the write lock for a moment.
      timeout: 10_000,
      prepareDatabase: (db: { pragma(sql: string): unknown }) => {
        db.pragma('foreign_keys = ON');
        db.pragma('synchronous = NORMAL');
      },
    };
  }
  const url = new URL(databaseUrl.replace(/^mariadb:/, 'mysql:'));
  return {
    ...common,
    type: 'mysql',
    host: url.hostname,
    port: Number(url.port || 3306),
    username: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database: url.pathname.replace(/^\//, ''),
    charset: 'utf8mb4_unicode_ci',
    timezone: 'Z',
    poolSize: Number(url.searchParams.get('poolSize') || 10),
    supportBigNumbers: true,
    bigNumberStrings: false,
  };
}

export function isSqlite(options: DataSourceOptions): boolean {
  return options.type === 'better-sqlite3';
}

/** MySQL or MariaDB: row locks, named locks, real concurrent transactions. */
export function isMysqlFamily(options: DataSourceOptions): boolean {
  return options.type === 'mysql' || options.type === 'mariadb';
}

/**
 * TypeORM reads MariaDB's schema differently from MySQL's (column defaults, JSON), so a `mysql://` URL
 * that turns out to be MariaDB gets the `mariadb` driver; otherwise every start would see schema drift.
 */
export async function detectServer(options: DataSourceOptions): Promise<DataSourceOptions> {
  if (options.type !== 'mysql') return options;
  const { createConnection } = await import('mysql2/promise');
  const connection = await createConnection({
    host: options.host,
    port: options.port,
    user: options.username,
    password: options.password,
  });
  try {
    const [rows] = await connection.query<RowDataPacket[]>('SELECT VERSION() AS version');
    return String(rows[0].version).includes('MariaDB') ? { ...options, type: 'mariadb' } : options;
  } finally {
    await connection.end();
  }
}
