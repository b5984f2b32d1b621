import { Injectable } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import { AppError, fieldName, Order, PaymentTransaction, SettingsService } from '../../../plugin-api';
import { BANKPAY_HANDLE } from '../bankpay-methods';
import { PayPlusClient } from '../pay-plus/pay-plus.client';
import { SETTINGS_SECTIONS, SettingsSection } from './bankpay-settings-form';

const RECENT_FAILURES = 10;

/** The gateway's CP: what its payments did, and its settings in sections. */
@Injectable()
export class BankpayCpService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly settings: SettingsService,
    private readonly payPlus: PayPlusClient,
  ) {}

  /** Transactions by status and by method, the latest failures, and the methods the bank offers. */
  async dashboard() {
    const transactions = this.dataSource.getRepository(PaymentTransaction);
    const [byStatus, byMethod, failures, bankMethods] = await Promise.all([
      transactions
        .createQueryBuilder('t')
        .select('t.status', 'status')
        .addSelect('COUNT(*)', 'count')
        .where('t.gateway = :gateway', { gateway: BANKPAY_HANDLE })
        .groupBy('t.status')
        .orderBy('t.status')
        .getRawMany<{ status: string; count: string | number }>(),
      transactions
        .createQueryBuilder('t')
        .select('t.code', 'code')
        .addSelect('COUNT(*)', 'count')
        .addSelect("SUM(CASE WHEN t.status = 'success' THEN 1 ELSE 0 END)", 'paid')
        .where('t.gateway = :gateway', { gateway: BANKPAY_HANDLE })
        .groupBy('t.code')
        .orderBy('t.code')
        .getRawMany<{ code: string; count: string | number; paid: string | number }>(),
      transactions.find({
        where: { gateway: BANKPAY_HANDLE, status: In(['failed', 'canceled']) },
        order: { id: 'DESC' },
        take: RECENT_FAILURES,
      }),
      this.payPlus.getPaymentMethods(),
    ]);
    const orders = await this.dataSource
      .getRepository(Order)
      .find({ where: { id: In(failures.map((failure) => failure.orderId)) }, select: { id: true, reference: true } });
    const referenceOf = new Map(orders.map((order) => [order.id, order.reference]));
    return {
      paymentType: this.settings.get('bankpay.paymentType'),
      sandbox: this.settings.isOn('bankpay.sandbox'),
      byStatus: byStatus.map((row) => ({ status: row.status, count: Number(row.count) })),
      byMethod: byMethod.map((row) => ({ code: row.code, count: Number(row.count), paid: Number(row.paid) })),
      failures: failures.map((failure) => ({ ...failure, orderReference: referenceOf.get(failure.orderId) ?? '' })),
      bankMethods,
    };
  }

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
   * Saves one section. Each value is checked by its setting; saving General or Credentials also needs the
   * credentials the chosen Payment Type requires. Saving clears the bank's method list
   * from the cache (PayPlusClient listens for the save).
   */
  async save(section: SettingsSection, body: Record<string, unknown>): Promise<void> {
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
    await this.settings.save(values);
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
