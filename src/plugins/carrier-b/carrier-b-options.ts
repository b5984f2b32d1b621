import { Injectable } from '@nestjs/common';
import { AppConfig, CurrencyService, InjectConfig, SettingsService, toMajor } from '../../plugin-api';
import { CarrierBRatesReader, CountryAmounts } from './carrier-b-rates';

/** Who is calling the widget (`appIdentity`): this service and its version. */
export const CARRIER_B_APP_IDENTITY = 'storefront-service-2.0.0';
/** The point fields the widget joins into the value it returns. */
const VALUE_FORMAT = 'id,carrierId,carrierPickupPointId,name,city,street';

/** The widget's options: the optional keys appear only when their setting is on or set. */
export interface CarrierBWidgetOptions {
  webUrl: string;
  appIdentity: string;
  country: string;
  language: string;
  valueFormat: string;
  defaultPrice: number;
  defaultFreeShippingThreshold: number;
  defaultCurrency: string;
  countryPrices?: CountryAmounts;
  countryFreeShippingThresholds?: CountryAmounts;
  weight?: number;
  claimAssistant?: 'true';
  packetConsignment?: 'true';
}

/** Builds the options the checkout's pickup-point widget is opened with (`index.php?p=carrier-b/api/options`). */
@Injectable()
export class CarrierBOptions {
  constructor(
    private readonly settings: SettingsService,
    private readonly rates: CarrierBRatesReader,
    private readonly currencies: CurrencyService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async options(): Promise<CarrierBWidgetOptions> {
    const rates = this.rates.read();
    const { decimals } = await this.currencies.chosenOrBase(rates.currency);
    const major = (minor: number) => toMajor(minor, decimals);
    const majors = (amounts: CountryAmounts) =>
      Object.fromEntries(Object.entries(amounts).map(([country, minor]) => [country, major(minor)]));
    const weight = this.settings.get('carrier-b.dropOffWeight');
    return {
      webUrl: this.config.baseUrl,
      appIdentity: CARRIER_B_APP_IDENTITY,
      country: rates.countries.join(','),
      language: this.settings.get('carrier-b.language'),
      valueFormat: VALUE_FORMAT,
      defaultPrice: major(rates.defaultPrice),
      defaultFreeShippingThreshold: major(rates.defaultFreeShippingThreshold),
      defaultCurrency: rates.currency,
      ...(rates.countryPrices && {
        countryPrices: majors(rates.countryPrices),
        countryFreeShippingThresholds: majors(rates.countryFreeShippingThresholds ?? {}),
      }),
      ...(weight > 0 && { weight }),
      ...(this.settings.isOn('carrier-b.claimAssistantOnly') && { claimAssistant: 'true' as const }),
      ...(this.settings.isOn('carrier-b.packetConsignmentOnly') && { packetConsignment: 'true' as const }),
    };
  }
}
