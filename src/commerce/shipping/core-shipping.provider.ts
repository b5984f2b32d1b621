import { Injectable, OnModuleInit } from '@nestjs/common';
import { ShippingMethodRegistry, ShippingProvider } from './shipping-method.registry';
import { ShippingMethod } from './shipping-method.entity';
import { ShippingContext, ShippingQuote, tableRate } from './shipping-quote';

/** The built-in methods (`core:flat-rate`, `core:store-pickup`): plain table rates, so a shop ships without plugins. */
@Injectable()
export class CoreShippingProvider implements ShippingProvider, OnModuleInit {
  readonly type = 'core';
  readonly name = 'Shop';

  constructor(private readonly registry: ShippingMethodRegistry) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  quote(methods: ShippingMethod[], context: ShippingContext): ShippingQuote[] {
    return methods.flatMap((method) => tableRate(method, context) ?? []);
  }
}
