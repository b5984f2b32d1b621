import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Cart } from '../../commerce/carts/cart.entity';
import { QuoteService } from '../../commerce/checkout/quote.service';
import { DeliverySlotsService, SlotAvailability } from '../../commerce/delivery/delivery-slots.service';
import { PaymentMethodRegistry } from '../../commerce/payments/payment-method.registry';
import { parseShippingMethodId, ShippingQuote } from '../../commerce/shipping/shipping-quote';
import { CurrencyService } from '../../commerce/stores/currency.service';
import { RequiresFeature } from '../../common/decorators/requires-feature.decorator';
import { AppError } from '../../common/errors/app-error';
import { PaymentMethodEntry, paymentEntry, ShippingMethodEntry, shippingEntry } from './checkout-entries';
import { DeliverySlotsQuery, PaymentMethodsQuery, ShippingMethodsQuery } from './dto/checkout.dto';
import { SessionCheckout } from './session-checkout.service';

/** What checkout offers: shipping methods for a country, payment methods for a shipping method, delivery slots. */
@ApiTags('checkout')
@Controller('shop/checkout')
export class CheckoutOptionsController {
  constructor(
    private readonly checkout: SessionCheckout,
    private readonly quotes: QuoteService,
    private readonly payments: PaymentMethodRegistry,
    private readonly currencies: CurrencyService,
    private readonly slots: DeliverySlotsService,
  ) {}

  @Get('get-shipping-methods')
  async shippingMethods(
    @Query() query: ShippingMethodsQuery,
    @Req() req: Request,
  ): Promise<{ success: true; shipping_methods: ShippingMethodEntry[] }> {
    const cart = await this.checkout.cart(req);
    const [quotes, base, currency] = await Promise.all([
      this.quotes.shippingQuotes(query.code, cart),
      this.currencies.base(),
      this.checkout.currency(req, cart),
    ]);
    return { success: true, shipping_methods: quotes.map((quote) => shippingEntry(quote, base, currency)) };
  }

  @Get('get-payment-methods')
  async paymentMethods(
    @Query() query: PaymentMethodsQuery,
    @Req() req: Request,
  ): Promise<{ success: true; payment_methods: PaymentMethodEntry[] }> {
    const cart = await this.checkout.cart(req);
    const shipping = await this.shippingFor(query, cart);
    const [methods, base, currency] = await Promise.all([
      this.quotes.paymentMethods(query.code, shipping, cart),
      this.currencies.base(),
      this.checkout.currency(req, cart),
    ]);
    return { success: true, payment_methods: methods.map((method) => paymentEntry(method, base, currency)) };
  }

  @Get('get-shipping-delivery-slots')
  @RequiresFeature('salesDeliveryTimeEnabled')
  async deliverySlots(@Query() query: DeliverySlotsQuery): Promise<{ success: true; slots: SlotAvailability[] }> {
    return { success: true, slots: await this.slots.forDate(query.date) };
  }

  /** The quote of the `shipping-method` parameter: none when absent, a 400 when malformed or not on offer. */
  private async shippingFor(query: PaymentMethodsQuery, cart: Cart | null): Promise<ShippingQuote | null> {
    const value = query['shipping-method'];
    if (value === undefined || value === '') return null;
    if (!parseShippingMethodId(value)) {
      throw AppError.invalid({ 'shipping-method': ['must be a shipping method identifier type:handle:id'] });
    }
    const quote = (await this.quotes.shippingQuotes(query.code, cart)).find((candidate) => candidate.value === value);
    if (!quote) {
      throw AppError.invalid(
        { 'shipping-method': [`is not offered for ${query.code}`] },
        'This shipping method is not available there.',
      );
    }
    return quote;
  }
}
