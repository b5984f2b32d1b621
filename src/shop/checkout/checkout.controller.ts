import { Body, Controller, Get, Header, HttpCode, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CartPricingService } from '../../commerce/carts/cart-pricing.service';
import { Cart } from '../../commerce/carts/cart.entity';
import { CheckoutChoices } from '../../commerce/checkout/checkout-choices.service';
import { QuoteService } from '../../commerce/checkout/quote.service';
import { addressJson } from '../../commerce/customers/address-book.service';
import { SettingsService } from '../../config/settings.service';
import { AppError } from '../../common/errors/app-error';
import { FormAnswer } from '../../web/answers/answers';
import { consentWording } from '../../web/i18n/consent-wording';
import { PageText, PageTextFn } from '../../web/i18n/page-text.decorator';
import { SaveCheckoutDto, SavePaymentMethodDto, SaveShippingMethodDto } from './dto/checkout.dto';
import { SessionCheckout } from './session-checkout.service';

/** The quote a checkout page builds up: its starting values and the three saves (docs/http-contract.md). */
@ApiTags('checkout')
@Controller('shop/checkout')
export class CheckoutController {
  constructor(
    private readonly checkout: SessionCheckout,
    private readonly choices: CheckoutChoices,
    private readonly quotes: QuoteService,
    private readonly pricing: CartPricingService,
    private readonly settings: SettingsService,
  ) {}

  @Get('get-init-values')
  @Header('Cache-Control', 'private, no-store')
  async initValues(@Req() req: Request) {
    const cart = await this.checkout.cart(req);
    const currency = await this.checkout.currency(req, cart);
    const priced = cart
      ? (await this.quotes.quote(cart)).priced
      : await this.pricing.price({ currency: currency.code, couponCode: null, email: null } as Cart, []);
    const details = await this.checkout.details(req, cart);
    const { customer } = details;
    const vatValidation = this.settings.isOn('salesValidateVAT') ? this.settings.get('salesValidateVATType') : 'none';
    return {
      success: true,
      customer: customer && {
        loggedIn: true,
        email: customer.email,
        firstName: customer.firstName,
        lastName: customer.lastName,
      },
      email: details.email,
      billingAddress: details.billingAddress,
      shippingAddress: details.shippingAddress,
      sameAsBilling: !details.shippingAddress,
      notes: cart?.notes ?? null,
      vatId: cart?.vatId ?? null,
      companyName: cart?.companyName ?? null,
      savedAddresses: details.savedAddresses.map(addressJson),
      shippingMethod: cart?.shippingMethod ?? null,
      pickupPoint: cart?.pickupPoint ?? null,
      deliverySlot: cart?.deliverySlotId ? { id: cart.deliverySlotId, date: cart.deliveryDate } : null,
      paymentMethod: cart?.paymentMethod ?? null,
      currency: currency.code,
      cart: this.pricing.summarize(priced),
      settings: {
        vatValidation,
        deliverySlots: this.settings.isOn('salesDeliveryTimeEnabled'),
        countries: this.checkout.countries(),
      },
    };
  }

  @Post('save')
  @HttpCode(200)
  save(@Body() body: SaveCheckoutDto, @Req() req: Request, @PageText() text: PageTextFn): Promise<FormAnswer> {
    if (body.marketingConsent && body.marketingOptOut) {
      throw AppError.invalid({ marketingOptOut: ['cannot be ticked together with the consent to offers by e-mail'] });
    }
    const marketing = body.marketingConsent
      ? { granted: true, wording: consentWording(text, 'marketing') }
      : body.marketingOptOut
        ? { granted: false, wording: consentWording(text, 'customerOptOut') }
        : null;
    return this.saveStep(req, 'Your details were saved.', (cart) =>
      this.choices.saveDetails(cart, {
        email: body.email,
        billingAddress: { ...body.billingAddress },
        shippingAddress: body.sameAsBilling || !body.shippingAddress ? null : { ...body.shippingAddress },
        notes: body.notes ?? null,
        vatId: body.vatId ?? null,
        companyName: body.companyName ?? null,
        marketing,
      }),
    );
  }

  @Post('save-shipping-method')
  @HttpCode(200)
  saveShippingMethod(@Body() body: SaveShippingMethodDto, @Req() req: Request): Promise<FormAnswer> {
    return this.saveStep(req, 'Shipping method chosen.', (cart) => this.choices.saveShippingMethod(cart, body));
  }

  @Post('save-payment-method')
  @HttpCode(200)
  savePaymentMethod(@Body() body: SavePaymentMethodDto, @Req() req: Request): Promise<FormAnswer> {
    return this.saveStep(req, 'Payment method chosen.', (cart) =>
      this.choices.savePaymentMethod(cart, body.paymentMethod),
    );
  }

  /**
   * Saves one step on the session's cart, then answers: JSON `{ success, cart }` for scripts, a flash and a
   * redirect back for a plain form post.
   */
  private async saveStep(req: Request, message: string, save: (cart: Cart) => Promise<void>): Promise<FormAnswer> {
    const cart = await this.checkout.requireCart(req);
    await save(cart);
    return new FormAnswer(message, { back: '/shop/checkout' }, async () => ({
      success: true,
      cart: await this.checkout.summary(cart.id),
    }));
  }
}
