import { Column, Entity, Index } from 'typeorm';
import type { TaxClass } from '../tax/tax-class';
import { BaseRow, EpochMsColumn } from '../../database/base.entity';

export interface ProductOption {
  code: string;
  label: string;
  values: string[];
}

/**
 * The two FULLTEXT indexes belong to the ProductSearch migration (MySQL/MariaDB; SQLite searches an FTS5
 * table instead). They are named here with `synchronize: false`, TypeORM's "managed elsewhere" form, so
 * the schema builder neither drops them on MySQL as unknown nor builds them on SQLite as plain indexes.
 */
@Entity('products')
@Index(['storeId', 'visible', 'enabled'])
@Index('FT_products_name', { synchronize: false })
@Index('FT_products_search', { synchronize: false })
// The listing's sort indexes (CatalogListingIndexes migration): the name one has a collation TypeORM cannot express.
@Index('IDX_products_listing_name', { synchronize: false })
@Index('IDX_products_listing_price', { synchronize: false })
export class Product extends BaseRow {
  @Column({ type: 'integer' })
  storeId: number;

  @Column({ type: 'varchar', length: 64, unique: true })
  sku: string;

  @Column({ type: 'varchar', length: 191, unique: true })
  slug: string;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'text' })
  description: string;

  /** `simple` or `configurable` (sold through its variants). */
  @Column({ type: 'varchar', length: 16, default: 'simple' })
  type: 'simple' | 'configurable';

  /** Price in minor units of the store's base currency. */
  @Column({ type: 'integer' })
  price: number;

  /** A sale price (minor units, below `price`) that applies from `saleStartsAt` until `saleEndsAt` (sale-price.ts). */
  @Column({ type: 'integer', nullable: true })
  salePrice: number | null;

  @EpochMsColumn({ nullable: true })
  saleStartsAt: number | null;

  @EpochMsColumn({ nullable: true })
  saleEndsAt: number | null;

  /** Units on hand; for a configurable product the sum of its variants. */
  @Column({ type: 'integer', default: 0 })
  stock: number;

  @Column({ type: 'integer', default: 0 })
  weightGrams: number;

  /** Which of each country's VAT rates the product is charged (docs/shop.md, _VAT by destination_). */
  @Column({ type: 'varchar', length: 16, default: 'standard' })
  taxClass: TaxClass;

  /** Listed in the catalog, search and suggestions. A hidden product can still be ordered by link. */
  @Column({ type: 'boolean', default: true })
  visible: boolean;

  /** Disabled products are not sold at all: their URL renders the product-404 page. */
  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  @Column({ type: 'simple-json' })
  images: string[];

  @Column({ type: 'simple-json' })
  options: ProductOption[];

  /**
   * Net quantity of a product sold by weight, volume, length or area, in thousandths of `netUnit`
   * (net-quantity.ts), for its unit price; null with `netUnit` when it is sold by the piece.
   */
  @Column({ type: 'integer', nullable: true })
  netQuantity: number | null;

  @Column({ type: 'varchar', length: 4, nullable: true })
  netUnit: string | null;

  /** The page's `<title>` and meta description; empty: the product's name and the start of its description. */
  @Column({ type: 'varchar', length: 255, default: '' })
  metaTitle: string;

  @Column({ type: 'varchar', length: 500, default: '' })
  metaDescription: string;

  /**
   * When staff archived it instead of deleting it, because orders name it: it stays hidden and disabled, out of
   * the CP list unless asked for. Null for a product in use.
   */
  @EpochMsColumn({ nullable: true })
  archivedAt: number | null;
}
