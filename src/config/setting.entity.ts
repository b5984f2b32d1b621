import { Column, Entity } from 'typeorm';
import { BaseRow } from '../database/base.entity';

@Entity('settings')
export class SettingRow extends BaseRow {
  @Column({ type: 'varchar', length: 191, unique: true })
  key: string;

  /** JSON-encoded value, typed by the setting's definition. */
  @Column({ type: 'text' })
  value: string;
}
