import { Injectable } from '@nestjs/common';
import { DataSource, In, LessThanOrEqual } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { SettingsService } from '../../config/settings.service';
import { isUniqueViolation } from '../../database/errors';
import { TransactionRunner } from '../../database/transaction-runner';
import { isCalendarDate, shopNow } from '../delivery/shop-calendar';
import { isEuCountry } from './eu-vat-rates';
import { isTaxClass, TAX_CLASSES, TaxClass } from './tax-class';
import { VatRate } from './vat-rate.entity';

/** A country's rate per tax class, in hundredths of a percent. */
export type ClassRates = Record<TaxClass, number>;

/** Whose VAT a sale is charged: the country and its rates per class, and the shop's own rates beside them. */
export interface VatContext {
  country: string;
  rates: ClassRates;
  /** The shop's own country and its rates: what catalog prices are set at (a stable price is restated from them). */
  ownCountry: string;
  own: ClassRates;
}

/** A rate as staff enter it (CLI): the percent may have decimals (5.5); no first day means the shop's today. */
export interface VatRateInput {
  country: string;
  taxClass: string;
  percent: number;
  validFrom?: string;
}

/**
 * VAT rates per country and tax class with the day they apply from (docs/shop.md, _VAT by destination_): the
 * table `vat_rates`, with `salesTaxRate` as the shop's own standard rate until staff enter one.
 */
@Injectable()
export class VatRates {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly settings: SettingsService,
  ) {}

  /**
   * Whose VAT a consumer sale on `at` (epoch ms) is charged: the shop's own country's, or, with
   * `salesOssDestinationVat` on (the shop is above the EU distance-sales threshold), the buyer's when they are in
   * another EU member state whose rates the table holds. `country` forces the country (an order being edited keeps
   * the one it was charged; null: the shop's own).
   */
  async context(
    shopCountry: string,
    buyerCountry: string | null,
    at: number,
    country?: string | null,
  ): Promise<VatContext> {
    const day = shopNow(this.settings.get('salesTimezone'), at).date;
    const wanted =
      (country === null ? shopCountry : country) ??
      (buyerCountry &&
      buyerCountry !== shopCountry &&
      isEuCountry(buyerCountry) &&
      this.settings.get('salesOssDestinationVat')
        ? buyerCountry
        : shopCountry);
    const rows = await this.dataSource.getRepository(VatRate).find({
      where: { country: In([...new Set([shopCountry, wanted])]), validFrom: LessThanOrEqual(day) },
      order: { validFrom: 'DESC' },
    });
    const own = this.classRates(rows, shopCountry, shopCountry)!;
    const rates = wanted === shopCountry ? own : this.classRates(rows, wanted, shopCountry);
    // A destination the table has no rate for is charged the shop's own rates, as before the table existed.
    const ownSide = { ownCountry: shopCountry, own };
    return rates ? { country: wanted, rates, ...ownSide } : { country: shopCountry, rates: own, ...ownSide };
  }

  /** Every rate, per country and class, latest first. */
  list(country?: string): Promise<VatRate[]> {
    return this.dataSource.getRepository(VatRate).find({
      where: country ? { country: country.toUpperCase() } : {},
      order: { country: 'ASC', taxClass: 'ASC', validFrom: 'DESC' },
    });
  }

  /** Adds a rate from a day on, or changes the one of that day; 400 naming each bad field. */
  async set(input: VatRateInput): Promise<VatRate> {
    const country = typeof input.country === 'string' ? input.country.trim().toUpperCase() : '';
    const fields: Record<string, string[]> = {};
    if (!/^[A-Z]{2}$/.test(country)) fields.country = ['must be a two-letter country code (ISO 3166)'];
    if (!isTaxClass(input.taxClass)) fields.taxClass = [`must be one of ${TAX_CLASSES.join(', ')}`];
    const rate = Math.round(input.percent * 100);
    const hundredths = Math.abs(rate - input.percent * 100) < 1e-6; // 0.07 * 100 is 7.000000000000001
    if (!Number.isFinite(input.percent) || input.percent < 0 || input.percent > 100 || !hundredths)
      fields.rate = ['must be a percent from 0 to 100 with at most two decimals'];
    // The day is the shop's (salesTimezone), as the day an order is charged by (`context`), not UTC's.
    const validFrom = input.validFrom ?? shopNow(this.settings.get('salesTimezone')).date;
    if (!isCalendarDate(validFrom)) fields.validFrom = ['must be a date, YYYY-MM-DD'];
    if (Object.keys(fields).length > 0) throw AppError.invalid(fields);
    const key = { country, taxClass: input.taxClass as TaxClass, validFrom };
    const save = () =>
      this.runner.run(async ({ manager }) => {
        const existing = await manager.findOneBy(VatRate, key);
        if (existing) await manager.update(VatRate, { id: existing.id }, { rate, source: 'staff' });
        else await manager.insert(VatRate, { ...key, rate, source: 'staff' });
        return manager.findOneByOrFail(VatRate, key);
      });
    try {
      return await save();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      return save(); // someone added the same day's row meanwhile: change it instead
    }
  }

  /**
   * The rates in force per class from rows that are (latest first), or null when the country has no standard rate.
   * A class the country does not have costs what the next broader one does (second reduced → reduced → standard);
   * zero is 0 % unless a row says otherwise. The shop's own standard rate is `salesTaxRate` until staff enter one.
   */
  private classRates(rows: VatRate[], country: string, shopCountry: string): ClassRates | null {
    const inForce = (taxClass: TaxClass) =>
      rows.find(
        (row) =>
          row.country === country &&
          row.taxClass === taxClass &&
          !(country === shopCountry && taxClass === 'standard' && row.source === 'seed'),
      )?.rate;
    const standard =
      inForce('standard') ?? (country === shopCountry ? this.settings.get('salesTaxRate') * 100 : undefined);
    if (standard === undefined) return null;
    const reduced = inForce('reduced') ?? standard;
    return { standard, reduced, reduced2: inForce('reduced2') ?? reduced, zero: inForce('zero') ?? 0 };
  }
}
