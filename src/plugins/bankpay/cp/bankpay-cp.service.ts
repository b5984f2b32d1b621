import { Injectable } from '@nestjs/common';
import { AppError, fieldName, SettingsService } from '../../../plugin-api';
import { SETTINGS_SECTIONS, SettingsSection } from './bankpay-settings-form';

/** The gateway's settings in the CP, in sections. */
@Injectable()
export class BankpayCpService {
  constructor(private readonly settings: SettingsService) {}

  section(handle: string): SettingsSection {
    const section = SETTINGS_SECTIONS.find((candidate) => candidate.handle === handle);
    if (!section) throw AppError.notFound(`There is no settings section "${handle}".`);
    return section;
  }

  /** A section's form: its fields with current values (secrets masked) and the section tabs. */
  form(section: SettingsSection) {
    return {
      section,
      sections: SETTINGS_SECTIONS.map((candidate) => ({ ...candidate, current: candidate === section })),
      fields: section.form.fields(this.settings),
    };
  }

  /**
   * Saves one section, audited as changed by `actor`. Each value is checked by its setting; saving General or Credentials also needs the
   * credentials the chosen Payment Type requires. Saving clears the bank's method list
   * from the cache (PayPlusClient listens for the save).
   */
  async save(section: SettingsSection, body: Record<string, unknown>, actor: string): Promise<void> {
    const values = section.form.parse(this.settings, body);
    const after = (key: string) => (key in values ? values[key] : this.settings.value(key));
    const gated = section.handle === 'general' || section.handle === 'credentials';
    const missing = (gated ? requiredCredentials(after) : []).filter((key) => String(after(key) ?? '').trim() === '');
    if (missing.length > 0) {
      throw AppError.invalid(
        Object.fromEntries(missing.map((key) => [fieldName(key), ['is required for this Payment Type']])),
        `Fill in ${missing.map(fieldName).join(', ')} first.`,
      );
    }
    await this.settings.save(values, actor);
  }
}

/** `bankCardPay` signs with merchantMid and secretKey; the REST API and loans need apiKey and clientSecret. */
function requiredCredentials(after: (key: string) => unknown): string[] {
  const cardPay = after('bankpay.paymentType') === 'bankCardPay';
  const restApi = !cardPay || after('bankpay.enablePayLaterType') === true;
  return [
    ...(cardPay ? ['bankpay.merchantMid', 'bankpay.secretKey'] : []),
    ...(restApi ? ['bankpay.apiKey', 'bankpay.clientSecret'] : []),
  ];
}
