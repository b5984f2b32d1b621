import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DataSource, In, Not } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { isUniqueViolation } from '../../database/errors';
import { writeLock } from '../../database/locking';
import { TransactionRunner, Tx } from '../../database/transaction-runner';
import { insertRows } from '../../database/upsert';
import { defineJob, JobQueue } from '../../jobs/job-queue.service';
import { OrderConfirmationMail } from '../orders/order-confirmation.mail';
import { OrderLine } from '../orders/order-line.entity';
import { orderLifecycle } from '../orders/order-status.machine';
import { OrderStatusService } from '../orders/order-status.service';
import { amountDue, Order } from '../orders/order.entity';
import { paymentAttemptLifecycle, PaymentTransactionStatus } from './payment-attempt-lifecycle';
import { PaymentGateway, PaymentOutcome, PaymentStart } from './payment-gateway';
import { PaymentMethodRegistry } from './payment-method.registry';
import { schedulePaymentPoll } from './payment-poll.job';
import { PaymentTransaction } from './payment-transaction.entity';

/**
 * Where the shopper goes next: to the gateway, or to our success or failed page; `unconfirmed` is the failed page
 * for a return that could not be verified while the attempt is still open (it may be paid again).
 */
export type PaymentStep =
  { kind: 'redirect'; url: string } | { kind: 'success' } | { kind: 'failed' } | { kind: 'unconfirmed' };

/** Who reports an outcome: the attempt's start (offline methods), the shopper's return, or a status poll. */
export type OutcomeOrigin = 'start' | 'return' | 'poll';

/** A pending attempt's gateway page is offered again for this long before a retry starts a new one. */
const REUSE_REDIRECT_MS = 15 * 60 * 1000;

/** Withdraws an open attempt at its gateway, later and durably (outbox), e.g. once another attempt paid. */
export const PAYMENT_WITHDRAW_JOB = defineJob<WithdrawPayload>('payment.withdraw');

interface WithdrawPayload {
  transactionId: number;
  note: string;
}

/** Orders in these states still take a payment; money arriving for an order in any other is refund due. */
const AWAITING_PAYMENT = new Set(['pending_payment', 'payment_review']);

/**
 * Payment attempts of orders and the one settlement path (docs/architecture.md): the outcome of a
 * start, a gateway return or a status poll is applied under the transaction's row lock, once; whoever
 * comes second changes nothing.
 */
@Injectable()
export class PaymentService implements OnModuleInit {
  private readonly logger = new Logger(PaymentService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly registry: PaymentMethodRegistry,
    private readonly statuses: OrderStatusService,
    private readonly confirmation: OrderConfirmationMail,
    private readonly jobs: JobQueue,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.jobs.register(PAYMENT_WITHDRAW_JOB, async ({ transactionId, note }) => {
      const transaction = await this.dataSource.getRepository(PaymentTransaction).findOneBy({ id: transactionId });
      if (transaction?.status === 'pending') await this.withdraw(transaction, note);
    });
  }

  /** Begins the first attempt of a just-placed order. */
  async start(order: Order, customerIp: string): Promise<PaymentStep> {
    return this.begin(order, (await this.latestAttempt(order.id))!, customerIp);
  }

  /** Pays an order again (the guest pay link); null when it is not awaiting an online payment. */
  async retry(order: Order, customerIp: string): Promise<PaymentStep | null> {
    if (order.status !== 'pending_payment' || this.registry.describe(order.paymentMethod)?.type !== 'online')
      return null;
    const latest = await this.latestAttempt(order.id);
    const redirectUrl = latest?.status === 'pending' ? latest.extra.redirectUrl : undefined;
    if (typeof redirectUrl === 'string') {
      if (Date.now() - latest!.dateCreated.getTime() < REUSE_REDIRECT_MS) return { kind: 'redirect', url: redirectUrl };
      // Two open payments could both be paid: the old one is withdrawn first. One the gateway will not withdraw
      // (the shopper may be paying it right now) is offered again instead of a second.
      const withdrawn = await this.withdraw(latest!, 'Withdrawn at the gateway: the shopper started a new attempt');
      if (!withdrawn) return { kind: 'redirect', url: redirectUrl };
    }
    const attempts = await this.dataSource.getRepository(PaymentTransaction).countBy({ orderId: order.id });
    const transaction = await this.runner.run(({ manager }) =>
      manager.save(
        manager.create(PaymentTransaction, {
          orderId: order.id,
          gateway: this.registry.gatewayFor(order.paymentMethod)?.handle ?? 'core',
          code: order.paymentMethod,
          reference: `${order.number}-${attempts + 1}`,
          amount: amountDue(order),
          currency: order.currency,
          status: 'pending',
          extra: {},
        }),
      ),
    );
    return this.begin(order, transaction, customerIp);
  }

  /** The shopper back from the gateway: the gateway validates the return, we settle it (once). */
  async handleReturn(order: Order, params: Record<string, string>): Promise<PaymentStep> {
    const transaction = await this.returnedAttempt(order.id, params);
    const gateway = transaction && this.registry.gatewayFor(transaction.code);
    let unconfirmed = false;
    if (transaction?.status === 'success' && gateway?.postValidate) {
      await this.recordSecondPayment(order, transaction, await gateway.postValidate({ order, transaction, params }));
    } else if (transaction && gateway?.postValidate && !paymentAttemptLifecycle.isFinal(transaction.status)) {
      let outcome: PaymentOutcome;
      try {
        outcome = await gateway.postValidate({ order, transaction, params });
      } catch (error) {
        this.logger.error(`payment return of order ${order.reference} failed: ${(error as Error).message}`);
        outcome = {
          status: 'pending_payment',
          paid: 0,
          note: 'The payment return could not be checked',
          unconfirmed: true,
        };
      }
      unconfirmed = outcome.unconfirmed === true;
      await this.settle(transaction.id, outcome, 'return');
    }
    const step = await this.nextStep(order.id);
    // Still open at the gateway: an unverified return says so; otherwise the payment is on its way (a transfer,
    // a QR payment the bank is processing), which the success page explains.
    if (step.kind === 'redirect') return unconfirmed ? { kind: 'unconfirmed' } : { kind: 'success' };
    return step;
  }

  /**
   * Applies an outcome to an attempt and its order, at most once per attempt: the attempt's row lock
   * orders concurrent returns, and a settled attempt is never changed again.
   */
  async settle(transactionId: number, outcome: PaymentOutcome, origin: OutcomeOrigin): Promise<boolean> {
    return this.runner.run(async (tx) => {
      const { manager } = tx;
      const transaction = await manager.findOne(PaymentTransaction, {
        where: { id: transactionId },
        ...writeLock(manager),
      });
      if (!transaction || paymentAttemptLifecycle.isFinal(transaction.status)) return false;
      const status = transactionStatus(outcome);
      if (status === transaction.status && origin !== 'start') return false;
      paymentAttemptLifecycle.assertCan(transaction.status, status);
      const order = await manager.findOne(Order, { where: { id: transaction.orderId }, ...writeLock(manager) });
      // Money for an order that no longer takes it: paid after the deadline canceled it, or paid by another
      // attempt already. Never dropped: the attempt keeps the payment and is marked for staff to give back.
      const refundDue = status === 'success' && !AWAITING_PAYMENT.has(order!.status);
      await manager.update(
        PaymentTransaction,
        { id: transaction.id },
        {
          status,
          paidAmount: outcome.paid > 0 ? outcome.paid : transaction.paidAmount,
          reference: outcome.reference ?? transaction.reference,
          refundDue,
        },
      );
      const actor = `gateway:${transaction.gateway}`;
      if (refundDue) {
        this.logger.warn(`order ${order!.reference} is ${order!.status} and was paid again: refund due`);
        await this.statuses.comment(order!.id, `${outcome.note}. The order is ${order!.status}: refund due`, actor);
        return true;
      }
      const target = outcome.failed ? order!.status : outcome.status;
      if (target !== order!.status && orderLifecycle.can(order!.status, target)) {
        await this.statuses.change(order!.id, target, actor, outcome.note);
        if (target === 'paid' || target === 'payment_review')
          await this.withdrawOpen(
            tx,
            order!.id,
            'Withdrawn at the gateway: another attempt paid the order',
            transaction.id,
          );
      } else {
        if (target !== order!.status)
          this.logger.warn(`order ${order!.reference} is ${order!.status}; payment says ${target}`);
        await this.statuses.comment(order!.id, outcome.note, actor);
      }
      if (confirms(outcome, origin)) await this.confirmation.queue(tx, order!);
      return true;
    });
  }

  /** Where a shopper goes for an order as it stands: back to a pending gateway page, success or failed. */
  async nextStep(orderId: number): Promise<PaymentStep> {
    const [order, latest] = await Promise.all([
      this.dataSource.getRepository(Order).findOneByOrFail({ id: orderId }),
      this.latestAttempt(orderId),
    ]);
    if (order.status === 'canceled' || (order.status === 'pending_payment' && latest?.status === 'failed')) {
      return { kind: 'failed' };
    }
    const redirectUrl = order.status === 'pending_payment' && latest?.status === 'pending' && latest.extra.redirectUrl;
    return typeof redirectUrl === 'string' ? { kind: 'redirect', url: redirectUrl } : { kind: 'success' };
  }

  /**
   * Withdraws an open attempt at its gateway; true when it can no longer be paid, and then it fails. A gateway
   * without withdrawal holds nothing to pay until the shopper pays (a signed card link): nothing to withdraw,
   * and a payment through the old link anyway is recorded as refund due.
   */
  async withdraw(transaction: PaymentTransaction, note: string): Promise<boolean> {
    const gateway = this.registry.gatewayFor(transaction.code);
    let withdrawn = true;
    if (gateway?.cancelAttempt) {
      try {
        withdrawn = await gateway.cancelAttempt(transaction);
      } catch (error) {
        this.logger.warn(`payment ${transaction.reference} could not be withdrawn: ${(error as Error).message}`);
        withdrawn = false;
      }
    }
    if (withdrawn)
      await this.settle(transaction.id, { status: 'pending_payment', paid: 0, failed: true, note }, 'poll');
    return withdrawn;
  }

  /** Queues the withdrawal of the order's open attempts but `exceptId`, in the caller's transaction. */
  async withdrawOpen(tx: Tx, orderId: number, note: string, exceptId?: number): Promise<void> {
    const open = await tx.manager.findBy(PaymentTransaction, {
      orderId,
      // The attempts a withdrawal can fail: those not settled yet.
      status: In(paymentAttemptLifecycle.guard('failed')),
      ...(exceptId === undefined ? {} : { id: Not(exceptId) }),
    });
    for (const { id } of open) {
      await this.jobs.enqueue(tx, PAYMENT_WITHDRAW_JOB, { transactionId: id, note } satisfies WithdrawPayload, {
        key: `payment-withdraw:${id}`,
      });
    }
  }

  latestAttempt(orderId: number): Promise<PaymentTransaction | null> {
    return this.dataSource.getRepository(PaymentTransaction).findOne({ where: { orderId }, order: { id: 'DESC' } });
  }

  /** The process-payment address a gateway sends the shopper back to. */
  returnUrl(order: Order): string {
    return `${this.config.baseUrl}/shop/checkout/process-payment?order=${order.number}`;
  }

  /** The attempt a return is about: the one whose gateway reference it names, else the latest. */
  private async returnedAttempt(orderId: number, params: Record<string, string>): Promise<PaymentTransaction | null> {
    const latest = await this.latestAttempt(orderId);
    const reference = latest && this.registry.gatewayFor(latest.code)?.attemptReference?.(params);
    if (!reference || reference === latest.reference) return latest;
    const named = await this.dataSource
      .getRepository(PaymentTransaction)
      .findOneBy({ orderId, gateway: latest.gateway, reference });
    return named ?? latest;
  }

  /**
   * A verified payment returned for an attempt that is paid already, under another gateway reference: the
   * shopper paid twice (an old card link after a retry). Recorded once, by its reference, as refund due.
   */
  private async recordSecondPayment(order: Order, paid: PaymentTransaction, outcome: PaymentOutcome) {
    if (outcome.status !== 'paid' || outcome.failed || !outcome.reference || outcome.reference === paid.reference)
      return;
    const note = `${outcome.note}. The order was paid already: refund due`;
    await this.runner.run(async ({ manager }) => {
      const row = { gateway: paid.gateway, reference: outcome.reference! };
      if (await manager.existsBy(PaymentTransaction, row)) return;
      try {
        await insertRows(manager, PaymentTransaction, {
          ...row,
          orderId: order.id,
          code: paid.code,
          amount: outcome.paid,
          paidAmount: outcome.paid,
          currency: paid.currency,
          status: 'success',
          extra: {},
          refundDue: true,
        });
      } catch (error) {
        if (isUniqueViolation(error)) return; // the same return, arriving twice at once
        throw error;
      }
      this.logger.warn(`order ${order.reference} was paid twice: refund due`);
      await this.statuses.comment(order.id, note, `gateway:${paid.gateway}`);
    });
  }

  private async begin(order: Order, transaction: PaymentTransaction, customerIp: string): Promise<PaymentStep> {
    let start: PaymentStart;
    const gateway: PaymentGateway | undefined = this.registry.gatewayFor(transaction.code);
    try {
      if (!gateway) throw new Error(`no gateway handles ${transaction.code}`);
      const lines = await this.dataSource
        .getRepository(OrderLine)
        .find({ where: { orderId: order.id }, order: { id: 'ASC' } });
      start = await gateway.startPayment(transaction.code, {
        order,
        lines,
        transaction,
        returnUrl: this.returnUrl(order),
        customerIp,
      });
    } catch (error) {
      this.logger.error(`payment of order ${order.reference} could not start: ${(error as Error).message}`);
      start = {
        kind: 'settled',
        outcome: { status: 'pending_payment', paid: 0, failed: true, note: 'The payment could not be started' },
      };
    }
    if (start.kind === 'redirect') {
      const { url, reference, extra } = start;
      await this.runner.run(async (tx) => {
        await tx.manager.update(
          PaymentTransaction,
          { id: transaction.id },
          { reference, extra: { ...transaction.extra, ...extra, redirectUrl: url } },
        );
        // A shopper who never comes back must not leave the order waiting forever: the bank is asked.
        if (gateway?.queryStatus) await schedulePaymentPoll(this.jobs, tx, transaction.id, 1, 0);
      });
      return { kind: 'redirect', url };
    }
    await this.settle(transaction.id, start.outcome, 'start');
    return this.nextStep(order.id);
  }
}

function transactionStatus(outcome: PaymentOutcome): PaymentTransactionStatus {
  if (outcome.failed) return 'failed';
  if (outcome.status === 'paid') return 'success';
  if (outcome.status === 'payment_review') return 'review';
  if (outcome.status === 'canceled') return 'canceled';
  return 'pending';
}

/** The order counts as placed for the shopper: offline methods at once, online ones once paid or in review. */
function confirms(outcome: PaymentOutcome, origin: OutcomeOrigin): boolean {
  if (outcome.failed || outcome.status === 'canceled') return false;
  return origin === 'start' || ['paid', 'payment_review', 'processing'].includes(outcome.status);
}
