import { Injectable } from '@nestjs/common';
import { DataSource, Like, MoreThanOrEqual } from 'typeorm';
import { CurrencyService, maskSecret, Order, SettingsService, toMajor } from '../../../plugin-api';
import { CarrierBRatesReader } from '../carrier-b-rates';

/** What carrier B's CP dashboard shows in its widgets. */
export interface CarrierBDashboardFigures {
  configuration: {
    countries: string[];
    language: string;
    apiKey: string;
    apiKeySet: boolean;
    dropOffWeight: number;
    claimAssistantOnly: boolean;
    packetConsignmentOnly: boolean;
  };
  /** Amounts as "3.50 EUR"; a threshold of 0 (never free) as null. */
  prices: {
    byCountry: boolean;
    countries: Array<{ country: string; price: string; freeFrom: string | null }>;
  };
  /** Orders placed this month (UTC) with a carrier B method, by delivery country, most first. */
  ordersByCountry: Array<{ country: string; count: number }>;
  ordersThisMonth: number;
}

/** Carrier B's dashboard figures: its configuration, its prices and this month's orders. */
@Injectable()
export class CarrierBDashboard {
  constructor(
    private readonly dataSource: DataSource,
    private readonly settings: SettingsService,
    private readonly rates: CarrierBRatesReader,
    private readonly currencies: CurrencyService,
  ) {}

  async figures(now = new Date()): Promise<CarrierBDashboardFigures> {
    const rates = this.rates.read();
    const { decimals } = await this.currencies.chosenOrBase(rates.currency);
    const money = (minor: number) => `${toMajor(minor, decimals).toFixed(decimals)} ${rates.currency}`;
    const apiKey = this.settings.get('carrier-b.apiKey');
    const ordersByCountry = await this.ordersByCountry(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)));
    return {
      configuration: {
        countries: rates.countries.map((country) => country.toUpperCase()),
        language: this.settings.get('carrier-b.language'),
        apiKey: maskSecret(apiKey),
        apiKeySet: apiKey !== '',
        dropOffWeight: this.settings.get('carrier-b.dropOffWeight'),
        claimAssistantOnly: this.settings.isOn('carrier-b.claimAssistantOnly'),
        packetConsignmentOnly: this.settings.isOn('carrier-b.packetConsignmentOnly'),
      },
      prices: {
        byCountry: rates.countryPrices !== null,
        countries: rates.countries.map((country) => {
          const freeFrom = rates.countryFreeShippingThresholds?.[country] ?? rates.defaultFreeShippingThreshold;
          return {
            country: country.toUpperCase(),
            price: money(rates.countryPrices?.[country] ?? rates.defaultPrice),
            freeFrom: freeFrom > 0 ? money(freeFrom) : null,
          };
        }),
      },
      ordersByCountry,
      ordersThisMonth: ordersByCountry.reduce((sum, row) => sum + row.count, 0),
    };
  }

  /**
   * The delivery country sits inside the address JSON, which SQLite and MariaDB read differently, so the
   * month's carrier B orders are counted here, reading only their addresses.
   */
  private async ordersByCountry(since: Date): Promise<Array<{ country: string; count: number }>> {
    const orders = await this.dataSource.getRepository(Order).find({
      select: { id: true, shippingAddress: true, billingAddress: true },
      where: { shippingMethod: Like('carrier-b:%'), dateCreated: MoreThanOrEqual(since) },
    });
    const counts = new Map<string, number>();
    for (const order of orders) {
      const country = String((order.shippingAddress ?? order.billingAddress)?.country ?? '?').toUpperCase();
      counts.set(country, (counts.get(country) ?? 0) + 1);
    }
    return [...counts]
      .map(([country, count]) => ({ country, count }))
      .sort((a, b) => b.count - a.count || a.country.localeCompare(b.country));
  }
}
