import { Global, Module, OnApplicationBootstrap } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { CouponService } from './coupons/coupon.service';
import { CartPricingService } from './carts/cart-pricing.service';
import { CartService } from './carts/cart.service';
import { PLUGINS_AFTER_LOAD } from './events';
import { OrderStatusService } from './orders/order-status.service';
import { PaymentMethodRegistry } from './payments/payment-method.registry';
import { ProductImportService } from './products/product-import.service';
import { ProductsService } from './products/products.service';
import { ShippingMethodRegistry } from './shipping/shipping-method.registry';
import { CurrencyService } from './stores/currency.service';
import { StoreService } from './stores/store.service';
import { VatValidationService } from './tax/vat-validation.service';
import { ViesClient } from './tax/vies.client';

const COMMERCE_SERVICES = [
  PaymentMethodRegistry,
  ShippingMethodRegistry,
  OrderStatusService,
  ProductImportService,
  ProductsService,
  CurrencyService,
  StoreService,
  CouponService,
  CartService,
  CartPricingService,
  ViesClient,
  VatValidationService,
];

/**
 * The shared domain: products, carts, orders, payments and shipping, and the registries plugins fill.
 * Plugins import from here; nothing here imports a plugin.
 */
@Global()
@Module({
  providers: COMMERCE_SERVICES,
  exports: COMMERCE_SERVICES,
})
export class CommerceModule implements OnApplicationBootstrap {
  constructor(private readonly events: EventEmitter2) {}

  /** Every module's onModuleInit has run by now, so every plugin is listening (DESIGN.md §2). */
  onApplicationBootstrap(): void {
    this.events.emit(PLUGINS_AFTER_LOAD);
  }
}
