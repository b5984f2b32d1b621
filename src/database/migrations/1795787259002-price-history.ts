import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sale prices on products and variants, and the price history the announced reductions read their reference
 * price from (Directive 98/6/EC Art. 6a). Every product and variant gets its first history row: the price it
 * has now, from now on, in the default store's base currency (what CurrencyService calls the base).
 *
 * Written by hand: on SQLite TypeORM would rebuild `products` to add the columns (copy, drop, rename), which
 * drops the full-text triggers and the NOCASE listing index; plain ADD COLUMN keeps them.
 */
export class PriceHistory1795787259002 implements MigrationInterface {
  name = 'PriceHistory1795787259002';

  async up(queryRunner: QueryRunner): Promise<void> {
    const sqlite = queryRunner.connection.options.type === 'better-sqlite3';
    const q = (name: string) => (sqlite ? `"${name}"` : `\`${name}\``);
    const epoch = sqlite ? 'bigint' : 'bigint NULL';
    const int = sqlite ? 'integer' : 'int NULL';
    for (const table of ['products', 'product_variants']) {
      await queryRunner.query(`ALTER TABLE ${q(table)} ADD ${q('salePrice')} ${int}`);
      await queryRunner.query(`ALTER TABLE ${q(table)} ADD ${q('saleStartsAt')} ${epoch}`);
      await queryRunner.query(`ALTER TABLE ${q(table)} ADD ${q('saleEndsAt')} ${epoch}`);
    }
    if (sqlite) {
      await queryRunner.query(
        'CREATE TABLE "product_price_history" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "dateCreated" datetime NOT NULL DEFAULT (datetime(\'now\')), "dateUpdated" datetime NOT NULL DEFAULT (datetime(\'now\')), "productId" integer NOT NULL, "variantId" integer, "currency" varchar(3) NOT NULL, "price" integer NOT NULL, "changedAt" bigint NOT NULL, CONSTRAINT "FK_64438a29390089f436eeeaae038" FOREIGN KEY ("productId") REFERENCES "products" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, CONSTRAINT "FK_4c1917feacca4d2f6e2c691fcb3" FOREIGN KEY ("variantId") REFERENCES "product_variants" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)',
      );
      await queryRunner.query(
        'CREATE INDEX "IDX_4826131976e554831b16f4a05d" ON "product_price_history" ("productId", "variantId", "currency", "changedAt") ',
      );
    } else {
      await queryRunner.query(
        'CREATE TABLE `product_price_history` (`id` int NOT NULL AUTO_INCREMENT, `dateCreated` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6), `dateUpdated` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6), `productId` int NOT NULL, `variantId` int NULL, `currency` varchar(3) NOT NULL, `price` int NOT NULL, `changedAt` bigint NOT NULL, INDEX `IDX_4826131976e554831b16f4a05d` (`productId`, `variantId`, `currency`, `changedAt`), PRIMARY KEY (`id`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci',
      );
      await queryRunner.query(
        'ALTER TABLE `product_price_history` ADD CONSTRAINT `FK_64438a29390089f436eeeaae038` FOREIGN KEY (`productId`) REFERENCES `products`(`id`) ON DELETE CASCADE ON UPDATE NO ACTION',
      );
      await queryRunner.query(
        'ALTER TABLE `product_price_history` ADD CONSTRAINT `FK_4c1917feacca4d2f6e2c691fcb3` FOREIGN KEY (`variantId`) REFERENCES `product_variants`(`id`) ON DELETE CASCADE ON UPDATE NO ACTION',
      );
    }
    const now = Date.now();
    const base = `(SELECT ${q('baseCurrency')} FROM ${q('stores')} WHERE ${q('isDefault')} = 1 ORDER BY ${q('id')} LIMIT 1)`;
    const columns = ['productId', 'variantId', 'currency', 'price', 'changedAt'].map(q).join(', ');
    await queryRunner.query(
      `INSERT INTO ${q('product_price_history')} (${columns}) ` +
        `SELECT p.${q('id')}, NULL, ${base}, p.${q('price')}, ? FROM ${q('products')} p WHERE ${base} IS NOT NULL`,
      [now],
    );
    await queryRunner.query(
      `INSERT INTO ${q('product_price_history')} (${columns}) ` +
        `SELECT v.${q('productId')}, v.${q('id')}, ${base}, COALESCE(v.${q('price')}, p.${q('price')}), ? ` +
        `FROM ${q('product_variants')} v JOIN ${q('products')} p ON p.${q('id')} = v.${q('productId')} ` +
        `WHERE ${base} IS NOT NULL`,
      [now],
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const sqlite = queryRunner.connection.options.type === 'better-sqlite3';
    const q = (name: string) => (sqlite ? `"${name}"` : `\`${name}\``);
    await queryRunner.query(`DROP TABLE ${q('product_price_history')}`);
    for (const table of ['product_variants', 'products']) {
      for (const column of ['saleEndsAt', 'saleStartsAt', 'salePrice']) {
        await queryRunner.query(`ALTER TABLE ${q(table)} DROP COLUMN ${q(column)}`);
      }
    }
  }
}
