import { Injectable } from '@nestjs/common';
import { DataSource, In, MoreThan } from 'typeorm';
import { formatMoney } from '../../common/money-format';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { SettingsService } from '../../config/settings.service';
import { writeLock } from '../../database/locking';
import { TransactionRunner, Tx } from '../../database/transaction-runner';
import { PeriodicJob, PeriodicJobs } from '../../jobs/periodic-job';
import { MailService } from '../../mail/mail.service';
import { shopDateTime } from '../delivery/shop-calendar';
import { OrderStatusService } from '../orders/order-status.service';
import { amountDue, Order } from '../orders/order.entity';
import { CurrencyService } from '../stores/currency.service';
import { StoreService } from '../stores/store.service';
import { BANK_TRANSFER_MANUAL } from './core-payment.gateway';
import { PaymentMethodRegistry } from './payment-method.registry';
import { PaymentTransaction } from './payment-transaction.entity';
import { PaymentService } from './payment.service';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const SWEEP_EVERY_MS = MINUTE;
/** Orders read per query. */
const PAGE = 200;
const ACTOR = 'system:payment-deadline';

/**
 * Unpaid orders do not hold stock forever. An order waiting for payment is canceled once its method's deadline
 * passes (`salesOnlinePaymentDeadlineMinutes` after the last online attempt started or failed,
 * `salesBankTransferDeadlineDays` after a bank-transfer order was placed; cash on delivery never waits), through
 * the status machine, so its stock, coupon use, gift-card amounts and delivery slot come back once. The shopper
 * gets a mail; open attempts are withdrawn at the gateway, and one paid anyway is recorded as refund due.
 *
 * One sweep a minute however many instances run (a PeriodicJob), while an order waits for payment; a sweep that
 * runs twice anyway, or beside another, cancels each order once: the cancel is a guarded move under the order's lock.
 */
@Injectable()
export class PaymentDeadlines {
  private readonly periodic: PeriodicJob;

  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    periodicJobs: PeriodicJobs,
    private readonly settings: SettingsService,
    private readonly registry: PaymentMethodRegistry,
    private readonly statuses: OrderStatusService,
    private readonly payments: PaymentService,
    private readonly mail: MailService,
    private readonly stores: StoreService,
    private readonly currencies: CurrencyService,
    @InjectConfig() private readonly config: AppConfig,
  ) {
    this.periodic = periodicJobs.define({
      name: 'payments.deadline-sweep',
      everyMs: SWEEP_EVERY_MS,
      due: () => this.dataSource.getRepository(Order).existsBy({ status: 'pending_payment' }),
      run: () => this.sweep(),
    });
  }

  /** When an order waiting for payment is canceled (epoch ms), or null when it may wait forever. */
  deadline(order: Pick<Order, 'paymentMethod' | 'dateCreated'>, latest: PaymentTransaction | null): number | null {
    if (order.paymentMethod === BANK_TRANSFER_MANUAL) {
      const days = this.settings.get('salesBankTransferDeadlineDays');
      return days > 0 ? order.dateCreated.getTime() + days * DAY : null;
    }
    if (this.registry.describe(order.paymentMethod)?.type !== 'online') return null;
    const minutes = this.settings.get('salesOnlinePaymentDeadlineMinutes');
    if (minutes <= 0) return null;
    return (latest?.dateUpdated ?? order.dateCreated).getTime() + minutes * MINUTE;
  }

  /** Cancels every order waiting for payment whose deadline passed by `now`; returns how many this call canceled. */
  async sweep(now = Date.now()): Promise<number> {
    let canceled = 0;
    for (let afterId = 0; ;) {
      const page = await this.dataSource.getRepository(Order).find({
        where: { status: 'pending_payment', id: MoreThan(afterId) },
        order: { id: 'ASC' },
        take: PAGE,
      });
      const latest = await this.latestAttempts(page.map((order) => order.id));
      for (const order of page) {
        const due = this.deadline(order, latest.get(order.id) ?? null);
        if (due !== null && due <= now && (await this.expire(order.id, now))) canceled++;
      }
      if (page.length < PAGE) return canceled;
      afterId = page[page.length - 1].id;
    }
  }

  /** Cancels one order if, under its row lock, it still waits for payment past its deadline. */
  private async expire(orderId: number, now: number): Promise<boolean> {
    const order = await this.dataSource.getRepository(Order).findOneByOrFail({ id: orderId });
    const [store, currency] = await Promise.all([
      this.stores.byId(order.storeId),
      this.currencies.recorded(order.currency),
    ]);
    return this.runner.run(async (tx) => {
      const locked = await tx.manager.findOne(Order, { where: { id: orderId }, ...writeLock(tx.manager) });
      if (locked?.status !== 'pending_payment') return false;
      // Read again under the lock: a retry started since the page was read moves the deadline.
      const latest = await tx.manager.findOne(PaymentTransaction, { where: { orderId }, order: { id: 'DESC' } });
      const due = this.deadline(locked, latest);
      if (due === null || due > now) return false;
      const note = 'Payment not received by the deadline';
      if (!(await this.statuses.changeFrom(orderId, 'pending_payment', 'canceled', ACTOR, note))) return false;
      await this.payments.withdrawOpen(tx, orderId, 'Withdrawn at the gateway: the payment deadline passed');
      await this.sendNotice(tx, locked, store.name, formatMoney(amountDue(locked), currency, store.language), due);
      return true;
    });
  }

  private sendNotice(tx: Tx, order: Order, storeName: string, amount: string, due: number): Promise<void> {
    const timeZone = this.settings.get('salesTimezone');
    const text = [
      `We did not receive the payment of ${amount} for your order ${order.reference} at ${storeName} by`,
      `${shopDateTime(timeZone, due).replace('T', ' ')}, so the order is canceled and its goods are back on sale.`,
      '',
      'If you paid in the meantime, we will send the money back. Reply to this e-mail with any question.',
      '',
      `Your order: ${this.config.baseUrl}/shop/order/view/${order.number}`,
    ].join('\n');
    return this.mail.send(
      tx,
      { to: order.email, subject: `Your order ${order.reference} at ${storeName} is canceled`, text },
      `payment-deadline:${order.id}`,
    );
  }

  /** The newest attempt of each order, in one query. */
  private async latestAttempts(orderIds: number[]): Promise<Map<number, PaymentTransaction>> {
    if (orderIds.length === 0) return new Map();
    const attempts = await this.dataSource
      .getRepository(PaymentTransaction)
      .find({ where: { orderId: In(orderIds) }, order: { id: 'ASC' } });
    return new Map(attempts.map((attempt) => [attempt.orderId, attempt]));
  }
}
