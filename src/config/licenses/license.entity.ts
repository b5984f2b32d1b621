import { Column, Entity } from 'typeorm';
import { BaseRow, EpochMsColumn } from '../../database/base.entity';

export type StoredLicenseStatus = 'active' | 'revoked';

/** A plugin's activated license (one per plugin): the verified token and the claims it carried. */
@Entity('licenses')
export class License extends BaseRow {
  /** The plugin handle, e.g. `carrier-a`. */
  @Column({ type: 'varchar', length: 64, unique: true })
  plugin: string;

  /** The signed token as activated; verified again whenever the license is shown. */
  @Column({ type: 'text' })
  token: string;

  @Column({ type: 'varchar', length: 64 })
  licenseId: string;

  @Column({ type: 'varchar', length: 200 })
  licensee: string;

  @Column({ type: 'varchar', length: 64 })
  edition: string;

  @EpochMsColumn()
  issuedAt: number;

  /** Null: the license never expires. */
  @EpochMsColumn({ nullable: true })
  expiresAt: number | null;

  @Column({ type: 'varchar', length: 16 })
  status: StoredLicenseStatus;

  @EpochMsColumn()
  activatedAt: number;

  @EpochMsColumn({ nullable: true })
  revokedAt: number | null;
}
