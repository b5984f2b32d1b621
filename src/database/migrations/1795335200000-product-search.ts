import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Full-text search over products: SQLite FTS5, MySQL/MariaDB FULLTEXT.
 *
 * SQLite: an external-content FTS5 table reads its text from `products` and is kept in step by triggers,
 * so every writer (import, CP, seed) stays searchable without knowing about it. The update trigger fires
 * only when a searched column really changes: stock and price updates on the checkout path cost nothing.
 * A later migration that rebuilds `products` on SQLite (TypeORM's copy-drop-rename for altered columns)
 * drops these triggers with the old table and must create them again.
 *
 * MySQL/MariaDB: one FULLTEXT index for matching and one over the name alone, so a name hit can weigh
 * more than a description-only hit. InnoDB builds one FULLTEXT index per statement.
 */
export class ProductSearch1795335200000 implements MigrationInterface {
  name = 'ProductSearch1795335200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'better-sqlite3') {
      await queryRunner.query(
        `CREATE VIRTUAL TABLE "products_fts" USING fts5(name, sku, description, content='products', ` +
          `content_rowid='id', tokenize='unicode61 remove_diacritics 2')`,
      );
      await queryRunner.query(
        `CREATE TRIGGER "products_fts_insert" AFTER INSERT ON "products" BEGIN ` +
          `INSERT INTO "products_fts"(rowid, name, sku, description) VALUES (new.id, new.name, new.sku, new.description); ` +
          `END`,
      );
      await queryRunner.query(
        `CREATE TRIGGER "products_fts_delete" AFTER DELETE ON "products" BEGIN ` +
          `INSERT INTO "products_fts"("products_fts", rowid, name, sku, description) ` +
          `VALUES ('delete', old.id, old.name, old.sku, old.description); ` +
          `END`,
      );
      await queryRunner.query(
        `CREATE TRIGGER "products_fts_update" AFTER UPDATE OF name, sku, description ON "products" ` +
          `WHEN old.name IS NOT new.name OR old.sku IS NOT new.sku OR old.description IS NOT new.description BEGIN ` +
          `INSERT INTO "products_fts"("products_fts", rowid, name, sku, description) ` +
          `VALUES ('delete', old.id, old.name, old.sku, old.description); ` +
          `INSERT INTO "products_fts"(rowid, name, sku, description) VALUES (new.id, new.name, new.sku, new.description); ` +
          `END`,
      );
      await queryRunner.query(`INSERT INTO "products_fts"("products_fts") VALUES ('rebuild')`);
      return;
    }
    await queryRunner.query('ALTER TABLE `products` ADD FULLTEXT INDEX `FT_products_name` (`name`)');
    await queryRunner.query(
      'ALTER TABLE `products` ADD FULLTEXT INDEX `FT_products_search` (`name`, `sku`, `description`)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'better-sqlite3') {
      await queryRunner.query('DROP TRIGGER "products_fts_update"');
      await queryRunner.query('DROP TRIGGER "products_fts_delete"');
      await queryRunner.query('DROP TRIGGER "products_fts_insert"');
      await queryRunner.query('DROP TABLE "products_fts"');
      return;
    }
    await queryRunner.query('ALTER TABLE `products` DROP INDEX `FT_products_search`');
    await queryRunner.query('ALTER TABLE `products` DROP INDEX `FT_products_name`');
  }
}
