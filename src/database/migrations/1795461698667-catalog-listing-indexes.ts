import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The storefront listing's sort orders read from an index instead of sorting the whole catalog per request
 * (docs/testing.md: listing pages under 50 ms at 10,000 products). Name order is case-insensitive: SQLite's
 * NOCASE collation in the index and the query, MySQL/MariaDB's case-insensitive column collation. The price
 * index also covers the price-range and in-stock filters, so a filtered page's count reads the index alone.
 * Declared on the entity with `synchronize: false` (an index collation TypeORM cannot describe).
 */
export class CatalogListingIndexes1795461698667 implements MigrationInterface {
  name = 'CatalogListingIndexes1795461698667';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'better-sqlite3') {
      await queryRunner.query(
        'CREATE INDEX "IDX_products_listing_name" ON "products" ("storeId", "visible", "enabled", "name" COLLATE NOCASE)',
      );
      await queryRunner.query(
        'CREATE INDEX "IDX_products_listing_price" ON "products" ("storeId", "visible", "enabled", "price", "stock")',
      );
      return;
    }
    await queryRunner.query(
      'CREATE INDEX `IDX_products_listing_name` ON `products` (`storeId`, `visible`, `enabled`, `name`)',
    );
    await queryRunner.query(
      'CREATE INDEX `IDX_products_listing_price` ON `products` (`storeId`, `visible`, `enabled`, `price`, `stock`)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'better-sqlite3') {
      await queryRunner.query('DROP INDEX "IDX_products_listing_price"');
      await queryRunner.query('DROP INDEX "IDX_products_listing_name"');
      return;
    }
    await queryRunner.query('DROP INDEX `IDX_products_listing_price` ON `products`');
    await queryRunner.query('DROP INDEX `IDX_products_listing_name` ON `products`');
  }
}
