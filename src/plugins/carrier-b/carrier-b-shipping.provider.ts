import { Injectable } from '@nestjs/common';
import {
  AppConfig,
  convertMinor,
  CurrencyService,
  InjectConfig,
  SettingsService,
  ShippingContext,
  ShippingMethod,
  shippingMethodId,
  ShippingProvider,
  ShippingQuote,
  ShippingWidget,
} from '../../plugin-api';
import { carrierBPrice, CarrierBRatesReader } from './carrier-b-rates';

/**
 * Carrier B's pickup-point methods (rows of type `carrier-b`): offered in the widget's countries, within a
 * row's own country and weight limits, priced by the `carrier-b.*` settings rather than the row's price.
 * Every point is chosen in the vendor's widget, so the methods are offered only while it has a URL.
 */
@Injectable()
export class CarrierBShippingProvider implements ShippingProvider {
  readonly type = 'carrier-b';
  readonly name = 'Carrier B';

  constructor(
    private readonly rates: CarrierBRatesReader,
    private readonly currencies: CurrencyService,
    private readonly settings: SettingsService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async quote(methods: ShippingMethod[], context: ShippingContext): Promise<ShippingQuote[]> {
    const rates = this.rates.read();
    const country = context.country.toLowerCase();
    const widget = this.widget();
    if (!widget || !rates.countries.includes(country)) return [];
    // The settings are in the widget's currency; the cart's subtotal and quotes are in the base currency.
    const [base, currency] = await Promise.all([this.currencies.base(), this.currencies.chosenOrBase(rates.currency)]);
    const subtotal = convertMinor(context.subtotalBase, base, currency);
    const price = convertMinor(carrierBPrice(rates, country, subtotal), currency, base);
    return methods
      .filter((method) => method.countries.length === 0 || method.countries.includes(context.country))
      .filter((method) => method.maxWeightGrams === null || context.weightGrams <= method.maxWeightGrams)
      .map((method) => ({ method, value: shippingMethodId(method), price, pickupPoints: true, widget }));
  }

  /** The widget library's origin: the CSP must allow it where it is not the shop's own. */
  widgetOrigins(): string[] {
    const url = this.widgetUrl();
    return url ? [new URL(url).origin] : [];
  }

  /**
   * The checkout's picker (public/js/carrier-b-pickup.js). The API key goes to the browser by design: the
   * vendor's widget takes it as the first argument of `pick`.
   */
  private widget(): ShippingWidget | null {
    const widgetUrl = this.widgetUrl();
    if (!widgetUrl) return null;
    return {
      name: 'carrier-b-pickup',
      script: '/public/js/carrier-b-pickup.js',
      data: {
        apiKey: this.settings.get('carrier-b.apiKey'),
        widgetUrl,
        optionsUrl: '/index.php?p=carrier-b/api/options',
      },
    };
  }

  /**
   * `carrier-b.widgetUrl`, else the sandbox stand-in while sandboxes run, at the address browsers use (the
   * loopback sandbox URL is the server's own); null when neither is there.
   */
  private widgetUrl(): string | null {
    const configured = this.settings.get('carrier-b.widgetUrl').trim().replace(/\/+$/, '');
    if (configured) return configured;
    return this.config.sandboxes ? `${this.config.baseUrl}/_sandbox/carrier-b` : null;
  }
}
