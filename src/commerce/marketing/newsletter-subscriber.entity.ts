import { Column, Entity } from 'typeorm';
import { BaseRow, EpochMsColumn } from '../../database/base.entity';

/** A newsletter address: pending until the double opt-in link is followed, then confirmed. */
@Entity('newsletter_subscribers')
export class NewsletterSubscriber extends BaseRow {
  @Column({ type: 'varchar', length: 191, unique: true })
  email: string;

  @Column({ type: 'varchar', length: 100, nullable: true })
  firstName: string | null;

  @Column({ type: 'varchar', length: 16 })
  status: 'pending' | 'confirmed' | 'unsubscribed';

  @EpochMsColumn({ nullable: true })
  confirmedAt: number | null;
}
