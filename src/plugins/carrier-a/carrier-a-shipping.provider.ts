import { Injectable } from '@nestjs/common';
import {
  SettingsService,
  ShippingContext,
  ShippingMethod,
  ShippingProvider,
  ShippingQuote,
  ShippingWidget,
  tableRate,
} from '../../plugin-api';

/** The handle of the ParcelShop method; every other carrier A method delivers to the door. */
export const PARCELSHOP_HANDLE = 'parcelshop';

/**
 * The checkout's ParcelShop picker (public/js/carrier-a-pickup.js). It asks the site endpoint with the plugin
 * handle as `country`, as the original widget does.
 */
const PICKUP_WIDGET: ShippingWidget = {
  name: 'carrier-a-pickup',
  script: '/public/js/carrier-a-pickup.js',
  data: { pointsUrl: '/index.php?p=carrier-a/api/pickup-points', country: 'carrier-a' },
};

/**
 * Carrier A's methods (rows of type `carrier-a`): home delivery (`classic`) and ParcelShop (`parcelshop`),
 * priced by table rate like the built-ins. ParcelShop is offered, with its picker, only while pickup points
 * are enabled.
 */
@Injectable()
export class CarrierAShippingProvider implements ShippingProvider {
  readonly type = 'carrier-a';
  readonly name = 'Carrier A';

  constructor(private readonly settings: SettingsService) {}

  quote(methods: ShippingMethod[], context: ShippingContext): ShippingQuote[] {
    const pickupPoints = this.settings.isOn('carrier-a.pickupPointsEnabled');
    return methods.flatMap((method) => {
      const parcelShop = method.handle === PARCELSHOP_HANDLE;
      if (parcelShop && !pickupPoints) return [];
      return tableRate(method, context, parcelShop ? { pickupPoints: true, widget: PICKUP_WIDGET } : {}) ?? [];
    });
  }
}
