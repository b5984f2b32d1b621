import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SessionCustomers, SessionLogin } from '../customers/session-customers.service';
import { Cart } from './cart.entity';
import { CartService } from './cart.service';

/** What of the session this reads, and lets go of (`cartId`) when the cart is no longer the session's. */
export interface CartSessionRef extends SessionLogin {
  cartId?: number;
}

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
  async open(session: CartSessionRef | undefined): Promise<Cart | null> {
    return this.usable(session, await this.carts.findOpen(session?.cartId));
  }

  /** The id of the session's cart, ordered or not, for place-order (which finds an ordered cart's order again). */
  async placeable(session: CartSessionRef | undefined): Promise<number | undefined> {
    const cartId = session?.cartId;
    const cart = cartId ? await this.dataSource.getRepository(Cart).findOneBy({ id: cartId }) : null;
    return (await this.usable(session, cart))?.id;
  }

  private async usable(session: CartSessionRef | undefined, cart: Cart | null): Promise<Cart | null> {
    if (!cart || cart.customerId === null) return cart;
    if ((await this.customers.standingLogin(session))?.id === cart.customerId) return cart;
    if (session) delete session.cartId;
    return null;
  }
}
