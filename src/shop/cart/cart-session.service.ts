import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { Cart } from '../../commerce/carts/cart.entity';
import { CartService } from '../../commerce/carts/cart.service';
import { SessionCarts } from '../../commerce/carts/session-carts.service';
import { SessionCustomers } from '../../commerce/customers/session-customers.service';
import { Currency } from '../../commerce/stores/currency.entity';
import { CurrencyService } from '../../commerce/stores/currency.service';
import { StoreService } from '../../commerce/stores/store.service';

/** The shopper's cart and currency, kept in the session (`cartId`, `currency`). */
@Injectable()
export class CartSession {
  constructor(
    private readonly carts: CartService,
    private readonly stores: StoreService,
    private readonly currencies: CurrencyService,
    private readonly customers: SessionCustomers,
    private readonly sessionCarts: SessionCarts,
  ) {}

  /** The session's open cart, or null: reading never creates one. */
  current(req: Request): Promise<Cart | null> {
    return this.sessionCarts.open(req.session);
  }

  async currentOrCreate(req: Request): Promise<Cart> {
    const existing = await this.current(req);
    if (existing) return existing;
    const [store, currency, customerId] = await Promise.all([
      this.stores.default(),
      this.currency(req),
      this.customers.currentId(req.session),
    ]);
    // A logged-in customer's cart is theirs, so it is found again at their next login.
    const cart = await this.carts.create(store.id, currency.code, customerId);
    req.session.cartId = cart.id;
    return cart;
  }

  /** The currency the shopper chose, or the base currency. */
  currency(req: Request): Promise<Currency> {
    return this.currencies.chosenOrBase(req.session.currency);
  }
}
