import { Column, Entity } from 'typeorm';
import { BaseRow, EpochMsColumn } from '../../database/base.entity';

/** A shopper's account. `email` is stored lower-cased, so the unique key is case-insensitive. */
@Entity('customers')
export class Customer extends BaseRow {
  @Column({ type: 'varchar', length: 191, unique: true })
  email: string;

  /** Optional second login name (`loginName` may be the e-mail or this). */
  @Column({ type: 'varchar', length: 191, unique: true, nullable: true })
  username: string | null;

  /** scrypt hash (common/password.ts); null for accounts made by social login until a password is set. */
  @Column({ type: 'varchar', length: 255, nullable: true })
  passwordHash: string | null;

  @Column({ type: 'varchar', length: 100 })
  firstName: string;

  @Column({ type: 'varchar', length: 100 })
  lastName: string;

  /** Bumped on password change and account deletion: sessions carrying an older value are logged out. */
  @Column({ type: 'integer', default: 0 })
  authVersion: number;

  /** Social identities linked to the account, e.g. `{ google: "1234" }`. */
  @Column({ type: 'simple-json', nullable: true })
  socialIds: Record<string, string> | null;

  /**
   * When the owner of `email` proved it is theirs: the account was made by a social login with a verified
   * address, they followed the link mailed at registration, or they completed a password reset. Null until
   * then, and again after an e-mail change. A social login links to an unverified account only by taking it
   * over from whoever set its password (social-accounts.service.ts).
   */
  @EpochMsColumn({ nullable: true })
  emailVerifiedAt: number | null;

  @EpochMsColumn({ nullable: true })
  lastLoginAt: number | null;

  /**
   * Set while staff have blocked the account: no login (password or social) is let in, and blocking raised
   * `authVersion`, which ended the sessions open at the time. Checkout as a guest under the address stays open.
   */
  @EpochMsColumn({ nullable: true })
  blockedAt: number | null;

  /** Set when the account was deleted: the row stays (orders point at it) without personal data. */
  @EpochMsColumn({ nullable: true })
  deletedAt: number | null;
}
