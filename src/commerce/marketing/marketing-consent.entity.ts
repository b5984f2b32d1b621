import { Column, Entity, Index } from 'typeorm';
import { BaseRow } from '../../database/base.entity';

/** Where a consent was given or withdrawn. */
export const CONSENT_SOURCES = ['checkout', 'registration', 'newsletter_form', 'account_page', 'email_link'] as const;
export type ConsentSource = (typeof CONSENT_SOURCES)[number];

/**
 * One consent to marketing e-mail given or withdrawn (`dateCreated` is when): rows are only ever added, so
 * they prove what the person agreed to. The newest row of an address decides (docs/shop.md, "Consent").
 */
@Entity('marketing_consents')
@Index(['email', 'id'])
export class MarketingConsent extends BaseRow {
  /** Normalised (trimmed, lower case). */
  @Column({ type: 'varchar', length: 191 })
  email: string;

  /** The account that acted, when logged in. */
  @Column({ type: 'integer', nullable: true })
  customerId: number | null;

  /** True: consent given; false: consent withdrawn, or an objection to e-mail as an existing customer. */
  @Column({ type: 'boolean' })
  granted: boolean;

  @Column({ type: 'varchar', length: 24 })
  source: ConsentSource;

  /** The versioned locale key of the text shown (`consent.marketing.v1`). */
  @Column({ type: 'varchar', length: 64 })
  wordingKey: string;

  /** The text exactly as the person saw it, in their language. */
  @Column({ type: 'text' })
  wording: string;
}
