import { Column, Entity } from 'typeorm';
import { BaseRow, EpochMsColumn } from '../../database/base.entity';

/** Control-panel staff. Separate from customers: different table, login and session key. */
@Entity('cp_users')
export class CpUser extends BaseRow {
  @Column({ type: 'varchar', length: 191, unique: true })
  email: string;

  @Column({ type: 'varchar', length: 191, default: '' })
  name: string;

  /** Empty while an invitation or a password reset waits for its link: no password opens the account then. */
  @Column({ type: 'varchar', length: 255 })
  passwordHash: string;

  /** Admins hold every permission. */
  @Column({ type: 'boolean', default: false })
  admin: boolean;

  /** Permission names such as `accessPlugin-bankpay`. */
  @Column({ type: 'simple-json' })
  permissions: string[];

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  /**
   * Bumped with every change to the password, permissions or `enabled`: a CP login carrying an older value is
   * logged out at its next request.
   */
  @Column({ type: 'integer', default: 0 })
  authVersion: number;

  /** The last successful CP login. */
  @EpochMsColumn({ nullable: true })
  lastLoginAt: number | null;
}
