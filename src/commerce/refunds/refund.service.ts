import { Injectable, Logger } from '@nestjs/common';
import { DataSource, In } from 'typeorm';
import { DomainEvents } from '../../common/domain-events';
import { AppError } from '../../common/errors/app-error';
import { formatMoney } from '../../common/money-format';
import { roundHalfUp, toMajor } from '../../common/money';
import { isUniqueViolation } from '../../database/errors';
import { writeLock } from '../../database/locking';
import { TransactionRunner, Tx } from '../../database/transaction-runner';
import { insertRows } from '../../database/upsert';
import { ORDER_REFUNDED, OrderRefunded } from '../events';
import { SalesDocument } from '../invoices/sales-document.entity';
import { SalesDocuments } from '../invoices/sales-documents.service';
import { GiftCardLedger } from '../gift-cards/gift-card-ledger.service';
import { OrderLine } from '../orders/order-line.entity';
import { orderLifecycle } from '../orders/order-status.machine';
import { OrderStatusService } from '../orders/order-status.service';
import { Order } from '../orders/order.entity';
import { RefundOutcome } from '../payments/payment-gateway';
import { PaymentMethodRegistry } from '../payments/payment-method.registry';
import { PaymentTransaction } from '../payments/payment-transaction.entity';
import { StockService } from '../products/stock.service';
import { CurrencyService, MoneyUnit } from '../stores/currency.service';
import { lineValue, PaymentBalance, readRefundBalance, RefundBalance } from './refund-balance';
import { Refund, RefundLine, RefundMethod } from './refund.entity';
import { refundErrors } from './refund-errors';

declare module '../../common/domain-events' {
  interface DomainEventMap {
    [ORDER_REFUNDED]: OrderRefunded;
  }
}

/** A refund as staff ask for it (CP form, CLI). */
export interface RefundInput {
  orderId: number;
  /** The same key again answers with the refund it made (a repeated post, a retried command). */
  idempotencyKey: string;
  /** The payment the money goes back to; the order's first payment with money left when absent. */
  paymentId?: number;
  lines?: Array<{ orderLineId: number; qty: number }>;
  /** A free amount on top of the lines (shipping, goodwill), in major units of the order's currency as typed. */
  amount?: number;
  /** Everything left: every line's quantity not refunded yet, and the whole balance. */
  full?: boolean;
  /** Whether the refunded lines go back to stock. */
  restock?: boolean;
  reason: string;
  /** The staff member's bank reference, for money the gateway cannot give back. */
  reference?: string;
  actor: string;
}

export interface RefundResult {
  refund: Refund;
  /** The idempotency key had made this refund already: nothing was done now. */
  replayed: boolean;
}

/** What the first transaction decided: the refund row, and for a gateway refund what to ask for. */
interface Opened {
  refund: Refund;
  replayed: boolean;
  order: Order;
  transaction: PaymentTransaction;
}

/**
 * Refunds (docs/shop.md, _Refunds_): money of a paid order given back, in part or in whole, through the payment's
 * gateway when it can, else recorded as refunded by hand. Every refund is decided under the order's row lock
 * against what is left (paid less refunded less what pending refunds hold), so two staff refunding at once never
 * give back more than was paid; a gateway refund holds its amount while the gateway is asked, outside any
 * transaction, and then succeeds or fails once (a guarded update). When the gateway gives no clear answer it may
 * have paid, so the refund stays pending, holding its amount, and `reconcile` asks again later (the reconciliation
 * job). Stock, gift cards and the status follow in the transaction that records the success.
 */
/** A credit note's line for what a refund gives back beyond its lines (shipping, goodwill). */
const OTHER_AMOUNT = 'Other amount (shipping, goodwill)';

/**
 * When the reconciliation job first looks at a gateway refund: longer than any gateway call takes, so it only finds
 * refunds whose ask was cut short (the app stopped meanwhile) or got no clear answer. Each further ask without one
 * is put off twice as long, up to six hours.
 */
const FIRST_CHECK_MS = 10 * 60 * 1000;
const LONGEST_CHECK_MS = 6 * 60 * 60 * 1000;

/** When to ask about a pending gateway refund again after `checks` asks in a row without a clear answer. */
export function nextRefundCheck(now: number, checks: number): number {
  return now + Math.min(FIRST_CHECK_MS * 2 ** Math.min(Math.max(checks - 1, 0), 16), LONGEST_CHECK_MS);
}

@Injectable()
export class RefundService {
  private readonly logger = new Logger(RefundService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly registry: PaymentMethodRegistry,
    private readonly statuses: OrderStatusService,
    private readonly stock: StockService,
    private readonly ledger: GiftCardLedger,
    private readonly currencies: CurrencyService,
    private readonly events: DomainEvents,
    private readonly documents: SalesDocuments,
  ) {}

  /** Where the order's money stands, for the CP page and the answers. */
  async balance(orderId: number): Promise<RefundBalance> {
    const order = await this.dataSource.getRepository(Order).findOneBy({ id: orderId });
    if (!order) throw AppError.notFound('Order not found');
    return readRefundBalance(this.dataSource.manager, order);
  }

  /**
   * A refund and where its order stands now, amounts in major units of the order's currency: the CLI's line and
   * the CP's JSON answer.
   */
  async report({ refund, replayed }: RefundResult) {
    const { decimals } = await this.currencies.recorded(refund.currency);
    const state = await this.balance(refund.orderId);
    const major = (minor: number) => toMajor(minor, decimals);
    return {
      refundId: refund.id,
      orderNumber: state.order.number,
      orderStatus: state.order.status,
      status: refund.status,
      method: refund.method,
      amount: major(refund.amount),
      paymentAmount: major(refund.paymentAmount),
      giftCardAmount: major(refund.giftCardAmount),
      currency: refund.currency,
      reference: refund.reference,
      restocked: refund.restock,
      replayed,
      paid: major(state.paid),
      refunded: major(state.refunded),
      balance: major(state.balance),
    };
  }

  async refund(input: RefundInput): Promise<RefundResult> {
    const currency = await this.currencyOf(input.orderId);
    const opened = await this.runner.run((tx) => this.open(tx, input, currency));
    const { refund, order, transaction } = opened;
    if (opened.replayed || refund.status !== 'pending') return this.answer(refund, opened.replayed);
    const outcome = await this.askGateway(refund, order, transaction, false);
    const closed = await this.runner.run((tx) => this.close(tx, refund.id, outcome, currency, Date.now()));
    return this.answer(closed, false);
  }

  /**
   * Asks the gateway what became of a pending gateway refund (the reconciliation job) and records its answer as
   * `refund` records the first one: a success gives back what a success gives back, once; no clear answer again
   * puts the next ask off further. Whether the refund is settled now.
   */
  async reconcile(refundId: number, now = Date.now()): Promise<boolean> {
    const refund = await this.dataSource.getRepository(Refund).findOneBy({ id: refundId });
    if (refund?.status !== 'pending' || refund.method !== 'gateway') return false;
    const order = await this.dataSource.getRepository(Order).findOneByOrFail({ id: refund.orderId });
    const transaction = await this.dataSource
      .getRepository(PaymentTransaction)
      .findOneByOrFail({ id: refund.paymentTransactionId });
    const currency = await this.currencies.recorded(order.currency);
    const outcome = await this.askGateway(refund, order, transaction, true);
    const closed = await this.runner.run((tx) => this.close(tx, refund.id, outcome, currency, now));
    return closed.status !== 'pending';
  }

  /** A refund that failed is answered as the failure it is, also when its key is sent again. */
  private answer(refund: Refund, replayed: boolean): RefundResult {
    if (refund.status === 'failed')
      throw refundErrors.refund_failed({ reason: refund.failure ?? 'unknown' }, { details: { refundId: refund.id } });
    return { refund, replayed };
  }

  /** Decides the refund under the order's lock and writes it: pending for the gateway, else done at once. */
  private async open(tx: Tx, input: RefundInput, currency: MoneyUnit): Promise<Opened> {
    const { manager } = tx;
    const order = await manager.findOne(Order, { where: { id: input.orderId }, ...writeLock(manager) });
    if (!order) throw AppError.notFound('Order not found');
    const earlier = await this.byKey(tx, input.idempotencyKey, order);
    if (earlier) return earlier;
    if (!input.reason.trim()) throw AppError.invalid({ reason: ['is required'] });

    const state = await readRefundBalance(manager, order);
    if (state.paid <= 0) throw refundErrors.refund_nothing_paid();
    const payment = choosePayment(state, input.paymentId);
    const lines = refundedLines(state, input);
    const free = input.full ? 0 : minorAmount(input.amount ?? 0, currency);
    const paymentLeft = payment.paid - payment.refunded - payment.held;
    const left = paymentLeft + state.giftCardsLeft;
    const amount = input.full ? left : lines.reduce((total, line) => total + line.amount, 0) + free;
    if (left <= 0) throw refundErrors.refund_nothing_left();
    if (amount <= 0) throw refundErrors.refund_empty();
    if (amount > left) {
      const money = (minor: number) => formatMoney(minor, currency);
      throw refundErrors.refund_exceeds_balance({ asked: money(amount), balance: money(left) });
    }
    const paymentAmount = Math.min(amount, paymentLeft);
    const { transaction } = payment;
    const method = this.methodFor(transaction, paymentAmount);
    const reference = input.reference?.trim() || null;
    if (method === 'manual' && !reference)
      throw refundErrors.refund_reference_required({ method: order.paymentName || transaction.code });

    const row: Partial<Refund> = {
      orderId: order.id,
      paymentTransactionId: transaction.id,
      idempotencyKey: input.idempotencyKey,
      amount,
      paymentAmount,
      giftCardAmount: amount - paymentAmount,
      currency: order.currency,
      method,
      status: method === 'gateway' ? 'pending' : 'succeeded',
      checkAt: method === 'gateway' ? nextRefundCheck(Date.now(), 0) : null,
      checks: 0,
      reason: input.reason.trim().slice(0, 500),
      reference: method === 'gateway' ? null : reference,
      failure: null,
      // A canceled order's goods went back to stock when it was canceled.
      restock: input.restock === true && lines.length > 0 && order.status !== 'canceled',
      actor: input.actor,
    };
    try {
      await insertRows(manager, Refund, row);
    } catch (error) {
      // The same key at the same moment for another order (this order's lock orders its own requests).
      if (isUniqueViolation(error)) throw refundErrors.refund_key_reused();
      throw error;
    }
    const refund = await manager.findOneByOrFail(Refund, { idempotencyKey: input.idempotencyKey });
    await insertRows(
      manager,
      RefundLine,
      lines.map(({ orderLineId, qty, amount: lineAmount }) => ({
        refundId: refund.id,
        orderLineId,
        qty,
        amount: lineAmount,
      })),
    );
    if (refund.status === 'succeeded') await this.complete(tx, order, refund, currency);
    return { refund, replayed: false, order, transaction };
  }

  /** The refund an idempotency key made already, or null; a key of another order's refund is a 409. */
  private async byKey(tx: Tx, key: string, order: Order): Promise<Opened | null> {
    const refund = await tx.manager.findOneBy(Refund, { idempotencyKey: key });
    if (!refund) return null;
    if (refund.orderId !== order.id) throw refundErrors.refund_key_reused();
    const transaction = await tx.manager.findOneByOrFail(PaymentTransaction, { id: refund.paymentTransactionId });
    return { refund, replayed: true, order, transaction };
  }

  /** Through the gateway when it refunds this payment; by hand otherwise; only gift cards when no money is due. */
  private methodFor(transaction: PaymentTransaction, paymentAmount: number): RefundMethod {
    if (paymentAmount === 0) return 'gift-card';
    const gateway = this.registry.gatewayFor(transaction.code);
    return gateway?.refund && (gateway.refundable?.(transaction) ?? true) ? 'gateway' : 'manual';
  }

  /**
   * Asks the gateway to refund (or, `again`, what became of the refund), outside any transaction. A thrown error
   * is no clear answer: the gateway may have paid. A gateway that is gone was never asked to refund.
   */
  private async askGateway(
    refund: Refund,
    order: Order,
    transaction: PaymentTransaction,
    again: boolean,
  ): Promise<RefundOutcome> {
    const gateway = this.registry.gatewayFor(transaction.code);
    const ask = again ? gateway?.refundStatus : gateway?.refund;
    if (!ask) {
      const reason = `no payment gateway ${again ? 'tells what became of refunds of' : 'refunds'} ${transaction.code}`;
      return again ? { status: 'unknown', reason } : { status: 'failed', reason };
    }
    try {
      return await ask.call(gateway, {
        order,
        transaction,
        amount: refund.paymentAmount,
        refundKey: refund.idempotencyKey,
        reason: refund.reason,
      });
    } catch (error) {
      const reason = (error as Error).message;
      this.logger.warn(`refund ${refund.id} of order ${order.reference}: no clear answer from the gateway: ${reason}`);
      return { status: 'unknown', reason };
    }
  }

  /**
   * Records the gateway's answer once: only a pending refund changes, and only a success gives anything back. No
   * clear answer leaves it pending, its next check put off; the order's history says so the first time.
   */
  private async close(
    tx: Tx,
    refundId: number,
    outcome: RefundOutcome,
    currency: MoneyUnit,
    now: number,
  ): Promise<Refund> {
    const { manager } = tx;
    const pending = await manager.findOneByOrFail(Refund, { id: refundId });
    if (outcome.status === 'unknown') return this.putOff(tx, pending, outcome.reason, currency, now);
    const order = await manager.findOneOrFail(Order, { where: { id: pending.orderId }, ...writeLock(manager) });
    const changes: Partial<Refund> =
      outcome.status === 'refunded'
        ? { status: 'succeeded', reference: outcome.reference.slice(0, 191), checkAt: null }
        : { status: 'failed', failure: outcome.reason.slice(0, 500), checkAt: null };
    const { affected } = await manager.update(Refund, { id: refundId, status: 'pending' }, changes);
    const refund = await manager.findOneByOrFail(Refund, { id: refundId });
    if (!affected) return refund;
    if (refund.status === 'succeeded') {
      await this.complete(tx, order, refund, currency);
    } else {
      const note = `Refund of ${formatMoney(refund.paymentAmount, currency)} failed: ${refund.failure}. Nothing was refunded`;
      await this.statuses.comment(order.id, note, refund.actor);
    }
    return refund;
  }

  private async putOff(tx: Tx, pending: Refund, reason: string, currency: MoneyUnit, now: number): Promise<Refund> {
    const checks = pending.checks + 1;
    const { affected } = await tx.manager.update(
      Refund,
      { id: pending.id, status: 'pending', checks: pending.checks },
      { checks, checkAt: nextRefundCheck(now, checks) },
    );
    if (affected && checks === 1) {
      const note =
        `Refund of ${formatMoney(pending.paymentAmount, currency)}: no clear answer from the payment gateway ` +
        `(${reason.slice(0, 200)}). It stays pending, waiting for the bank, and is asked about again`;
      await this.statuses.comment(pending.orderId, note, pending.actor);
    }
    return tx.manager.findOneByOrFail(Refund, { id: pending.id });
  }

  /**
   * What a succeeded refund gives back, in the transaction that records it (so once): its lines to stock when
   * staff asked, its gift-card part to the cards, a history entry, and the `refunded` status once nothing is left.
   */
  private async complete(tx: Tx, order: Order, refund: Refund, currency: MoneyUnit): Promise<void> {
    const { manager } = tx;
    const lines = await manager.findBy(RefundLine, { refundId: refund.id });
    const ordered = lines.length
      ? await manager.findBy(OrderLine, { id: In(lines.map((line) => line.orderLineId)) })
      : [];
    const orderLineOf = ({ orderLineId }: RefundLine) => ordered.find((candidate) => candidate.id === orderLineId)!;
    if (refund.restock && lines.length > 0) {
      await this.stock.restore(
        tx,
        lines.map((refunded) => {
          const line = orderLineOf(refunded);
          return { productId: line.productId, variantId: line.variantId, qty: refunded.qty, name: line.name };
        }),
      );
    }
    // A refund of an invoiced order is a credit note to its invoice; before the invoice there is nothing to correct.
    if (await manager.existsBy(SalesDocument, { invoicedOrderId: order.id })) {
      const byLine = lines.map((refunded) => ({
        name: orderLineOf(refunded).name,
        qty: refunded.qty,
        amount: refunded.amount,
        vatRate: orderLineOf(refunded).vatRate,
      }));
      const beyondLines = refund.amount - byLine.reduce((sum, line) => sum + line.amount, 0);
      // Lines worth more than the refund (what was left of a line paid partly by an earlier free amount): no breakdown.
      const creditLines =
        beyondLines < 0
          ? []
          : beyondLines > 0 && byLine.length
            ? [...byLine, { name: OTHER_AMOUNT, qty: 1, amount: beyondLines }]
            : byLine;
      await this.documents.issueCreditNote(tx, {
        orderId: order.id,
        refundId: refund.id,
        amount: refund.amount,
        lines: creditLines,
      });
    }
    if (refund.giftCardAmount > 0) {
      const given = await this.ledger.giveBack(tx, order.id, refund.id, refund.giftCardAmount);
      if (given !== refund.giftCardAmount) throw new Error(`refund ${refund.id}: gift cards took back ${given} only`);
    }
    const after = await readRefundBalance(manager, order);
    const payment = after.payments.find((entry) => entry.transaction.id === refund.paymentTransactionId)!;
    if (payment.transaction.refundDue && payment.refunded >= payment.paid)
      await manager.update(PaymentTransaction, { id: payment.transaction.id }, { refundDue: false });
    const note = refundNote(refund, currency, lines.length > 0);
    if (after.balance <= 0 && orderLifecycle.can(order.status, 'refunded')) {
      await this.statuses.change(order.id, 'refunded', refund.actor, note);
    } else {
      await this.statuses.comment(order.id, note, refund.actor);
    }
    tx.afterCommit(() =>
      this.events.emit(ORDER_REFUNDED, { refundId: refund.id, orderId: order.id, orderNumber: order.number }),
    );
  }

  private async currencyOf(orderId: number): Promise<MoneyUnit> {
    const order = await this.dataSource.getRepository(Order).findOneBy({ id: orderId });
    if (!order) throw AppError.notFound('Order not found');
    return this.currencies.recorded(order.currency);
  }
}

/** The payment asked for, else the first with money left, else the first that took any. */
function choosePayment(state: RefundBalance, paymentId: number | undefined): PaymentBalance {
  if (paymentId !== undefined) {
    const named = state.payments.find((payment) => payment.transaction.id === paymentId);
    if (!named) throw AppError.notFound('This order has no such payment');
    return named;
  }
  return (
    state.payments.find((payment) => payment.paid - payment.refunded - payment.held > 0) ??
    state.payments.find((payment) => payment.paid > 0) ??
    state.payments[0]
  );
}

/** The lines a refund gives back, each checked against what is left of it, with its part of the amount. */
function refundedLines(state: RefundBalance, input: RefundInput) {
  const asked = input.full
    ? state.lines.map(({ line, refunded }) => ({ orderLineId: line.id, qty: line.qty - refunded }))
    : (input.lines ?? []);
  const seen = new Set<number>();
  return asked
    .filter(({ qty }) => !input.full || qty > 0)
    .map(({ orderLineId, qty }) => {
      const entry = state.lines.find(({ line }) => line.id === orderLineId);
      if (!entry || seen.has(orderLineId))
        throw AppError.invalid({ lines: [`${orderLineId} is not a line of this order, or is named twice`] });
      seen.add(orderLineId);
      if (!Number.isSafeInteger(qty) || qty < 1)
        throw AppError.invalid({ lines: ['quantities must be whole numbers from 1'] });
      const left = entry.line.qty - entry.refunded;
      if (qty > left) throw refundErrors.refund_line_exceeds_quantity({ line: entry.line.name, asked: qty, left });
      return { orderLineId, qty, amount: lineValue(state.order, entry.line, qty) };
    });
}

/** A free amount typed in major units; more decimals than the currency has are refused, not rounded away. */
function minorAmount(major: number, currency: MoneyUnit): number {
  const scaled = major * 10 ** currency.decimals;
  const minor = roundHalfUp(scaled);
  if (!Number.isFinite(scaled) || minor < 0 || Math.abs(scaled - minor) > 1e-6 || minor > 2_000_000_000)
    throw AppError.invalid({ amount: [`must be 0 or more with at most ${currency.decimals} decimals`] });
  return minor;
}

function refundNote(refund: Refund, currency: MoneyUnit, byLines: boolean): string {
  const how =
    refund.method === 'gateway'
      ? `through the gateway (${refund.reference})`
      : refund.method === 'manual'
        ? `by bank transfer (${refund.reference})`
        : 'to gift cards';
  const cards =
    refund.giftCardAmount > 0 && refund.method !== 'gift-card'
      ? `, ${formatMoney(refund.giftCardAmount, currency)} of it to gift cards`
      : '';
  const stock = refund.restock ? ', lines restocked' : byLines ? ', lines not restocked' : '';
  return `Refunded ${formatMoney(refund.amount, currency)} ${how}${cards}${stock}: ${refund.reason}`;
}
