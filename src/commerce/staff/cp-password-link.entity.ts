import { Column, Entity, Index } from 'typeorm';
import { BaseRow, EpochMsColumn } from '../../database/base.entity';

/** Why a set-password link was sent: a new user's invitation, or a password an admin reset. */
export type CpPasswordLinkPurpose = 'invite' | 'reset';

/**
 * An e-mailed link with which a CP user chooses a password. Stored only as the SHA-256 of its token; it works
 * once, until `expiresAt`, and a newer link for the same user replaces it.
 */
@Entity('cp_password_links')
@Index(['cpUserId'])
export class CpPasswordLink extends BaseRow {
  @Column({ type: 'integer' })
  cpUserId: number;

  @Column({ type: 'varchar', length: 64, unique: true })
  tokenHash: string;

  @Column({ type: 'varchar', length: 16 })
  purpose: CpPasswordLinkPurpose;

  @EpochMsColumn()
  expiresAt: number;

  /** Used, or replaced by a newer link: either way it opens nothing any more. */
  @EpochMsColumn({ nullable: true })
  usedAt: number | null;
}
