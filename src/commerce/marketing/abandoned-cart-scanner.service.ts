import { Injectable } from '@nestjs/common';
import { DataSource, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { SettingsService } from '../../config/settings.service';
import { TransactionRunner } from '../../database/transaction-runner';
import { PeriodicJob, PeriodicJobs } from '../../jobs/periodic-job';
import { normaliseEmail } from '../../common/email-address';
import { AbandonedCartPolicy, abandonedCartPolicy, reminderDueAt } from './abandoned-cart-policy';
import { AbandonedCartRecovery } from './abandoned-cart-recovery.entity';
import { AbandonedCartReminder } from './abandoned-cart-reminder.entity';
import { AbandonedCartReminders } from './abandoned-cart-reminders.service';
import { abandonedCarts } from './abandoned-carts.query';
import { MarketingConsents } from './marketing-consents.service';

const MINUTE = 60_000;
const SCAN_EVERY_MS = 5 * MINUTE;
/** A reminder this late is skipped: switching the feature on must not mail the owners of last year's carts. */
const TOO_LATE_MS = 24 * 60 * MINUTE;
/** Carts read per query. */
const PAGE = 500;

interface Candidate {
  id: number;
  email: string;
  lastActivityAt: number;
  /** Highest reminder index sent so far, or null for none. */
  lastReminder: number | null;
}

/**
 * Finds abandoned carts (an e-mail and lines, idle past `salesAbandonedCartsIdleMinutes`, not ordered,
 * not recovered) and queues the reminder that is due for each whose address may get marketing e-mail
 * (MarketingConsents: consent, or a customer's soft opt-in).
 *
 * One scan per 5-minute slot however many instances run (a PeriodicJob), while the feature is on.
 */
@Injectable()
export class AbandonedCartScanner {
  private readonly periodic: PeriodicJob;

  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    periodicJobs: PeriodicJobs,
    private readonly settings: SettingsService,
    private readonly reminders: AbandonedCartReminders,
    private readonly consents: MarketingConsents,
  ) {
    this.periodic = periodicJobs.define({
      name: 'abandoned-carts.scan',
      everyMs: SCAN_EVERY_MS,
      due: () => this.settings.isOn('salesAbandonedCartsEnabled'),
      run: () => this.scan(),
    });
  }

  /** Enqueues the scan of the current slot, once per slot whoever asks (while the feature is on). */
  tick(): Promise<void> {
    return this.periodic.tick();
  }

  /** Queues every reminder due now, a page of carts per transaction; returns how many carts got one. */
  async scan(): Promise<number> {
    if (!this.settings.isOn('salesAbandonedCartsEnabled')) return 0;
    const now = Date.now();
    const policy = abandonedCartPolicy(this.settings);
    if (policy.reminderDelaysMs.length === 0) return 0;
    let queued = 0;
    for (let afterId = 0; ;) {
      const page = await this.candidates(policy, now, afterId);
      const permitted = await this.consents.permitted(
        this.dataSource.manager,
        page.map((cart) => cart.email),
      );
      const due = page.flatMap((cart) => {
        const reminderIndex = permitted.has(cart.email) ? this.dueReminder(policy, cart, now) : null;
        return reminderIndex === null ? [] : [{ cart, reminderIndex }];
      });
      if (due.length > 0) {
        await this.runner.run(async (tx) => {
          for (const { cart, reminderIndex } of due) await this.reminders.queue(tx, cart, reminderIndex);
        });
      }
      queued += due.length;
      if (page.length < PAGE) return queued;
      afterId = page[page.length - 1].id;
    }
  }

  /**
   * Open carts with an e-mail and lines, idle at least until their first reminder is due but not so long
   * that even the last one is too late, never recovered, with reminders still to send; by id after `afterId`.
   */
  private async candidates(policy: AbandonedCartPolicy, now: number, afterId: number): Promise<Candidate[]> {
    const delays = policy.reminderDelaysMs;
    const lastReminder = (sub: SelectQueryBuilder<ObjectLiteral>) =>
      sub
        .select('MAX(reminder.reminderIndex)')
        .from(AbandonedCartReminder, 'reminder')
        .where('reminder.cartId = cart.id');
    const rows = await abandonedCarts(this.dataSource, now - Math.max(policy.idleMs, delays[0]))
      .select('cart.id', 'id')
      .addSelect('cart.email', 'email')
      .addSelect('cart.lastActivityAt', 'lastActivityAt')
      .addSelect(lastReminder, 'lastReminder')
      .andWhere('cart.lastActivityAt > :oldest', {
        oldest: now - Math.max(policy.idleMs, delays[delays.length - 1]) - TOO_LATE_MS,
      })
      .andWhere('cart.id > :afterId', { afterId })
      .andWhere((qb) => `COALESCE(${lastReminder(qb.subQuery()).getQuery()}, -1) < :lastIndex`, {
        lastIndex: delays.length - 1,
      })
      .andWhere(
        (qb) =>
          `NOT EXISTS ${qb
            .subQuery()
            .select('1')
            .from(AbandonedCartRecovery, 'recovery')
            .where('recovery.abandonedCartId = cart.id')
            .getQuery()}`,
      )
      .orderBy('cart.id', 'ASC')
      .limit(PAGE)
      .getRawMany<{
        id: number | string;
        email: string;
        lastActivityAt: number | string;
        lastReminder: number | string | null;
      }>();
    return rows.map((row) => ({
      id: Number(row.id),
      email: normaliseEmail(row.email),
      lastActivityAt: Number(row.lastActivityAt),
      lastReminder: row.lastReminder === null ? null : Number(row.lastReminder),
    }));
  }

  /**
   * The latest reminder that is due and not too late, after the last one sent; earlier ones a scan missed
   * (an outage) are skipped rather than sent all at once.
   */
  private dueReminder(policy: AbandonedCartPolicy, cart: Candidate, now: number): number | null {
    for (let index = policy.reminderDelaysMs.length - 1; index > (cart.lastReminder ?? -1); index--) {
      const dueAt = reminderDueAt(policy, cart.lastActivityAt, index);
      if (dueAt <= now) return now - dueAt < TOO_LATE_MS ? index : null;
    }
    return null;
  }
}
