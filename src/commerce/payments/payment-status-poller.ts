import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TransactionRunner } from '../../database/transaction-runner';
import { JobQueue } from '../../jobs/job-queue.service';
import { Order } from '../orders/order.entity';
import { paymentAttemptLifecycle } from './payment-attempt-lifecycle';
import { PaymentOutcome } from './payment-gateway';
import { PaymentMethodRegistry } from './payment-method.registry';
import { GIVE_UP_AFTER_MS, PAYMENT_POLL_JOB, PaymentPollPayload, schedulePaymentPoll } from './payment-poll.job';
import { PaymentTransaction } from './payment-transaction.entity';
import { PaymentService } from './payment.service';

/** What a check found: the gateway's answer (null when it could not say) and whether anything changed. */
export interface StatusCheck {
  outcome: PaymentOutcome | null;
  changed: boolean;
}

/**
 * Asks gateways about attempts that settle at the bank after the shopper left (transfers, QR, loans, or a
 * shopper who never came back): on a schedule through the job queue, and on demand from the CP. Answers go
 * through PaymentService.settle like a return, so the first to arrive wins and the rest change nothing.
 */
@Injectable()
export class PaymentStatusPoller implements OnModuleInit {
  private readonly logger = new Logger(PaymentStatusPoller.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly jobs: JobQueue,
    private readonly registry: PaymentMethodRegistry,
    private readonly payments: PaymentService,
  ) {}

  onModuleInit(): void {
    this.jobs.register(PAYMENT_POLL_JOB, (payload) => this.poll(payload));
  }

  /** Whether staff may ask the gateway about this order now (the CP Check Payment Status button). */
  canCheck(order: Order): boolean {
    return this.registry.gatewayFor(order.paymentMethod)?.canCheckStatus?.(order) ?? false;
  }

  /** Asks the gateway about the order's latest attempt now; null when there is nothing to ask about. */
  async checkNow(orderId: number): Promise<StatusCheck | null> {
    const transaction = await this.payments.latestAttempt(orderId);
    if (!transaction || !this.attemptIsOpen(transaction)) return null;
    if (!this.registry.gatewayFor(transaction.code)?.queryStatus) return null;
    return this.ask(transaction);
  }

  private async poll({ transactionId, round }: PaymentPollPayload): Promise<void> {
    const transaction = await this.dataSource.getRepository(PaymentTransaction).findOneBy({ id: transactionId });
    if (!transaction || !this.attemptIsOpen(transaction)) return;
    const ageMs = Date.now() - transaction.dateCreated.getTime();
    if (ageMs >= GIVE_UP_AFTER_MS) {
      await this.expire(transaction);
      return;
    }
    await this.ask(transaction);
    const after = await this.dataSource.getRepository(PaymentTransaction).findOneByOrFail({ id: transactionId });
    if (this.attemptIsOpen(after)) {
      await this.runner.run((tx) => schedulePaymentPoll(this.jobs, tx, transactionId, round + 1, ageMs));
    }
  }

  private async ask(transaction: PaymentTransaction): Promise<StatusCheck> {
    const gateway = this.registry.gatewayFor(transaction.code);
    const order = await this.dataSource.getRepository(Order).findOneByOrFail({ id: transaction.orderId });
    let outcome: PaymentOutcome | null = null;
    try {
      outcome = (await gateway?.queryStatus?.({ order, transaction })) ?? null;
    } catch (error) {
      this.logger.warn(`status of payment ${transaction.reference} unknown: ${(error as Error).message}`);
    }
    // "Still waiting" says nothing new, and must not move an order in review back to pending_payment.
    if (!outcome || (outcome.status === 'pending_payment' && !outcome.failed)) return { outcome, changed: false };
    return { outcome, changed: await this.payments.settle(transaction.id, outcome, 'poll') };
  }

  /**
   * A day without a settled answer: the bank will not pay this attempt any more. The order is canceled
   * when this was its last chance; an attempt a newer one replaced just ends.
   */
  private async expire(transaction: PaymentTransaction): Promise<void> {
    const latest = await this.payments.latestAttempt(transaction.orderId);
    const note = 'The payment was not completed within 24 hours';
    const outcome: PaymentOutcome =
      latest?.id === transaction.id
        ? { status: 'canceled', paid: 0, note }
        : { status: 'pending_payment', paid: 0, failed: true, note: `${note}; a newer attempt replaced it` };
    await this.payments.settle(transaction.id, outcome, 'poll');
    try {
      await this.registry.gatewayFor(transaction.code)?.cancelAttempt?.(transaction);
    } catch (error) {
      this.logger.warn(`payment ${transaction.reference} could not be withdrawn: ${(error as Error).message}`);
    }
  }

  private attemptIsOpen(transaction: PaymentTransaction): boolean {
    return !paymentAttemptLifecycle.isFinal(transaction.status);
  }
}
