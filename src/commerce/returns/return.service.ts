import { Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager, In, Like } from 'typeorm';
import type { ListSort } from '../../common/cp-list.query';
import { OnDomainEvent } from '../../common/domain-events';
import { AppError } from '../../common/errors/app-error';
import { SettingsService } from '../../config/settings.service';
import { writeLock } from '../../database/locking';
import { TransactionRunner, Tx } from '../../database/transaction-runner';
import { insertRows } from '../../database/upsert';
import { ORDER_REFUNDED, OrderRefunded } from '../events';
import { OrderHistory } from '../orders/order-history.entity';
import { OrderLine } from '../orders/order-line.entity';
import { Order } from '../orders/order.entity';
import { Refund, RefundLine } from '../refunds/refund.entity';
import { RefundInput, RefundResult, RefundService } from '../refunds/refund.service';
import { returnErrors } from './return-errors';
import { returnLifecycle, ReturnStatus } from './return-lifecycle';
import { ReturnDetail, ReturnableLine, ReturnWindow } from './return-reads';
import { ReturnMails } from './return-mails';
import { shopperReturnSection } from './return-section';
import { OrderReturn, OrderReturnHistory, OrderReturnLine } from './return.entity';

const DAY_MS = 86_400_000;
const PAGE_SIZE = 50;

/** What the CP return list sorts by; newest first unless asked. */
export const RETURN_SORTS = ['id', 'dateCreated', 'status'] as const;
export type ReturnSort = ListSort<(typeof RETURN_SORTS)[number]>;
export const NEWEST_RETURNS_FIRST: ReturnSort = { key: 'id', direction: 'DESC' };

export interface LineQuantity {
  orderLineId: number;
  qty: number;
}

/** A return as the customer asks for it, from the account's order page or the guest order page. */
export interface ReturnRequestInput {
  orderId: number;
  lines: LineQuantity[];
  reason: string;
  /** The page's language: the e-mails about the return are written in it. */
  language: string;
  actor: string;
}

/**
 * The refund of a received return: the refund form's fields; its lines default to those returned, and the return
 * gives the idempotency key.
 */
export type ReturnRefundInput = Omit<RefundInput, 'orderId' | 'full' | 'idempotencyKey'>;

/**
 * Returns (docs/shop.md, _Returns_): a customer asks to send back delivered lines within `salesReturnWindowDays`
 * of the order's completion; staff approve or refuse, mark the goods received, and refund them through
 * `RefundService`. A request is decided under the order's row lock (the lock refunds take too) against what is
 * left of each line: ordered, less what open returns hold, less what refunds outside returns gave back; so two
 * requests at once never return a unit twice. Every move goes through `returnLifecycle` and is written to the
 * return's history with who made it.
 */
/** `return-<return id>-<attempt>`: the idempotency key of a return's refund (`returnRefundKey`). */
const RETURN_REFUND_KEY = /^return-(\d+)-\d+$/;

@Injectable()
export class ReturnService {
  private readonly logger = new Logger(ReturnService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly settings: SettingsService,
    private readonly refunds: RefundService,
    private readonly mails: ReturnMails,
  ) {}

  /** The order's return window and returnable lines, as the order pages show them. */
  window(order: Order): Promise<ReturnWindow> {
    return this.readWindow(this.dataSource.manager, order);
  }

  /** The returns section of the shopper's order pages, in `language` (null: nothing to show). */
  async shopperSection(order: Order, language: string) {
    const [window, returns] = await Promise.all([this.window(order), this.forOrder(order.id)]);
    return shopperReturnSection(order, window, returns, language);
  }

  async request(input: ReturnRequestInput): Promise<OrderReturn> {
    return this.runner.run(async (tx) => {
      const { manager } = tx;
      const order = await manager.findOne(Order, { where: { id: input.orderId }, ...writeLock(manager) });
      if (!order) throw AppError.notFound('Order not found');
      if (order.status !== 'completed') throw returnErrors.return_not_delivered();
      const window = await this.readWindow(manager, order);
      if (!window.open) throw returnErrors.return_window_closed({ days: this.settings.get('salesReturnWindowDays') });
      const lines = checkedLines(window.lines, input.lines);
      const reason = input.reason.trim().slice(0, 500);
      if (!reason) throw AppError.invalid({ reason: ['is required'] });

      const returnId = await this.insert(tx, order, lines, {
        status: returnLifecycle.states[0],
        reason,
        language: input.language,
        staffMessage: null,
      });
      await this.record(tx, returnId, null, 'requested', input.actor, reason);
      return manager.findOneByOrFail(OrderReturn, { id: returnId });
    });
  }

  /**
   * A return staff open approved themselves, for a customer's withdrawal (docs/shop.md, _Withdrawal_): no window and
   * no request, but never more of a line than is left to return; the customer hears of the approval as of any other.
   * Joins the caller's transaction. The new return's id.
   */
  openApproved(input: ReturnRequestInput & { message: string | null }): Promise<number> {
    return this.runner.run(async (tx) => {
      const order = await tx.manager.findOne(Order, { where: { id: input.orderId }, ...writeLock(tx.manager) });
      if (!order) throw AppError.notFound('Order not found');
      const window = await this.readWindow(tx.manager, order);
      const lines = checkedLines(window.lines, input.lines);
      const returnId = await this.insert(tx, order, lines, {
        status: 'approved',
        reason: input.reason,
        language: input.language,
        staffMessage: input.message,
      });
      await this.record(tx, returnId, null, 'approved', input.actor, input.reason);
      await this.mails.queue(tx, { id: returnId, orderId: order.id }, 'approved');
      return returnId;
    });
  }

  private async insert(
    tx: Tx,
    order: Order,
    lines: LineQuantity[],
    fields: Pick<OrderReturn, 'status' | 'reason' | 'language' | 'staffMessage'>,
  ): Promise<number> {
    const { identifiers } = await tx.manager.insert(OrderReturn, {
      ...fields,
      orderId: order.id,
      language: fields.language.slice(0, 8),
      refundId: null,
    });
    const returnId = Number(identifiers[0].id);
    await insertRows(
      tx.manager,
      OrderReturnLine,
      lines.map(({ orderLineId, qty }) => ({ returnId, orderLineId, qty })),
    );
    return returnId;
  }

  /** Staff agree; `message` (how to send the goods back) goes to the customer. */
  approve(id: number, message: string | undefined, actor: string): Promise<boolean> {
    return this.move(id, 'approved', actor, message?.trim() || null);
  }

  /** Staff say no, and why; the quantities become returnable again. */
  refuse(id: number, message: string, actor: string): Promise<boolean> {
    const why = message.trim();
    if (!why) throw AppError.invalid({ message: ['tell the customer why'] });
    return this.move(id, 'refused', actor, why);
  }

  /** The goods arrived back. */
  receive(id: number, actor: string): Promise<boolean> {
    return this.move(id, 'received', actor, null);
  }

  /**
   * Refunds a received return through `RefundService` (its rules: the balance, quantities left, the gateway), with
   * the returned lines unless staff name fewer, then marks the return refunded. The return is its own idempotency
   * key (`returnRefundKey`): posts made at once, or again later, answer with the one refund it made.
   */
  async refund(id: number, input: ReturnRefundInput): Promise<RefundResult> {
    const detail = await this.detail(id);
    const { ret } = detail;
    returnLifecycle.assertCan(ret.status, 'refunded');
    const returned = detail.lines.map(({ line, qty }) => ({ orderLineId: line.id, qty }));
    const lines = input.lines?.length ? input.lines : returned;
    for (const { orderLineId, qty } of lines) {
      const held = returned.find((entry) => entry.orderLineId === orderLineId);
      if (!held || qty > held.qty || lines.filter((entry) => entry.orderLineId === orderLineId).length > 1)
        throw returnErrors.return_refund_lines();
    }
    const idempotencyKey = await this.returnRefundKey(id);
    const result = await this.refunds.refund({ ...input, idempotencyKey, orderId: ret.orderId, lines });
    if (result.refund.status === 'succeeded') await this.refunded(id, result.refund);
    return result;
  }

  /**
   * A return's refund the gateway confirmed only later (the reconciliation job settled it) marks the return
   * refunded then; its key says whose it is. One confirmed at once arrives here too, and finds the move made.
   */
  @OnDomainEvent(ORDER_REFUNDED)
  async onRefunded({ refundId }: OrderRefunded): Promise<void> {
    const refund = await this.dataSource.getRepository(Refund).findOneBy({ id: refundId });
    const returnId = Number(RETURN_REFUND_KEY.exec(refund?.idempotencyKey ?? '')?.[1]);
    if (!refund || !returnId) return;
    const ret = await this.dataSource.getRepository(OrderReturn).findOneBy({ id: returnId });
    // A key that only looks like a return's (a script's own) moves nothing.
    if (ret?.orderId !== refund.orderId || !returnLifecycle.can(ret.status, 'refunded')) return;
    try {
      await this.refunded(returnId, refund);
    } catch (error) {
      this.logger.error(`return ${returnId}: refund ${refundId} not recorded: ${(error as Error).message}`);
    }
  }

  private refunded(id: number, refund: Refund): Promise<boolean> {
    return this.move(id, 'refunded', refund.actor, `Refund ${refund.id}`, { refundId: refund.id });
  }

  /**
   * The idempotency key of a return's refund: the same for every post until an attempt fails (a failed refund
   * answers its key with the failure), then the next one.
   */
  private async returnRefundKey(returnId: number): Promise<string> {
    // RETURN_REFUND_KEY reads the return back out of it.
    const prefix = `return-${returnId}-`;
    const failed = await this.dataSource
      .getRepository(Refund)
      .countBy({ idempotencyKey: Like(`${prefix}%`), status: 'failed' });
    return `${prefix}${failed + 1}`;
  }

  async detail(id: number): Promise<ReturnDetail> {
    const ret = await this.dataSource.getRepository(OrderReturn).findOneBy({ id });
    if (!ret) throw AppError.notFound('Return not found');
    const [order, returned, history] = await Promise.all([
      this.dataSource.getRepository(Order).findOneByOrFail({ id: ret.orderId }),
      this.dataSource.getRepository(OrderReturnLine).find({ where: { returnId: id }, order: { id: 'ASC' } }),
      this.dataSource.getRepository(OrderReturnHistory).find({ where: { returnId: id }, order: { id: 'ASC' } }),
    ]);
    const ordered = await this.dataSource.getRepository(OrderLine).findBy({ orderId: ret.orderId });
    const lines = returned.map(({ orderLineId, qty }) => ({
      line: ordered.find((line) => line.id === orderLineId)!,
      qty,
    }));
    return { ret, order, lines, history };
  }

  /** An order's returns with their lines, oldest first: the order pages' sections. */
  async forOrder(orderId: number): Promise<Array<Omit<ReturnDetail, 'order' | 'history'>>> {
    const returns = await this.dataSource.getRepository(OrderReturn).find({ where: { orderId }, order: { id: 'ASC' } });
    if (returns.length === 0) return [];
    const [returned, ordered] = await Promise.all([
      this.dataSource.getRepository(OrderReturnLine).findBy({ returnId: In(returns.map((ret) => ret.id)) }),
      this.dataSource.getRepository(OrderLine).findBy({ orderId }),
    ]);
    return returns.map((ret) => ({
      ret,
      lines: returned
        .filter((row) => row.returnId === ret.id)
        .map(({ orderLineId, qty }) => ({ line: ordered.find((line) => line.id === orderLineId)!, qty })),
    }));
  }

  /** The CP list: newest first, optionally in one status, with each return's order. */
  async list(filter: { status?: ReturnStatus; page: number; sort?: ReturnSort }) {
    const sort = filter.sort ?? NEWEST_RETURNS_FIRST;
    const query = this.dataSource
      .getRepository(OrderReturn)
      .createQueryBuilder('ret')
      .orderBy(`ret.${sort.key}`, sort.direction)
      // The id breaks ties, so a page boundary never repeats or skips a return.
      .addOrderBy('ret.id', sort.direction)
      .skip((filter.page - 1) * PAGE_SIZE)
      .take(PAGE_SIZE);
    if (filter.status) query.andWhere('ret.status = :status', { status: filter.status });
    const [returns, total] = await query.getManyAndCount();
    const orders = returns.length
      ? await this.dataSource.getRepository(Order).findBy({ id: In(returns.map((ret) => ret.orderId)) })
      : [];
    return {
      returns: returns.map((ret) => ({ ret, order: orders.find((order) => order.id === ret.orderId)! })),
      total,
      pages: Math.max(1, Math.ceil(total / PAGE_SIZE)),
    };
  }

  /**
   * Moves a return to `to` under its row lock, with a guarded update; the move it is in already changes nothing
   * (false), an illegal one is a 409. Moves the customer hears of queue their e-mail in the same transaction.
   */
  private move(
    id: number,
    to: ReturnStatus,
    actor: string,
    note: string | null,
    changes: Partial<OrderReturn> = {},
  ): Promise<boolean> {
    return this.runner.run(async (tx) => {
      const { manager } = tx;
      const ret = await manager.findOne(OrderReturn, { where: { id }, ...writeLock(manager) });
      if (!ret) throw AppError.notFound('Return not found');
      if (ret.status === to) return false;
      returnLifecycle.assertCan(ret.status, to);
      const told = to === 'approved' || to === 'refused' ? { staffMessage: note } : {};
      const { affected } = await manager.update(
        OrderReturn,
        { id, status: In(returnLifecycle.guard(to)) },
        { status: to, ...told, ...changes },
      );
      if (!affected) return false;
      await this.record(tx, id, ret.status, to, actor, note);
      await this.mails.queue(tx, ret, to);
      return true;
    });
  }

  private record(
    tx: Tx,
    returnId: number,
    from: ReturnStatus | null,
    to: ReturnStatus,
    actor: string,
    note: string | null,
  ): Promise<void> {
    return insertRows(tx.manager, OrderReturnHistory, { returnId, fromStatus: from, toStatus: to, actor, note });
  }

  /**
   * Open while the order is completed and its completion (the last move to `completed` in its history) is less
   * than `salesReturnWindowDays` ago; each line with what is left of it: ordered, less what returns not refused
   * hold, less what refunds made outside returns (failed ones aside) gave back.
   */
  private async readWindow(manager: EntityManager, order: Order): Promise<ReturnWindow> {
    const days = this.settings.get('salesReturnWindowDays');
    const [completed, ordered, returns, refunds] = await Promise.all([
      manager.findOne(OrderHistory, { where: { orderId: order.id, toStatus: 'completed' }, order: { id: 'DESC' } }),
      manager.find(OrderLine, { where: { orderId: order.id }, order: { id: 'ASC' } }),
      manager.findBy(OrderReturn, { orderId: order.id }),
      manager.findBy(Refund, { orderId: order.id }),
    ]);
    const holding = returns.filter((ret) => ret.status !== 'refused').map((ret) => ret.id);
    const fromReturns = new Set(returns.map((ret) => ret.refundId));
    const outside = refunds
      .filter((refund) => refund.status !== 'failed' && !fromReturns.has(refund.id))
      .map((refund) => refund.id);
    const [held, refunded] = await Promise.all([
      holding.length ? manager.findBy(OrderReturnLine, { returnId: In(holding) }) : [],
      outside.length ? manager.findBy(RefundLine, { refundId: In(outside) }) : [],
    ]);
    const taken = (lineId: number) =>
      [...held, ...refunded].filter((row) => row.orderLineId === lineId).reduce((total, row) => total + row.qty, 0);
    const lines = ordered.map((line) => ({ line, left: Math.max(0, line.qty - taken(line.id)) }));
    const until =
      order.status === 'completed' && completed && days > 0 ? completed.dateCreated.getTime() + days * DAY_MS : null;
    return { open: until !== null && Date.now() <= until, until, lines };
  }
}

/** The asked lines, each a line of the order named once, a whole quantity from 1 up to what is left of it. */
function checkedLines(returnable: ReturnableLine[], asked: LineQuantity[]): LineQuantity[] {
  if (asked.length === 0) throw returnErrors.return_empty();
  const seen = new Set<number>();
  for (const { orderLineId, qty } of asked) {
    const entry = returnable.find(({ line }) => line.id === orderLineId);
    if (!entry || seen.has(orderLineId))
      throw AppError.invalid({ qty: [`${orderLineId} is not a line of this order, or is named twice`] });
    seen.add(orderLineId);
    if (!Number.isSafeInteger(qty) || qty < 1)
      throw AppError.invalid({ qty: ['quantities must be whole numbers from 1'] });
    if (qty > entry.left)
      throw returnErrors.return_line_exceeds_quantity({ line: entry.line.name, asked: qty, left: entry.left });
  }
  return asked;
}
