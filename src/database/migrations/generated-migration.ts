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
    for (const statement of this.dialect(queryRunner).up) await queryRunner.query(statement);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const statement of this.dialect(queryRunner).down) await queryRunner.query(statement);
  }

  private dialect(queryRunner: QueryRunner) {
    return queryRunner.connection.options.type === 'better-sqlite3' ? this.statements.sqlite : this.statements.mysql;
  }
}
