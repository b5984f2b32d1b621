import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { DataSource } from 'typeorm';
import { SessionCustomers } from '../customers/session-customers.service';
import { Cart } from './cart.entity';
import { CartService } from './cart.service';

/**
 * The session's cart, where the session may use it: a guest cart, or the cart of the account whose login the
 * session holds. A session whose login no longer stands (the password changed, the account was taken over or
 * deleted) still names its cart, but the cart is the account's: the session lets go of it.
 */
@Injectable()
export class SessionCarts {
  constructor(
    private readonly dataSource: DataSource,
    private readonly carts: CartService,
    private readonly customers: SessionCustomers,
  ) {}

  /** The session's open cart, or null. */
  async open(req: Request): Promise<Cart | null> {
    return this.usable(req, await this.carts.findOpen(req.session?.cartId));
  }

  /** The id of the session's cart, ordered or not, for place-order (which finds an ordered cart's order again). */
  async placeable(req: Request): Promise<number | undefined> {
    const cartId = req.session?.cartId;
    const cart = cartId ? await this.dataSource.getRepository(Cart).findOneBy({ id: cartId }) : null;
    return (await this.usable(req, cart))?.id;
  }

  private async usable(req: Request, cart: Cart | null): Promise<Cart | null> {
    if (!cart || cart.customerId === null) return cart;
    if ((await this.customers.standingLogin(req))?.id === cart.customerId) return cart;
    delete req.session.cartId;
    return null;
  }
}
