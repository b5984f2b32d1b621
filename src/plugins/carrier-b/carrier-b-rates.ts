import { Injectable } from '@nestjs/common';
import { SettingsService } from '../../plugin-api';

export type CountryAmounts = Record<string, number>;

/** Carrier B's price settings as one snapshot; amounts in minor units, thresholds 0 = never free. */
export interface CarrierBRates {
  /** Lowercase ISO alpha-2 codes the widget shows points in. */
  countries: string[];
  defaultPrice: number;
  defaultFreeShippingThreshold: number;
  currency: string;
  /** Null while country-specific prices are off. */
  countryPrices: CountryAmounts | null;
  countryFreeShippingThresholds: CountryAmounts | null;
}

/** Reads the `carrier-b.*` price settings (per request: a CP change applies at once). */
@Injectable()
export class CarrierBRatesReader {
  constructor(private readonly settings: SettingsService) {}

  read(): CarrierBRates {
    const byCountry = this.settings.isOn('carrier-b.countryPricesEnabled');
    return {
      countries: this.settings
        .get('carrier-b.countries')
        .split(',')
        .map((code) => code.trim().toLowerCase())
        .filter(Boolean),
      defaultPrice: this.settings.get('carrier-b.defaultPrice'),
      defaultFreeShippingThreshold: this.settings.get('carrier-b.defaultFreeShippingThreshold'),
      currency: this.settings.get('carrier-b.defaultCurrency'),
      countryPrices: byCountry ? this.settings.get('carrier-b.countryPrices') : null,
      countryFreeShippingThresholds: byCountry ? this.settings.get('carrier-b.countryFreeShippingThresholds') : null,
    };
  }
}

/**
 * The price of a parcel to `country` (lowercase) for a cart worth `subtotal`: the country's own price and
 * threshold while country-specific prices are on and the country has one, else the defaults; 0 from the
 * threshold on.
 */
export function carrierBPrice(rates: CarrierBRates, country: string, subtotal: number): number {
  const price = rates.countryPrices?.[country] ?? rates.defaultPrice;
  const threshold = rates.countryFreeShippingThresholds?.[country] ?? rates.defaultFreeShippingThreshold;
  return threshold > 0 && subtotal >= threshold ? 0 : price;
}
