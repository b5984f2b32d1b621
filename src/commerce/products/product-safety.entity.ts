import { Column, Entity, JoinColumn, ManyToOne } from 'typeorm';
import { BaseRow } from '../../database/base.entity';
import { Product } from './product.entity';

/**
 * What the General Product Safety Regulation (EU) 2023/988 Art. 19 asks a product offer online to state: who made
 * it and how to reach them, the person responsible for it in the EU when the manufacturer is outside it, what
 * identifies the product, and its warnings in each shop language. One row per product that has them;
 * product-safety.ts checks what is written.
 */
@Entity('product_safety')
export class ProductSafety extends BaseRow {
  /** Unique: a product has one set of safety data. */
  @Column({ type: 'integer', unique: true })
  productId: number;

  @ManyToOne(() => Product, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'productId' })
  product?: Product;

  @Column({ type: 'varchar', length: 255 })
  manufacturerName: string;

  @Column({ type: 'varchar', length: 500 })
  manufacturerAddress: string;

  /** An e-mail address or an http(s) URL. */
  @Column({ type: 'varchar', length: 255 })
  manufacturerContact: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  responsibleName: string | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  responsibleAddress: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  responsibleContact: string | null;

  /** Type, batch or serial number. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  identifier: string | null;

  /** Warnings and safety information by shop language code. */
  @Column({ type: 'simple-json' })
  warnings: Record<string, string>;
}
