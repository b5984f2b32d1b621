import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource, EntityManager, In, IsNull } from 'typeorm';
import type { ListSort } from '../../common/cp-list.query';
import { AppError } from '../../common/errors/app-error';
import { SettingsService } from '../../config/settings.service';
import { writeLock } from '../../database/locking';
import { TransactionRunner } from '../../database/transaction-runner';
import { insertRows } from '../../database/upsert';
import { shopMoment, shopNow } from '../delivery/shop-calendar';
import { OrderMails } from '../order-mails/order-mails.service';
import { OrderHistory } from '../orders/order-history.entity';
import { OrderLine } from '../orders/order-line.entity';
import { Order } from '../orders/order.entity';
import { OrdersService } from '../orders/orders.service';
import { LineQuantity, ReturnService } from '../returns/return.service';
import { withdrawalErrors } from './withdrawal-errors';
import { Withdrawal, WithdrawalLine } from './withdrawal.entity';

declare module '../order-mails/order-mails.service' {
  interface OrderMailKinds {
    withdrawal: { withdrawalId: number };
  }
}

const PAGE_SIZE = 50;

/** What the CP withdrawal list sorts by; newest first unless asked. */
export const WITHDRAWAL_SORTS = ['id', 'dateCreated', 'deadline'] as const;
export type WithdrawalSort = ListSort<(typeof WITHDRAWAL_SORTS)[number]>;
export const NEWEST_WITHDRAWALS_FIRST: WithdrawalSort = { key: 'id', direction: 'DESC' };

/** Orders with nothing left to withdraw from: called off, or all the money given back. */
const CLOSED = new Set(['canceled', 'refunded']);

/** An order line and how much of it may still be withdrawn from. */
export interface WithdrawableLine {
  line: OrderLine;
  left: number;
}

/** What the shopper may withdraw from, and until when the period runs. */
export interface WithdrawalForm {
  open: boolean;
  /** The period's last moment (epoch ms); null while the order is not delivered, when the period has not begun. */
  deadline: number | null;
  /** The period's last day in the shop's time zone (`YYYY-MM-DD`), or null with `deadline`. */
  lastDay: string | null;
  /** Past the deadline now. */
  late: boolean;
  lines: WithdrawableLine[];
}

/** A withdrawal with its lines named as ordered. */
export interface WithdrawalDetail {
  withdrawal: Withdrawal;
  /** The period's last day in the shop's time zone, or null when it was received before delivery. */
  lastDay: string | null;
  order: Order;
  lines: Array<{ line: OrderLine; qty: number }>;
}

/** What the shopper stated: the order, its lines and quantities, the page's language. */
export interface WithdrawalInput {
  orderId: number;
  lines: LineQuantity[];
  language: string;
}

/**
 * The withdrawal function (docs/shop.md, _Withdrawal_; Directive (EU) 2023/2673): a shopper withdraws from lines of
 * an order, without logging in and without a reason, and is sent a confirmation with the time of receipt. The period
 * runs to the end of the day (in `salesTimezone`) `salesWithdrawalDays` days after the day of delivery (the last move
 * to `completed`); before delivery it has not begun, so there is no deadline and nothing is late. A withdrawal after
 * the deadline is recorded too, marked late, for staff to decide. Taken under the order's row lock against what
 * is left of each line (ordered, less what withdrawals named), so the same units are never withdrawn twice: asking
 * again for lines all withdrawn already answers with the withdrawal that took them. Staff make one return of it.
 */
@Injectable()
export class WithdrawalService implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly settings: SettingsService,
    private readonly orders: OrdersService,
    private readonly orderMails: OrderMails,
    private readonly returns: ReturnService,
  ) {}

  onModuleInit(): void {
    // The law asks for this confirmation: no setting turns it off.
    this.orderMails.define('withdrawal', {
      once: ({ withdrawalId }) => withdrawalId,
      facts: async (_context, { withdrawalId }) => {
        const detail = await this.detail(withdrawalId).catch(() => null);
        if (!detail) return null;
        const { withdrawal, lines, lastDay } = detail;
        return {
          withdrawal: {
            receivedAt: utcTime(withdrawal.dateCreated.getTime()),
            deadline: lastDay,
            late: withdrawal.late,
            lines: lines.map(({ line, qty }) => ({ qty, name: line.name })),
          },
        };
      },
    });
  }

  /**
   * The order a shopper names by its number or reference and the e-mail it was placed with; null when either does
   * not match, so an answer never tells which.
   */
  async find(orderNumber: string, email: string): Promise<Order | null> {
    const order = await this.orders.byNumberOrReference(orderNumber);
    return order && order.email.toLowerCase() === email.trim().toLowerCase() ? order : null;
  }

  form(order: Order): Promise<WithdrawalForm> {
    return this.readForm(this.dataSource.manager, order);
  }

  /**
   * Records the withdrawal and queues its confirmation in the same transaction. `repeated`: every line asked for is
   * withdrawn already, and this is the withdrawal that took the last of them (nothing new is recorded or sent).
   */
  withdraw(input: WithdrawalInput): Promise<{ withdrawal: Withdrawal; repeated: boolean }> {
    return this.runner.run(async (tx) => {
      const { manager } = tx;
      const order = await manager.findOne(Order, { where: { id: input.orderId }, ...writeLock(manager) });
      if (!order) throw AppError.notFound('Order not found');
      const form = await this.readForm(manager, order);
      const asked = checkedLines(form.lines, input.lines);
      if (asked.every(({ orderLineId }) => form.lines.find(({ line }) => line.id === orderLineId)!.left === 0)) {
        const taken = await manager
          .createQueryBuilder(WithdrawalLine, 'wl')
          .where('wl.orderLineId IN (:...ids)', { ids: asked.map(({ orderLineId }) => orderLineId) })
          .orderBy('wl.withdrawalId', 'DESC')
          .getOne();
        return { withdrawal: await manager.findOneByOrFail(Withdrawal, { id: taken!.withdrawalId }), repeated: true };
      }
      if (!form.open) throw withdrawalErrors.withdrawal_closed();
      for (const { orderLineId, qty } of asked) {
        const { line, left } = form.lines.find((entry) => entry.line.id === orderLineId)!;
        if (qty > left) throw withdrawalErrors.withdrawal_line_exceeds_quantity({ line: line.name, asked: qty, left });
      }
      const { identifiers } = await manager.insert(Withdrawal, {
        orderId: order.id,
        language: input.language.slice(0, 8),
        deadline: form.deadline,
        late: form.late,
        returnId: null,
      });
      const withdrawalId = Number(identifiers[0].id);
      await insertRows(
        manager,
        WithdrawalLine,
        asked.map(({ orderLineId, qty }) => ({ withdrawalId, orderLineId, qty })),
      );
      await this.orderMails.queue(tx, 'withdrawal', order.id, { withdrawalId });
      return { withdrawal: await manager.findOneByOrFail(Withdrawal, { id: withdrawalId }), repeated: false };
    });
  }

  async detail(id: number): Promise<WithdrawalDetail> {
    const withdrawal = await this.dataSource.getRepository(Withdrawal).findOneBy({ id });
    if (!withdrawal) throw AppError.notFound('Withdrawal not found');
    const [order, named, ordered] = await Promise.all([
      this.dataSource.getRepository(Order).findOneByOrFail({ id: withdrawal.orderId }),
      this.dataSource.getRepository(WithdrawalLine).find({ where: { withdrawalId: id }, order: { id: 'ASC' } }),
      this.dataSource.getRepository(OrderLine).findBy({ orderId: withdrawal.orderId }),
    ]);
    const lines = named.map(({ orderLineId, qty }) => ({
      line: ordered.find((line) => line.id === orderLineId)!,
      qty,
    }));
    return { withdrawal, order, lines, lastDay: this.lastDay(withdrawal.deadline) };
  }

  /** The day a period ending at `deadline` ends on, in the shop's time zone. */
  lastDay(deadline: number | null): string | null {
    return deadline === null ? null : shopNow(this.settings.get('salesTimezone'), deadline).date;
  }

  /** An order's withdrawals, oldest first (the CP order page). */
  forOrder(orderId: number): Promise<Withdrawal[]> {
    return this.dataSource.getRepository(Withdrawal).find({ where: { orderId }, order: { id: 'ASC' } });
  }

  /** The CP list: newest first, each with its order. */
  async list(page: number, sort: WithdrawalSort = NEWEST_WITHDRAWALS_FIRST) {
    const [withdrawals, total] = await this.dataSource.getRepository(Withdrawal).findAndCount({
      // The id breaks ties, so a page boundary never repeats or skips a withdrawal.
      order: { [sort.key]: sort.direction, id: sort.direction },
      skip: (page - 1) * PAGE_SIZE,
      take: PAGE_SIZE,
    });
    const orders = withdrawals.length
      ? await this.dataSource.getRepository(Order).findBy({ id: In(withdrawals.map((entry) => entry.orderId)) })
      : [];
    return {
      withdrawals: withdrawals.map((withdrawal) => ({
        withdrawal,
        order: orders.find((order) => order.id === withdrawal.orderId)!,
      })),
      total,
      pages: Math.max(1, Math.ceil(total / PAGE_SIZE)),
    };
  }

  /**
   * Staff's one step: an approved return of the withdrawn lines (`ReturnService.openApproved`), which staff then
   * receive and refund as any return. Once per withdrawal, under the order's and the withdrawal's row locks: asked
   * again, the return it made. The return's id.
   */
  toReturn(id: number, actor: string, message: string | null): Promise<number> {
    return this.runner.run(async ({ manager }) => {
      const found = await manager.findOneBy(Withdrawal, { id });
      if (!found) throw AppError.notFound('Withdrawal not found');
      // The order first, as a withdrawal and a return request lock it: one order of locks, no deadlock.
      await manager.findOne(Order, { where: { id: found.orderId }, ...writeLock(manager) });
      const withdrawal = await manager.findOneOrFail(Withdrawal, { where: { id }, ...writeLock(manager) });
      if (withdrawal.returnId) return withdrawal.returnId;
      const named = await manager.findBy(WithdrawalLine, { withdrawalId: id });
      const returnId = await this.returns.openApproved({
        orderId: withdrawal.orderId,
        lines: named.map(({ orderLineId, qty }) => ({ orderLineId, qty })),
        reason: `Withdrawal ${id}`,
        language: withdrawal.language,
        actor,
        message,
      });
      await manager.update(Withdrawal, { id, returnId: IsNull() }, { returnId });
      return returnId;
    });
  }

  /** The period's end, and each line with what is left of it: ordered, less what withdrawals named. */
  private async readForm(manager: EntityManager, order: Order): Promise<WithdrawalForm> {
    const [delivered, ordered, withdrawals] = await Promise.all([
      manager.findOne(OrderHistory, { where: { orderId: order.id, toStatus: 'completed' }, order: { id: 'DESC' } }),
      manager.find(OrderLine, { where: { orderId: order.id }, order: { id: 'ASC' } }),
      manager.findBy(Withdrawal, { orderId: order.id }),
    ]);
    const named = withdrawals.length
      ? await manager.findBy(WithdrawalLine, { withdrawalId: In(withdrawals.map((entry) => entry.id)) })
      : [];
    const lines = ordered.map((line) => ({
      line,
      left: Math.max(
        0,
        line.qty - named.filter((row) => row.orderLineId === line.id).reduce((sum, row) => sum + row.qty, 0),
      ),
    }));
    const deadline = delivered ? this.periodEnd(delivered.dateCreated.getTime()) : null;
    return {
      open: !CLOSED.has(order.status) && lines.some(({ left }) => left > 0),
      deadline,
      lastDay: this.lastDay(deadline),
      late: deadline !== null && Date.now() > deadline,
      lines,
    };
  }

  /** The last moment of the day `salesWithdrawalDays` days after the day of delivery, on the shop's calendar. */
  private periodEnd(deliveredAt: number): number {
    const timeZone = this.settings.get('salesTimezone');
    const day = new Date(`${shopNow(timeZone, deliveredAt).date}T00:00:00Z`);
    day.setUTCDate(day.getUTCDate() + this.settings.get('salesWithdrawalDays') + 1);
    return shopMoment(timeZone, `${day.toISOString().slice(0, 10)}T00:00`)! - 1;
  }
}

/** The asked lines: each a line of the order, named once, a whole quantity from 1. */
function checkedLines(lines: WithdrawableLine[], asked: LineQuantity[]): LineQuantity[] {
  if (asked.length === 0) throw withdrawalErrors.withdrawal_empty();
  const seen = new Set<number>();
  for (const { orderLineId, qty } of asked) {
    if (!lines.some(({ line }) => line.id === orderLineId) || seen.has(orderLineId))
      throw AppError.invalid({ qty: [`${orderLineId} is not a line of this order, or is named twice`] });
    seen.add(orderLineId);
    if (!Number.isSafeInteger(qty) || qty < 1)
      throw AppError.invalid({ qty: ['quantities must be whole numbers from 1'] });
  }
  return asked;
}

/** `2026-06-19 14:03:27 UTC`: the time of receipt as the confirmation states it, to the second. */
function utcTime(ms: number): string {
  return `${new Date(ms).toISOString().replace('T', ' ').slice(0, 19)} UTC`;
}
