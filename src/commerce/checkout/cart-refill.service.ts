import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { TransactionRunner } from '../../database/transaction-runner';
import { CartService, FilledItem, QuoteDetails } from '../carts/cart.service';
import { Cart } from '../carts/cart.entity';
import { CartSessionRef, SessionCarts } from '../carts/session-carts.service';
import { sameAddress } from '../customers/address-book.service';
import { SessionCustomers } from '../customers/session-customers.service';
import { Order } from '../orders/order.entity';
import { OrdersService } from '../orders/orders.service';
import { CurrencyService } from '../stores/currency.service';
import { checkoutErrors } from './checkout-errors';

/** What of the session a refill reads: its cart and login, and the orders it placed. */
export interface RefillSession extends CartSessionRef {
  placedOrderNumbers?: string[];
}

/** A session remembers this many of the orders it placed, the latest. */
const PLACED_ORDERS_KEPT = 10;

/**
 * Place-order notes the order in the session that placed it. (Its last order number is not that proof: a gateway's
 * return sets it for whoever follows the link.)
 */
export function notePlacedOrder(session: RefillSession, orderNumber: string): void {
  const others = (session.placedOrderNumbers ?? []).filter((number) => number !== orderNumber);
  session.placedOrderNumbers = [...others, orderNumber].slice(-PLACED_ORDERS_KEPT);
}

/** An order line as the cart holds it again. */
export interface RefilledLine extends FilledItem {
  sku: string;
  /** As the order names it: an item no longer sold has no other name. */
  name: string;
}

export interface CartRefilled {
  /** The session's cart, opened when it had none: the caller keeps it in the session. */
  cartId: number;
  order: Order;
  /** Each line of the order, as the cart holds it now. */
  items: RefilledLine[];
}

/**
 * "Try again" after the gateway's answer canceled an order (a declined card, an abandoned loan application): the
 * order's items and checkout details go back into the shopper's cart, so they check out again instead of
 * starting over. The order itself stays canceled.
 *
 * The rule, so a second click changes nothing: each order line is put into the session's open cart (a new one
 * when it has none) with its ordered quantity set, not added: an identical line holding that many already stays as
 * it is, other lines of the cart are left alone. What is no longer sold or out of stock is left out, a short stock
 * gives a smaller quantity (`FilledItem.outcome`). The e-mail, addresses (with their phone), notes, VAT id and
 * company name replace the cart's, the coupon is kept when the cart has none; shipping is chosen again (the cart
 * may have changed), and the payment method that failed is not chosen again for the shopper.
 */
@Injectable()
export class CartRefill {
  constructor(
    private readonly runner: TransactionRunner,
    private readonly orders: OrdersService,
    private readonly carts: CartService,
    private readonly sessionCarts: SessionCarts,
    private readonly customers: SessionCustomers,
    private readonly currencies: CurrencyService,
  ) {}

  /**
   * Only the session that placed the order or the logged-in customer who owns it may refill from it: to anyone
   * else the order is not found. 409 `order_not_canceled` for an order still open, 409 `order_items_unavailable`
   * (and nothing changed) when none of its items can be bought now.
   */
  async fromOrder(orderNumber: unknown, session: RefillSession): Promise<CartRefilled> {
    const order = await this.orders.byNumber(orderNumber);
    const customerId = await this.customers.currentId(session);
    if (!order || !this.entitled(order, session, customerId)) throw AppError.notFound('We could not find that order.');
    if (order.status !== 'canceled') throw checkoutErrors.order_not_canceled();
    const lines = await this.orders.lines(order.id);
    const existing = await this.sessionCarts.open(session);
    return this.runner.run(async () => {
      const cart = existing ?? (await this.openCart(order, customerId));
      const filled = await this.carts.fillUpTo(
        cart.id,
        lines.map(({ productId, configuration, custom, qty }) => ({ productId, configuration, custom, qty })),
      );
      const items = lines.map(({ sku, name }, index) => ({ sku, name, ...filled[index] }));
      // Rolls the new cart and its lines back with the error: nothing of the order could be put back.
      if (items.every((item) => item.outcome === 'unavailable')) throw checkoutErrors.order_items_unavailable();
      await this.carts.saveQuote(cart.id, detailsFrom(order, cart));
      if (cart.couponCode === null && order.couponCode !== null) await this.carts.setCoupon(cart.id, order.couponCode);
      return { cartId: cart.id, order, items };
    });
  }

  /** Whether this session may refill its cart from the order: what the failed page offers. */
  async offered(order: Order, session: RefillSession): Promise<boolean> {
    return order.status === 'canceled' && this.entitled(order, session, await this.customers.currentId(session));
  }

  /** The session placed the order, or is logged in as the customer who did. */
  private entitled(order: Order, session: RefillSession, customerId: number | null): boolean {
    if (session.placedOrderNumbers?.includes(order.number)) return true;
    return order.customerId !== null && order.customerId === customerId;
  }

  /** A cart in the order's store and currency (the base one when that is no longer offered). */
  private async openCart(order: Order, customerId: number | null): Promise<Cart> {
    const currency = await this.currencies.chosenOrBase(order.currency);
    return this.carts.create(order.storeId, currency.code, customerId);
  }
}

/** The checkout details the order was placed with, as the cart keeps them (see CartRefill). */
function detailsFrom(order: Order, cart: Cart): QuoteDetails {
  return {
    email: order.email,
    billingAddress: order.billingAddress,
    // The order holds the billing address again when the goods went there; the cart holds none then.
    shippingAddress:
      order.shippingAddress && !sameAddress(order.shippingAddress, order.billingAddress) ? order.shippingAddress : null,
    notes: order.notes,
    vatId: order.vatId,
    companyName: order.companyName,
    ...(cart.paymentMethod === order.paymentMethod ? { paymentMethod: null } : {}),
  };
}
