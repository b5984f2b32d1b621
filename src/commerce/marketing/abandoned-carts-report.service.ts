import { Injectable } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import type { ListSort } from '../../common/cp-list.query';
import { formatMoney } from '../../common/money-format';
import { SettingsService } from '../../config/settings.service';
import { CartPricingService } from '../carts/cart-pricing.service';
import { Cart } from '../carts/cart.entity';
import { CartService } from '../carts/cart.service';
import { Order } from '../orders/order.entity';
import { Currency } from '../stores/currency.entity';
import { abandonedCartPolicy } from './abandoned-cart-policy';
import { AbandonedCartRecovery } from './abandoned-cart-recovery.entity';
import { AbandonedCartReminder } from './abandoned-cart-reminder.entity';
import { abandonedCarts } from './abandoned-carts.query';

const PAGE_SIZE = 50;

/** What the CP abandoned-cart list sorts by; the latest activity first unless asked. */
export const ABANDONED_CART_SORTS = ['email', 'lastActivityAt'] as const;
export type AbandonedCartSort = ListSort<(typeof ABANDONED_CART_SORTS)[number]>;
export const LATEST_ACTIVITY_FIRST: AbandonedCartSort = { key: 'lastActivityAt', direction: 'DESC' };

export interface AbandonedCartRow {
  email: string;
  value: string;
  itemCount: number;
  lastActivityAt: number;
  remindersSent: number;
  lastReminderAt: Date | null;
  /** `waiting`, `recovered` (a link was used) or `ordered` (a restored cart was ordered). */
  recovery: 'waiting' | 'recovered' | 'ordered';
  order: Pick<Order, 'id' | 'reference'> | null;
}

export interface RecoveredRevenue {
  currency: string;
  orders: number;
  total: string;
}

/** What the CP abandoned-carts page reads: the carts, their reminders and recoveries, and the revenue won back. */
@Injectable()
export class AbandonedCartsReport {
  constructor(
    private readonly dataSource: DataSource,
    private readonly settings: SettingsService,
    private readonly carts: CartService,
    private readonly pricing: CartPricingService,
  ) {}

  /** Abandoned carts, the most recently active first. */
  async list(
    page: number,
    sort: AbandonedCartSort = LATEST_ACTIVITY_FIRST,
  ): Promise<{ carts: AbandonedCartRow[]; total: number; pages: number }> {
    const [carts, total] = await abandonedCarts(this.dataSource, Date.now() - abandonedCartPolicy(this.settings).idleMs)
      .orderBy(`cart.${sort.key}`, sort.direction)
      // The id breaks ties, so a page boundary never repeats or skips a cart.
      .addOrderBy('cart.id', sort.direction)
      .skip((page - 1) * PAGE_SIZE)
      .take(PAGE_SIZE)
      .getManyAndCount();
    const ids = carts.map((cart) => cart.id);
    const [reminders, recoveries] = ids.length
      ? await Promise.all([this.remindersOf(ids), this.recoveriesOf(ids)])
      : [new Map(), new Map()];
    const rows = await Promise.all(
      carts.map((cart) => this.row(cart, reminders.get(cart.id), recoveries.get(cart.id))),
    );
    return { carts: rows, total, pages: Math.max(1, Math.ceil(total / PAGE_SIZE)) };
  }

  /**
   * Totals of the orders placed from a recovered cart (the new one a link filled, or the abandoned one
   * itself when the shopper went on with it), per currency; canceled orders do not count.
   */
  async recoveredRevenue(): Promise<RecoveredRevenue[]> {
    const recovered = (column: 'cartId' | 'abandonedCartId') =>
      `o.cartId IN (SELECT recovery.${column} FROM abandoned_cart_recoveries recovery)`;
    const sums = await this.dataSource
      .getRepository(Order)
      .createQueryBuilder('o')
      .select('o.currency', 'currency')
      .addSelect('COUNT(*)', 'orders')
      .addSelect('SUM(o.total)', 'total')
      .where(`(${recovered('cartId')} OR ${recovered('abandonedCartId')})`)
      .andWhere('o.status <> :canceled', { canceled: 'canceled' })
      .groupBy('o.currency')
      .orderBy('o.currency')
      .getRawMany<{ currency: string; orders: number | string; total: number | string }>();
    const currencies = await this.dataSource
      .getRepository(Currency)
      .findBy({ code: In(sums.map((sum) => sum.currency)) });
    return sums.map((sum) => {
      const currency = currencies.find((candidate) => candidate.code === sum.currency) ?? {
        code: sum.currency,
        decimals: 2,
      };
      return { currency: sum.currency, orders: Number(sum.orders), total: formatMoney(Number(sum.total), currency) };
    });
  }

  private async row(
    cart: Cart,
    reminders: { count: number; last: Date } | undefined,
    recoveries: { order: Order | null } | undefined,
  ): Promise<AbandonedCartRow> {
    const priced = await this.pricing.priceLines(cart, await this.carts.lines(cart.id));
    return {
      email: maskEmail(cart.email ?? ''),
      value: formatMoney(priced.subtotal, priced.currency),
      itemCount: priced.itemCount,
      lastActivityAt: cart.lastActivityAt,
      remindersSent: reminders?.count ?? 0,
      lastReminderAt: reminders?.last ?? null,
      recovery: recoveries ? (recoveries.order ? 'ordered' : 'recovered') : 'waiting',
      order: recoveries?.order ? { id: recoveries.order.id, reference: recoveries.order.reference } : null,
    };
  }

  private async remindersOf(cartIds: number[]): Promise<Map<number, { count: number; last: Date }>> {
    const rows = await this.dataSource
      .getRepository(AbandonedCartReminder)
      .createQueryBuilder('reminder')
      .select('reminder.cartId', 'cartId')
      .addSelect('COUNT(*)', 'count')
      .addSelect('MAX(reminder.dateCreated)', 'last')
      .where({ cartId: In(cartIds) })
      .groupBy('reminder.cartId')
      .getRawMany<{ cartId: number | string; count: number | string; last: Date | string }>();
    return new Map(rows.map((row) => [Number(row.cartId), { count: Number(row.count), last: new Date(row.last) }]));
  }

  /** Per abandoned cart that was recovered: the order placed from one of its restored carts, if any. */
  private async recoveriesOf(cartIds: number[]): Promise<Map<number, { order: Order | null }>> {
    const recoveries = await this.dataSource
      .getRepository(AbandonedCartRecovery)
      .findBy({ abandonedCartId: In(cartIds) });
    const restoredIds = recoveries.flatMap((recovery) => (recovery.cartId === null ? [] : [recovery.cartId]));
    const orders = restoredIds.length
      ? await this.dataSource.getRepository(Order).findBy({ cartId: In(restoredIds) })
      : [];
    const result = new Map<number, { order: Order | null }>();
    for (const recovery of recoveries) {
      const order = orders.find((candidate) => candidate.cartId === recovery.cartId) ?? null;
      if (!result.get(recovery.abandonedCartId)?.order) result.set(recovery.abandonedCartId, { order });
    }
    return result;
  }
}

/** `ad***@example.com`: enough for staff to tell carts apart, not a mailing list to copy. */
function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0 ? '***' : `${email.slice(0, Math.min(2, at))}***${email.slice(at)}`;
}
