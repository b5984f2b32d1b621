import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { expiringCache } from '../../common/expiring-cache';
import { convertMinor, toMajor } from '../../common/money';
import { formatMoney } from '../../common/money-format';
import { Currency } from './currency.entity';
import { Store } from './store.entity';

/** How long rates are kept in memory: a rate edited in the database reaches every instance within this. */
const CACHE_MS = 60_000;

/** The shop's currencies and rates, cached in memory. */
@Injectable()
export class CurrencyService {
  private readonly load = expiringCache(CACHE_MS, async () => {
    const currencies = await this.dataSource.getRepository(Currency).find({ where: { enabled: true } });
    const store = await this.dataSource.getRepository(Store).findOne({ where: { isDefault: true } });
    const byCode = new Map(currencies.map((currency) => [currency.code, currency]));
    const base = byCode.get(store?.baseCurrency ?? 'EUR') ?? currencies[0];
    if (!base) throw new Error('No currency is configured');
    return { byCode, base };
  });

  constructor(private readonly dataSource: DataSource) {}

  /** Drops the cached currencies and base after this instance changed them (the store's base currency). */
  forget(): void {
    this.load.clear();
  }

  async base(): Promise<Currency> {
    return (await this.load()).base;
  }

  /** The enabled currency with this ISO 4217 code, or a 400 naming the ones on offer. */
  async require(code: string): Promise<Currency> {
    const { byCode } = await this.load();
    const currency = byCode.get(String(code).toUpperCase());
    if (!currency) {
      throw AppError.invalid(
        { currency: [`must be one of ${[...byCode.keys()].join(', ')}`] },
        `We do not sell in ${code}.`,
      );
    }
    return currency;
  }

  /**
   * The currency a shopper or cart chose, or the base currency when none was chosen or the chosen one is
   * no longer sold: a stale session or cart must not break a page.
   */
  async chosenOrBase(code: string | null | undefined): Promise<Currency> {
    const { byCode, base } = await this.load();
    return (code && byCode.get(code.toUpperCase())) || base;
  }

  async all(): Promise<Currency[]> {
    return [...(await this.load()).byCode.values()];
  }

  /**
   * Formats amounts of `code` in `language`. An order keeps the currency it was paid in even if the shop stops
   * selling in it, so an unknown code falls back to the ISO digits rather than to the base currency.
   */
  async formatter(code: string, language: string): Promise<(minor: number) => string> {
    const currency = (await this.load()).byCode.get(code) ?? {
      code,
      decimals: new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions()
        .maximumFractionDigits!,
    };
    return (minor) => formatMoney(minor, currency, language);
  }

  /** Base-currency minor units → minor units of `to`, rounded half-up once. */
  async fromBase(minor: number, to: Currency): Promise<number> {
    return convertMinor(minor, await this.base(), to);
  }

  /** Minor units → the decimal number shown in JSON (`12.5`). */
  static major(minor: number, currency: Currency): number {
    return toMajor(minor, currency.decimals);
  }
}
