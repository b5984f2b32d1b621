import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { CartPricingService } from '../../../commerce/carts/cart-pricing.service';
import { CartService } from '../../../commerce/carts/cart.service';
import { SessionCarts } from '../../../commerce/carts/session-carts.service';
import { SessionCustomers } from '../../../commerce/customers/session-customers.service';
import { WishlistService } from '../../../commerce/wishlists/wishlist.service';
import { CurrencyService } from '../../../commerce/stores/currency.service';
import { AppError } from '../../../common/errors/app-error';
import { SettingsService } from '../../../config/settings.service';

type Section = (req: Request) => Promise<Record<string, unknown>>;

/**
 * The private parts of shared-cached pages (`section-load/{sid}`), loaded by the page's script.
 * Available whether or not customer accounts are on: the mini-cart is needed either way, and the customer
 * sections then answer as for a guest without an account.
 */
@Injectable()
export class CustomerSectionsService {
  private readonly sections: Record<string, Section> = {
    'mini-cart': (req) => this.miniCart(req),
    customer: async (req) => {
      const customer = await this.sessions.current(req.session);
      return { loggedIn: customer !== null, firstName: customer?.firstName ?? null };
    },
    'wishlist-count': async (req) => ({ count: await this.wishlistCount(req) }),
  };

  constructor(
    private readonly carts: CartService,
    private readonly sessionCarts: SessionCarts,
    private readonly pricing: CartPricingService,
    private readonly currencies: CurrencyService,
    private readonly sessions: SessionCustomers,
    private readonly wishlists: WishlistService,
    private readonly settings: SettingsService,
  ) {}

  /** The section's data; an unknown section id is a 404. */
  load(sid: string, req: Request): Promise<Record<string, unknown>> {
    if (!Object.hasOwn(this.sections, sid)) throw AppError.notFound(`There is no section called ${sid}.`);
    return this.sections[sid](req);
  }

  private async miniCart(req: Request) {
    const cart = await this.sessionCarts.open(req.session);
    if (!cart) {
      const currency = await this.currencies.chosenOrBase(req.session?.currency);
      return { itemCount: 0, subtotal: 0, currency: currency.code };
    }
    const priced = await this.pricing.priceLines(cart, await this.carts.lines(cart.id));
    return {
      itemCount: priced.itemCount,
      subtotal: CurrencyService.major(priced.subtotal, priced.currency),
      currency: priced.currency.code,
    };
  }

  /** Saved items: in every list of a logged-in customer, in the session list of a guest. */
  private async wishlistCount(req: Request): Promise<number> {
    if (!this.settings.isOn('customerAccountsEnabled')) return 0;
    const customer = await this.sessions.current(req.session);
    if (!customer) return req.session?.wishlist?.length ?? 0;
    return this.wishlists.count(customer.id);
  }
}
