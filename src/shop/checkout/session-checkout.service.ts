import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { CartPricingService, CartSummary } from '../../commerce/carts/cart-pricing.service';
import { Cart } from '../../commerce/carts/cart.entity';
import { CartService } from '../../commerce/carts/cart.service';
import { cartErrors } from '../../commerce/carts/carts-errors';
import { SessionCarts } from '../../commerce/carts/session-carts.service';
import { CheckoutChoices, CheckoutDetails, PickedAddresses } from '../../commerce/checkout/checkout-choices.service';
import { QuoteService } from '../../commerce/checkout/quote.service';
import { SessionCustomers } from '../../commerce/customers/session-customers.service';
import { Currency } from '../../commerce/stores/currency.entity';
import { CurrencyService } from '../../commerce/stores/currency.service';
import { COUNTRY_CODES, CountryOption, countryOptions } from '../../common/countries';
import { SettingsService } from '../../config/settings.service';

/**
 * Checkout as the request's session sees it: the session's cart and customer, and what the checkout pages and
 * answers show of them. What is saved, and every check of it, is commerce's CheckoutChoices.
 */
@Injectable()
export class SessionCheckout {
  constructor(
    private readonly carts: CartService,
    private readonly sessionCarts: SessionCarts,
    private readonly customers: SessionCustomers,
    private readonly choices: CheckoutChoices,
    private readonly quotes: QuoteService,
    private readonly pricing: CartPricingService,
    private readonly currencies: CurrencyService,
    private readonly settings: SettingsService,
  ) {}

  /** The session's open cart, or null. */
  cart(req: Request): Promise<Cart | null> {
    return this.sessionCarts.open(req.session);
  }

  async requireCart(req: Request): Promise<Cart> {
    const cart = await this.cart(req);
    if (!cart) throw cartErrors.cart_empty();
    return cart;
  }

  /** The details a checkout starts from (docs/http-contract.md get-init-values), for the session's customer. */
  async details(req: Request, cart: Cart | null, picked: PickedAddresses = {}): Promise<CheckoutDetails> {
    return this.choices.startingDetails(cart, await this.customers.current(req.session), picked);
  }

  /** Prices are shown in the cart's currency, else the one the shopper chose. */
  async currency(req: Request, cart: Cart | null): Promise<Currency> {
    return this.currencies.chosenOrBase(cart?.currency ?? req.session.currency);
  }

  /**
   * The countries a shopper may pick in an address: those the shop sells to (`salesAllowedCountries`, else all),
   * named in `locale` (the page language; JSON answers stay English).
   */
  countries(locale?: string): CountryOption[] {
    const allowed = this.settings.get('salesAllowedCountries');
    return countryOptions(locale, allowed.length ? allowed : COUNTRY_CODES);
  }

  /** The cart as a save's answer shows it. */
  async summary(cartId: number): Promise<CartSummary> {
    const cart = (await this.carts.findOpen(cartId))!;
    return this.pricing.summarize((await this.quotes.quote(cart)).priced);
  }
}
