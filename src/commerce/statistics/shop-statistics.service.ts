import { Injectable } from '@nestjs/common';
import { DataSource, In, MoreThanOrEqual, SelectQueryBuilder } from 'typeorm';
import { SettingsService } from '../../config/settings.service';
import { CartLine } from '../carts/cart-line.entity';
import { Cart } from '../carts/cart.entity';
import { shopMoment, shopNow } from '../delivery/shop-calendar';
import { OrderLine } from '../orders/order-line.entity';
import { OrderStatus } from '../orders/order-status.machine';
import { Order } from '../orders/order.entity';
import { PaymentTransaction } from '../payments/payment-transaction.entity';
import { Refund } from '../refunds/refund.entity';
import { CurrencyService } from '../stores/currency.service';

/** How many store-local days the figures cover, today included. */
export const STATISTICS_DAYS = 30;

/**
 * The orders that count as sales: the money is in, or the goods are on their way (cash on delivery is
 * `processing` before it is paid). Canceled and refunded orders never count; partial refunds are subtracted.
 */
export const REVENUE_STATUSES: readonly OrderStatus[] = ['paid', 'processing', 'shipped', 'completed'];

export interface SalesDay {
  /** `YYYY-MM-DD` in the store's time zone. */
  date: string;
  /** Minor units of the base currency, refunds subtracted. */
  revenue: number;
  orders: number;
}

export interface ProductSales {
  productId: number;
  name: string;
  units: number;
  /** Line totals in minor units of the base currency (before order discounts and refunds). */
  revenue: number;
}

/** Carts created in the period and how far they got; each step counts carts of the one before. */
export interface CartFunnel {
  cartsCreated: number;
  /** Holding at least one line, or already ordered. */
  cartsWithItems: number;
  /** With items and a checkout e-mail entered (or ordered). */
  checkoutsStarted: number;
  ordersPlaced: number;
  /** Orders of those carts that count as sales (`REVENUE_STATUSES`). */
  ordersPaid: number;
}

export interface SalesFigures {
  /** The first and last day of the period, store-local. */
  from: string;
  to: string;
  timeZone: string;
  currency: { code: string; decimals: number };
  days: SalesDay[];
  revenue: number;
  orders: number;
  /** Revenue per counted order, rounded to a minor unit; 0 without orders. */
  averageOrderValue: number;
  /** Succeeded refunds of counted orders, already subtracted from `revenue`. */
  refunded: number;
  topByUnits: ProductSales[];
  topByRevenue: ProductSales[];
  funnel: CartFunnel;
}

/** Orders waiting for staff, now: each count matches the orders list filtered by the status it names. */
export interface OrdersWaiting {
  /** `paid` and `processing`: to prepare and ship. */
  paid: number;
  processing: number;
  /** `pending_payment` and `payment_review`. */
  pendingPayment: number;
  paymentReview: number;
  /** Of the `pending_payment` orders, those whose latest payment attempt failed. */
  failedPayment: number;
}

const TOP_PRODUCTS = 5;

/**
 * The dashboard's figures, computed from the orders themselves (docs/control-panel.md, _Dashboard_): revenue and
 * order count per store-local day, average order value, best-selling products, the cart-to-order funnel and the
 * orders waiting for action. Amounts in other currencies are converted to the base currency at today's rates.
 */
@Injectable()
export class ShopStatistics {
  constructor(
    private readonly dataSource: DataSource,
    private readonly settings: SettingsService,
    private readonly currencies: CurrencyService,
  ) {}

  async sales(now = Date.now()): Promise<SalesFigures> {
    const timeZone = this.settings.get('salesTimezone');
    const dates = lastDays(shopNow(timeZone, now).date, STATISTICS_DAYS);
    const since = new Date(shopMoment(timeZone, `${dates[0]}T00:00`)!);
    const [{ base, toBase }, orders, refunds, lines, funnel] = await Promise.all([
      this.currencies.conversionToBase(),
      this.dataSource.getRepository(Order).find({
        select: { id: true, total: true, currency: true, dateCreated: true },
        where: { dateCreated: MoreThanOrEqual(since), status: In([...REVENUE_STATUSES]) },
      }),
      this.refundsOfCountedOrders(since),
      this.productSales(since),
      this.funnel(since),
    ]);
    const days = new Map(dates.map((date): [string, SalesDay] => [date, { date, revenue: 0, orders: 0 }]));
    let refunded = 0;
    for (const order of orders) {
      const day = days.get(shopNow(timeZone, order.dateCreated.getTime()).date);
      // An order placed after `now` (a clock step) is outside the period.
      if (!day) continue;
      const refund = refunds.get(order.id) ?? 0;
      refunded += toBase(refund, order.currency);
      day.revenue += toBase(order.total - refund, order.currency);
      day.orders += 1;
    }
    const series = [...days.values()];
    const revenue = series.reduce((sum, day) => sum + day.revenue, 0);
    const count = series.reduce((sum, day) => sum + day.orders, 0);
    const products = [...mergeCurrencies(lines, toBase).values()];
    const top = (key: 'units' | 'revenue') =>
      [...products].sort((a, b) => b[key] - a[key] || a.productId - b.productId).slice(0, TOP_PRODUCTS);
    return {
      from: dates[0],
      to: dates[dates.length - 1],
      timeZone,
      currency: { code: base.code, decimals: base.decimals },
      days: series,
      revenue,
      orders: count,
      averageOrderValue: count ? Math.round(revenue / count) : 0,
      refunded,
      topByUnits: top('units'),
      topByRevenue: top('revenue'),
      funnel,
    };
  }

  async waiting(): Promise<OrdersWaiting> {
    const orders = this.dataSource.getRepository(Order);
    const [paid, processing, pendingPayment, paymentReview, failedPayment] = await Promise.all([
      orders.countBy({ status: 'paid' }),
      orders.countBy({ status: 'processing' }),
      orders.countBy({ status: 'pending_payment' }),
      orders.countBy({ status: 'payment_review' }),
      this.awaitingAfterFailedPayment(),
    ]);
    return { paid, processing, pendingPayment, paymentReview, failedPayment };
  }

  /** `pending_payment` orders whose newest payment attempt is a failed one. */
  private awaitingAfterFailedPayment(): Promise<number> {
    const query = this.dataSource.getRepository(Order).createQueryBuilder('o');
    const latest = query
      .subQuery()
      .select('MAX(latest.id)')
      .from(PaymentTransaction, 'latest')
      .where('latest.orderId = o.id')
      .getQuery();
    return query
      .innerJoin(PaymentTransaction, 'attempt', `attempt.orderId = o.id AND attempt.id = ${latest}`)
      .where('o.status = :pending', { pending: 'pending_payment' })
      .andWhere('attempt.status = :failed', { failed: 'failed' })
      .getCount();
  }

  /** Succeeded refunds per counted order of the period (minor units of the order's currency). */
  private async refundsOfCountedOrders(since: Date): Promise<Map<number, number>> {
    const rows = await countedOrders(
      this.dataSource.getRepository(Refund).createQueryBuilder('refund'),
      'refund.orderId',
      since,
    )
      .select('refund.orderId', 'orderId')
      .addSelect('SUM(refund.amount)', 'amount')
      .andWhere('refund.status = :succeeded', { succeeded: 'succeeded' })
      .groupBy('refund.orderId')
      .getRawMany<{ orderId: number | string; amount: number | string }>();
    return new Map(rows.map((row) => [Number(row.orderId), Number(row.amount)]));
  }

  /** Units and line totals per product and currency, of the counted orders of the period. */
  private async productSales(since: Date) {
    const rows = await countedOrders(
      this.dataSource.getRepository(OrderLine).createQueryBuilder('line'),
      'line.orderId',
      since,
    )
      .select('line.productId', 'productId')
      .addSelect('o.currency', 'currency')
      .addSelect('SUM(line.qty)', 'units')
      .addSelect('SUM(line.total)', 'revenue')
      .addSelect('MAX(line.name)', 'name')
      .groupBy('line.productId')
      .addGroupBy('o.currency')
      .getRawMany<{ productId: number | string; currency: string; units: string; revenue: string; name: string }>();
    return rows.map((row) => ({
      productId: Number(row.productId),
      currency: row.currency,
      units: Number(row.units),
      revenue: Number(row.revenue),
      name: row.name,
    }));
  }

  private async funnel(since: Date): Promise<CartFunnel> {
    const carts = () =>
      this.dataSource.getRepository(Cart).createQueryBuilder('cart').where('cart.dateCreated >= :since', { since });
    const withItems = () => {
      const query = carts();
      const lines = query.subQuery().select('1').from(CartLine, 'line').where('line.cartId = cart.id').getQuery();
      return query.andWhere(`(cart.orderedAt IS NOT NULL OR EXISTS ${lines})`);
    };
    const ordersOfCarts = () =>
      this.dataSource
        .getRepository(Order)
        .createQueryBuilder('o')
        .innerJoin(Cart, 'cart', 'cart.id = o.cartId')
        .where('cart.dateCreated >= :since', { since });
    const [cartsCreated, cartsWithItems, checkoutsStarted, ordersPlaced, ordersPaid] = await Promise.all([
      carts().getCount(),
      withItems().getCount(),
      withItems().andWhere('(cart.orderedAt IS NOT NULL OR cart.email IS NOT NULL)').getCount(),
      ordersOfCarts().getCount(),
      ordersOfCarts().andWhere('o.status IN (:...counted)', { counted: REVENUE_STATUSES }).getCount(),
    ]);
    return { cartsCreated, cartsWithItems, checkoutsStarted, ordersPlaced, ordersPaid };
  }
}

/** Joins the counted orders of the period (as `o`) to rows whose `orderIdColumn` names them. */
function countedOrders<T extends object>(
  query: SelectQueryBuilder<T>,
  orderIdColumn: string,
  since: Date,
): SelectQueryBuilder<T> {
  return query
    .innerJoin(Order, 'o', `o.id = ${orderIdColumn}`)
    .where('o.dateCreated >= :since', { since })
    .andWhere('o.status IN (:...counted)', { counted: REVENUE_STATUSES });
}

/** One entry per product, its sales in every currency added up in the base currency. */
function mergeCurrencies(
  rows: { productId: number; currency: string; units: number; revenue: number; name: string }[],
  toBase: (minor: number, code: string) => number,
): Map<number, ProductSales> {
  const products = new Map<number, ProductSales>();
  for (const row of rows) {
    const product = products.get(row.productId) ?? { productId: row.productId, name: row.name, units: 0, revenue: 0 };
    product.units += row.units;
    product.revenue += toBase(row.revenue, row.currency);
    products.set(row.productId, product);
  }
  return products;
}

/** The `count` calendar dates up to and including `today`, oldest first. */
function lastDays(today: string, count: number): string[] {
  const end = Date.parse(`${today}T00:00:00Z`);
  return Array.from({ length: count }, (_, index) =>
    new Date(end - (count - 1 - index) * 86_400_000).toISOString().slice(0, 10),
  );
}
