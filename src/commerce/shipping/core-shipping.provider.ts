import { Injectable } from '@nestjs/common';
import { ShippingProvider } from './shipping-method.registry';
import { ShippingMethod } from './shipping-method.entity';
import { ShippingContext, ShippingQuote, tableRate } from './shipping-quote';

/** The built-in methods (`core:flat-rate`, `core:store-pickup`): plain table rates, so a shop ships without plugins. */
@Injectable()
export class CoreShippingProvider implements ShippingProvider {
  readonly type = 'core';
  readonly name = 'Shop';

  quote(methods: ShippingMethod[], context: ShippingContext): ShippingQuote[] {
    return methods.flatMap((method) => tableRate(method, context) ?? []);
  }
}
