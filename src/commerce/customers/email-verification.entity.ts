import { Column, Entity, Index } from 'typeorm';
import { BaseRow, EpochMsColumn } from '../../database/base.entity';

/**
 * A link mailed to confirm that an account's e-mail address belongs to its owner. The token is stored only as
 * its SHA-256 digest; `email` is the address the link went to, so a link stops counting once the account's
 * address has changed.
 */
@Entity('email_verifications')
@Index(['customerId'])
export class EmailVerification extends BaseRow {
  @Column({ type: 'integer' })
  customerId: number;

  @Column({ type: 'varchar', length: 191 })
  email: string;

  @Column({ type: 'varchar', length: 64, unique: true })
  tokenHash: string;

  @EpochMsColumn()
  expiresAt: number;

  @EpochMsColumn({ nullable: true })
  usedAt: number | null;
}
