import { Column, Entity, Index } from 'typeorm';
import { BaseRow, EpochMsColumn } from '../database/base.entity';

/** express-session data, for the database-backed store used when no Redis is configured. */
@Entity('sessions')
export class SessionRow extends BaseRow {
  @Column({ type: 'varchar', length: 128, unique: true })
  sid: string;

  @Column({ type: 'text' })
  data: string;

  @Index()
  @EpochMsColumn()
  expiresAt: number;
}
