import { Column, Entity, Index } from 'typeorm';
import { BaseRow } from '../../database/base.entity';
import type { ContentPageSlug } from './content-page-slugs';

/**
 * One version of a content page (terms, privacy policy, …) in one shop language. A save adds the next version and
 * never changes an older one, so the terms an order accepted stay readable; the unique key lets only one save make
 * each version.
 */
@Entity('content_pages')
@Index(['slug', 'language', 'version'], { unique: true })
export class ContentPage extends BaseRow {
  @Column({ type: 'varchar', length: 32 })
  slug: ContentPageSlug;

  @Column({ type: 'varchar', length: 8 })
  language: string;

  @Column({ type: 'integer' })
  version: number;

  @Column({ type: 'varchar', length: 200 })
  title: string;

  /** Plain text: paragraphs, `## ` headings and `- ` list items (content-blocks.ts); never HTML. */
  @Column({ type: 'text' })
  body: string;

  /** `cp:<e-mail>` of the staff member who saved it; null for the shop's default text. */
  @Column({ type: 'varchar', length: 200, nullable: true })
  editedBy: string | null;
}
