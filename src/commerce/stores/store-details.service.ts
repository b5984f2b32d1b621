import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppError, FieldErrors } from '../../common/errors/app-error';
import { SettingValueError } from '../../config/setting-definition';
import { SettingKey, SettingsService } from '../../config/settings.service';
import { normaliseStoreDetails, storeDetailsProblems } from '../../config/store-details';
import { TransactionRunner } from '../../database/transaction-runner';
import { AuditLog, auditChanges } from '../audit/audit-log.service';
import { CurrencyService } from './currency.service';
import { DefaultStoreService } from './default-store.service';
import { Store } from './store.entity';
import { StoreService } from './store.service';

/**
 * Where each store detail lives besides the store row (name, base currency, country, language): a setting, the
 * existing seller ones reused, so invoices, order e-mails and the Contact page read one value.
 */
const SETTING_OF = {
  legalName: 'storeLegalName',
  address: 'salesSellerAddress',
  vatId: 'salesSellerVatId',
  contactEmail: 'salesSellerEmail',
  contactPhone: 'salesSellerPhone',
  timeZone: 'salesTimezone',
  senderName: 'mailSenderName',
  senderEmail: 'mailSenderEmail',
  logoPath: 'storeLogoPath',
} as const satisfies Record<string, SettingKey>;

/** What a shop owner sets to make the shop theirs (the CP's Store details, `npm run cli -- setup`). */
export interface StoreDetailsValues extends Record<keyof typeof SETTING_OF, string> {
  name: string;
  baseCurrency: string;
  country: string;
  language: string;
}

export type StoreDetailsField = keyof StoreDetailsValues;

/** The store's details: read for the form, saved with its audit entry in one transaction. */
@Injectable()
export class StoreDetailsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly defaultStore: DefaultStoreService,
    private readonly stores: StoreService,
    private readonly currencies: CurrencyService,
    private readonly settings: SettingsService,
    private readonly audit: AuditLog,
  ) {}

  async current(): Promise<StoreDetailsValues> {
    const store = await this.dataSource.getRepository(Store).findOneByOrFail({ isDefault: true });
    const settings = Object.fromEntries(
      Object.entries(SETTING_OF).map(([field, key]) => [field, String(this.settings.get(key))]),
    ) as Record<keyof typeof SETTING_OF, string>;
    return {
      name: store.name,
      baseCurrency: store.baseCurrency,
      country: store.country,
      language: store.language,
      ...settings,
    };
  }

  /**
   * Saves the given details (the others keep their values): a 400 with every field's problem, or a 409 when the
   * base currency may no longer change. Returns the details as saved and what changed.
   */
  async save(
    given: Partial<StoreDetailsValues>,
    actor: string,
  ): Promise<{ details: StoreDetailsValues; changed: string[] }> {
    const before = await this.current();
    const defined = Object.entries(given).filter(([, value]) => value !== undefined);
    const wanted = { ...before, ...Object.fromEntries(defined.map(([field, value]) => [field, value!.trim()])) };
    const store = normaliseStoreDetails(wanted);
    const problems: FieldErrors = Object.fromEntries(
      Object.entries(storeDetailsProblems(store)).map(([field, why]) => [field, [why]]),
    );
    for (const [field, key] of Object.entries(SETTING_OF)) {
      const problem = this.settingProblem(key, wanted[field as keyof typeof SETTING_OF]);
      if (problem) problems[field] = [problem];
    }
    if (Object.keys(problems).length > 0) {
      throw AppError.invalid(problems, `The store details were not saved: check ${Object.keys(problems).join(', ')}.`);
    }
    const after: StoreDetailsValues = { ...wanted, ...store };
    const changes = auditChanges(before, after);
    if (Object.keys(changes).length === 0) return { details: after, changed: [] };
    await this.runner.run(async (tx) => {
      const saved = await this.defaultStore.configure(tx.manager, store);
      const settings = Object.entries(SETTING_OF).filter(([field]) => field in changes);
      if (settings.length > 0) {
        await this.settings.save(
          Object.fromEntries(settings.map(([field, key]) => [key, after[field as never]])),
          actor,
        );
      }
      await this.audit.record(tx.manager, {
        actor,
        area: 'store',
        action: 'updated',
        subject: saved.handle,
        subjectLabel: saved.name,
        changes,
      });
      tx.afterCommit(() => {
        this.stores.forget();
        this.currencies.forget();
      });
    });
    return { details: after, changed: Object.keys(changes) };
  }

  private settingProblem(key: SettingKey, value: string): string | undefined {
    try {
      this.settings.coerce(this.settings.definition(key)!, value);
    } catch (error) {
      if (!(error instanceof SettingValueError)) throw error;
      // The message names the setting's key; the form names the field.
      return error.message.replace(`${key} `, '');
    }
  }
}
