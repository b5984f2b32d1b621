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

/** What formatting an amount needs of its currency. */
export type MoneyUnit = Pick<Currency, 'code' | 'decimals'>;

/** Amounts in several currencies brought to the base currency at today's rates. */
export interface BaseConversion {
  base: Currency;
  /** Minor units of `code` → base minor units, rounded half-up once; 0 for a currency with no rate. */
  toBase(minor: number, code: string): number;
  /** Base minor units per minor unit of each currency with a rate, for sums the database does (unlisted = 0). */
  factors: Map<string, number>;
}

/** The shop's currencies and rates, cached in memory. */
@Injectable()
export class CurrencyService {
  private readonly load = expiringCache(CACHE_MS, async () => {
    // Disabled currencies too: an order keeps the currency it was paid in, with its decimals and last rate.
    const known = new Map(
      (await this.dataSource.getRepository(Currency).find()).map((currency) => [currency.code, currency]),
    );
    const store = await this.dataSource.getRepository(Store).findOne({ where: { isDefault: true } });
    const byCode = new Map([...known].filter(([, currency]) => currency.enabled));
    const base = byCode.get(store?.baseCurrency ?? 'EUR') ?? [...byCode.values()][0];
    if (!base) throw new Error('No currency is configured');
    return { byCode, known, base };
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
   * no longer sold: a stale session or cart must not break a page. Never for an amount already recorded (an
   * order's, a payment's, a gift card's): those keep their own currency's decimals, see `recorded`.
   */
  async chosenOrBase(code: string | null | undefined): Promise<Currency> {
    const { byCode, base } = await this.load();
    return (code && byCode.get(code.toUpperCase())) || base;
  }

  async all(): Promise<Currency[]> {
    return [...(await this.load()).byCode.values()];
  }

  /**
   * The currency a recorded amount (an order's) is in. An order keeps the currency it was paid in even if the
   * shop stops selling in it, so this is the configured currency whether enabled or not, and for a code never
   * configured ISO 4217's digits — never the base currency's.
   */
  async recorded(code: string): Promise<MoneyUnit> {
    return (
      (await this.load()).known.get(code) ?? {
        code,
        decimals: new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions()
          .maximumFractionDigits!,
      }
    );
  }

  /** Formats recorded amounts of `code` in `language` (see `recorded`). */
  async formatter(code: string, language: string): Promise<(minor: number) => string> {
    const currency = await this.recorded(code);
    return (minor) => formatMoney(minor, currency, language);
  }

  /**
   * Converts recorded amounts to the base currency at today's rates, disabled currencies included. A currency
   * with no rate (never configured, or a rate of 0) counts as 0: leaving it out of a sum is visible, a guessed
   * rate (1:1 would count 12 345 HUF as €123.45) is not.
   */
  async conversionToBase(): Promise<BaseConversion> {
    const { known, base } = await this.load();
    const factors = new Map<string, number>();
    for (const currency of known.values()) {
      if (currency.code === base.code) factors.set(currency.code, 1);
      else if (currency.rate > 0) {
        factors.set(currency.code, (10 ** (base.decimals - currency.decimals) * base.rate) / currency.rate);
      }
    }
    return {
      base,
      factors,
      toBase: (minor, code) => {
        if (code === base.code) return minor;
        const currency = known.get(code);
        return currency && factors.has(code) ? convertMinor(minor, currency, base) : 0;
      },
    };
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
