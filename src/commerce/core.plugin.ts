import { Injectable } from '@nestjs/common';
import { PluginDeclaration, StorefrontPlugin } from '../plugin-api/storefront-plugin';
import { GiftCardPaymentGateway } from './gift-cards/gift-card-payment.gateway';
import { CorePaymentGateway } from './payments/core-payment.gateway';
import { PaymentGateway } from './payments/payment-gateway';
import { CoreShippingProvider } from './shipping/core-shipping.provider';
import { ShippingProvider } from './shipping/shipping-method.registry';

/**
 * The shop's built-in payment and shipping methods, declared like any plugin's. The commerce module is
 * imported before every plugin, so its methods come first at checkout.
 */
@Injectable()
@PluginDeclaration()
export class CorePlugin implements StorefrontPlugin {
  readonly handle = 'core';
  readonly name = 'Shop';
  readonly paymentGateways: PaymentGateway[];
  readonly shippingProviders: ShippingProvider[];

  constructor(payments: CorePaymentGateway, giftCards: GiftCardPaymentGateway, shipping: CoreShippingProvider) {
    this.paymentGateways = [payments, giftCards];
    this.shippingProviders = [shipping];
  }
}
