import { SettingRow } from '../../src/config/setting.entity';
import { SettingsService } from '../../src/config/settings.service';
import { TestApp } from './test-app';

/**
 * A setting as the `settings` table gives it: the stored row's value, or the setting's default where no row was
 * written (a save writes only what differs from the current value).
 */
export async function storedSetting(shop: TestApp, key: string): Promise<unknown> {
  const row = await shop.dataSource.getRepository(SettingRow).findOneBy({ key });
  return row ? (JSON.parse(row.value) as unknown) : shop.app.get(SettingsService).definition(key)?.default;
}
