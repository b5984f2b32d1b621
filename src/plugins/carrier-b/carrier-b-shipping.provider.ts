import { Injectable } from '@nestjs/common';
import { ShippingMethod } from '../../commerce/shipping/shipping-method.entity';
import { ShippingProvider } from '../../commerce/shipping/shipping-method.registry';
import { ShippingContext, ShippingQuote, shippingMethodId } from '../../commerce/shipping/shipping-quote';
import { CurrencyService } from '../../commerce/stores/currency.service';
import { convertMinor } from '../../common/money';
import { carrierBPrice, CarrierBRatesReader } from './carrier-b-rates';

/**
 * Carrier B's pickup-point methods (rows of type `carrier-b`): offered in the widget's countries, within a
 * row's own country and weight limits, priced by the `carrier-b.*` settings rather than the row's price.
 */
@Injectable()
export class CarrierBShippingProvider implements ShippingProvider {
  readonly type = 'carrier-b';
  readonly name = 'Carrier B';

  constructor(
    private readonly rates: CarrierBRatesReader,
    private readonly currencies: CurrencyService,
  ) {}

  async quote(methods: ShippingMethod[], context: ShippingContext): Promise<ShippingQuote[]> {
    const rates = this.rates.read();
    const country = context.country.toLowerCase();
    if (!rates.countries.includes(country)) return [];
    // The settings are in the widget's currency; the cart's subtotal and quotes are in the base currency.
    const [base, currency] = await Promise.all([this.currencies.base(), this.currencies.chosenOrBase(rates.currency)]);
    const subtotal = convertMinor(context.subtotalBase, base, currency);
    const price = convertMinor(carrierBPrice(rates, country, subtotal), currency, base);
    return methods
      .filter((method) => method.countries.length === 0 || method.countries.includes(context.country))
      .filter((method) => method.maxWeightGrams === null || context.weightGrams <= method.maxWeightGrams)
      .map((method) => ({ method, value: shippingMethodId(method), price, pickupPoints: true }));
  }
}
