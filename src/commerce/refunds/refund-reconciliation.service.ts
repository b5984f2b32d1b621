import { Injectable, Logger } from '@nestjs/common';
import { DataSource, LessThanOrEqual } from 'typeorm';
import { PeriodicJob, PeriodicJobs } from '../../jobs/periodic-job';
import { Refund } from './refund.entity';
import { RefundService } from './refund.service';

const RUN_EVERY_MS = 5 * 60 * 1000;
/** Refunds asked about per run: a backlog (a long outage of the bank) is worked off over several runs. */
export const RECONCILE_BATCH = 20;

/**
 * Settles gateway refunds left pending without a clear answer (docs/shop.md, _Refunds_): one run per 5-minute slot
 * however many instances run, at most `RECONCILE_BATCH` refunds each, the longest-waiting first. Each refund's next
 * ask is put off further the longer the gateway cannot tell (`nextRefundCheck`), so an outage costs fewer and fewer
 * calls; what the gateway says is recorded by `RefundService.reconcile`, once.
 */
@Injectable()
export class RefundReconciliation {
  private readonly logger = new Logger('refunds:reconciliation');
  private readonly periodic: PeriodicJob;

  constructor(
    private readonly dataSource: DataSource,
    private readonly refunds: RefundService,
    periodicJobs: PeriodicJobs,
  ) {
    this.periodic = periodicJobs.define({
      name: 'refunds.reconcile',
      everyMs: RUN_EVERY_MS,
      due: () => this.dataSource.getRepository(Refund).exists({ where: dueNow(Date.now()) }),
      run: () => this.reconcileDue(),
    });
  }

  /** Enqueues the current slot's run, once per slot whoever asks, while a refund is due. */
  tick(): Promise<void> {
    return this.periodic.tick();
  }

  /** Asks about the refunds due now; how many got settled. */
  async reconcileDue(now = Date.now()): Promise<number> {
    const due = await this.dataSource.getRepository(Refund).find({
      where: dueNow(now),
      order: { checkAt: 'ASC', id: 'ASC' },
      take: RECONCILE_BATCH,
    });
    let settled = 0;
    for (const refund of due) {
      try {
        if (await this.refunds.reconcile(refund.id, now)) settled++;
      } catch (error) {
        // Our side failed (the database); the refund keeps its check time and is the first one next run.
        this.logger.error(`refund ${refund.id}: not reconciled: ${(error as Error).message}`);
      }
    }
    return settled;
  }
}

/** Pending refunds whose next ask has come (settled ones have none). */
function dueNow(now: number) {
  return { status: 'pending' as const, checkAt: LessThanOrEqual(now) };
}
