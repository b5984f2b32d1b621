import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { SessionCustomers } from '../customers/session-customers.service';
import { Cart } from './cart.entity';
import { CartService } from './cart.service';

/**
 * The session's open cart, where the session may use it: a guest cart, or the cart of the account the session
 * is logged in to. A session whose login no longer stands (the password changed, the account was taken over or
 * deleted) still names its cart, but the cart is the account's: the session lets go of it.
 */
@Injectable()
export class SessionCarts {
  constructor(
    private readonly carts: CartService,
    private readonly customers: SessionCustomers,
  ) {}

  async open(req: Request): Promise<Cart | null> {
    const cart = await this.carts.findOpen(req.session?.cartId);
    if (!cart || cart.customerId === null) return cart;
    if ((await this.customers.currentId(req)) === cart.customerId) return cart;
    delete req.session.cartId;
    return null;
  }
}
