import { DataSource } from 'typeorm';
import { isSqlite } from './data-source-options';

type Parameters = Record<string, unknown>;
type Escape = (sql: string, parameters: Parameters, nativeParameters: Parameters) => [string, unknown[]];

/**
 * TypeORM's SQLite driver writes numeric parameters into the SQL text (`"id" = 42`), so every cart id,
 * timestamp and quantity makes a statement of its own: better-sqlite3 prepares each one from scratch and
 * TypeORM's statement cache never hits. Here whole numbers are bound instead, as BigInt, since better-sqlite3
 * binds a JS number as REAL, which would not compare with a TEXT column the way the literal did. One prepared
 * statement then serves every query of the same shape.
 */
export function bindIntegersOnSqlite(dataSource: DataSource): void {
  if (!isSqlite(dataSource.options)) return;
  const driver = dataSource.driver as unknown as { escapeQueryWithParameters: Escape };
  const escape = driver.escapeQueryWithParameters.bind(driver);
  driver.escapeQueryWithParameters = (sql, parameters, nativeParameters) =>
    escape(sql, parameters && bindable(parameters), nativeParameters);
}

function bindable(parameters: Parameters): Parameters {
  const result: Parameters = {};
  for (const [key, value] of Object.entries(parameters)) {
    result[key] = Array.isArray(value) ? value.map(asInteger) : asInteger(value);
  }
  return result;
}

function asInteger(value: unknown): unknown {
  return typeof value === 'number' && Number.isSafeInteger(value) ? BigInt(value) : value;
}
