import { MigrationInterface, QueryRunner } from 'typeorm';

export interface DialectStatements {
  sqlite: { up: string[]; down: string[] };
  mysql: { up: string[]; down: string[] };
}

/** A migration written by scripts/generate-migration.js: TypeORM's schema diff, one list per dialect. */
export abstract class GeneratedMigration implements MigrationInterface {
  abstract readonly name: string;
  protected abstract readonly statements: DialectStatements;

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const statement of this.dialect(queryRunner).up) await queryRunner.query(utf8mb4Table(statement));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const statement of this.dialect(queryRunner).down) await queryRunner.query(statement);
  }

  private dialect(queryRunner: QueryRunner) {
    return queryRunner.connection.options.type === 'better-sqlite3' ? this.statements.sqlite : this.statements.mysql;
  }
}

/**
 * A MySQL table is created as utf8mb4 whatever the database's default: a latin1 default (the upstream server's)
 * would turn "č" into an error or a "?".
 */
function utf8mb4Table(statement: string): string {
  return /^CREATE TABLE `/.test(statement) && !/CHARSET/i.test(statement)
    ? `${statement} DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci`
    : statement;
}
