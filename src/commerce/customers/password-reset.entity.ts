import { Column, Entity, Index } from 'typeorm';
import { BaseRow, EpochMsColumn } from '../../database/base.entity';

/**
 * A password reset in progress: the e-mailed link's token and the one-time code, both stored hashed
 * (SHA-256), with the counters that bound guessing and resending.
 */
@Entity('password_resets')
@Index(['customerId'])
export class PasswordReset extends BaseRow {
  @Column({ type: 'integer' })
  customerId: number;

  @Column({ type: 'varchar', length: 64, unique: true })
  tokenHash: string;

  @EpochMsColumn()
  expiresAt: number;

  @Column({ type: 'varchar', length: 64 })
  otpHash: string;

  @EpochMsColumn()
  otpExpiresAt: number;

  @Column({ type: 'integer', default: 0 })
  otpAttempts: number;

  /** The code was entered correctly: the new password may be set (once). */
  @EpochMsColumn({ nullable: true })
  verifiedAt: number | null;

  @EpochMsColumn({ nullable: true })
  usedAt: number | null;

  /** When codes were sent, for "at most once a minute and 5 an hour". */
  @Column({ type: 'simple-json' })
  otpSentAt: number[];
}
