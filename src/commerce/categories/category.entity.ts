import { Column, Entity, Index, JoinColumn, ManyToOne } from 'typeorm';
import { BaseRow } from '../../database/base.entity';

/**
 * One node of the store's category tree. `path` is the slugs from the root down, joined by `/` (`coffee/brewing`):
 * the page's URL (`/shop/c/{path}`) and the way to a node's descendants (`path LIKE 'coffee/%'`). Moving or
 * renaming a node rewrites the paths below it in the same transaction.
 */
@Entity('categories')
@Index(['storeId', 'path'], { unique: true })
@Index(['parentId', 'position'])
export class Category extends BaseRow {
  @Column({ type: 'integer' })
  storeId: number;

  /** Null for a top-level category. A category with children cannot be deleted until they move. */
  @Column({ type: 'integer', nullable: true })
  parentId: number | null;

  @ManyToOne(() => Category, { onDelete: 'RESTRICT' })
  @JoinColumn({ name: 'parentId' })
  parent?: Category;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  /** This node's own URL segment: lowercase ASCII letters, digits and single `-`. */
  @Column({ type: 'varchar', length: 100 })
  slug: string;

  @Column({ type: 'varchar', length: 700 })
  path: string;

  @Column({ type: 'text' })
  description: string;

  /** A picture path (under /public or /media) or https URL; empty: none. */
  @Column({ type: 'varchar', length: 500, default: '' })
  image: string;

  /** Order among its siblings, ascending. */
  @Column({ type: 'integer', default: 0 })
  position: number;

  /** A hidden category (and everything below it) is left out of menus, pages and the sitemap. */
  @Column({ type: 'boolean', default: true })
  visible: boolean;

  @Column({ type: 'varchar', length: 255, default: '' })
  metaTitle: string;

  @Column({ type: 'varchar', length: 500, default: '' })
  metaDescription: string;
}
