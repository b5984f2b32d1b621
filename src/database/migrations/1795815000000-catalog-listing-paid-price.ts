import { MigrationInterface, QueryRunner } from 'typeorm';

const SQLITE_COLUMNS = '"storeId", "visible", "enabled", "price", "stock", "salePrice", "saleStartsAt", "saleEndsAt"';
const MYSQL_COLUMNS = '`storeId`, `visible`, `enabled`, `price`, `stock`, `salePrice`, `saleStartsAt`, `saleEndsAt`';

/**
 * The listing's price index also holds the sale columns, so the price a shopper pays (the sale price while a sale
 * runs) is read from the index alone: a price filter or price order no longer reads every product row. The index
 * keeps its name (declared on the entity with `synchronize: false`).
 */
export class CatalogListingPaidPrice1795815000000 implements MigrationInterface {
  name = 'CatalogListingPaidPrice1795815000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'better-sqlite3') {
      await queryRunner.query('DROP INDEX "IDX_products_listing_price"');
      await queryRunner.query(`CREATE INDEX "IDX_products_listing_price" ON "products" (${SQLITE_COLUMNS})`);
      return;
    }
    await queryRunner.query('DROP INDEX `IDX_products_listing_price` ON `products`');
    await queryRunner.query(`CREATE INDEX \`IDX_products_listing_price\` ON \`products\` (${MYSQL_COLUMNS})`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'better-sqlite3') {
      await queryRunner.query('DROP INDEX "IDX_products_listing_price"');
      await queryRunner.query(
        'CREATE INDEX "IDX_products_listing_price" ON "products" ("storeId", "visible", "enabled", "price", "stock")',
      );
      return;
    }
    await queryRunner.query('DROP INDEX `IDX_products_listing_price` ON `products`');
    await queryRunner.query(
      'CREATE INDEX `IDX_products_listing_price` ON `products` (`storeId`, `visible`, `enabled`, `price`, `stock`)',
    );
  }
}
