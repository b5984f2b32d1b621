import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { InjectConfig } from '../config/config.module';
import { TransactionRunner } from '../database/transaction-runner';
import { JobGaveUp, JobQueue } from './job-queue.service';
import { Job } from './job.entity';

/** A running job's lease; past it, a job whose worker died is picked up again. */
const LEASE_MS = 5 * 60 * 1000;

/** Claims due jobs and runs them: the same logic whichever transport woke the worker. */
@Injectable()
export class JobExecutor {
  private readonly logger = new Logger(JobExecutor.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly queue: JobQueue,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /** Ids of jobs that are due, oldest first, including ones whose worker vanished mid-run. */
  async dueJobs(limit = 20): Promise<Array<Pick<Job, 'id' | 'runAt' | 'lockedUntil'>>> {
    const now = Date.now();
    return this.dataSource
      .getRepository(Job)
      .createQueryBuilder('job')
      .select(['job.id', 'job.runAt', 'job.lockedUntil'])
      .where('(job.status = :pending AND job.runAt <= :now) OR (job.status = :running AND job.lockedUntil < :now)', {
        pending: 'pending',
        running: 'running',
        now,
      })
      .orderBy('job.runAt', 'ASC')
      .limit(limit)
      .getMany();
  }

  /** Runs one job if this worker wins the claim; returns false when another worker had it. */
  async execute(id: number): Promise<boolean> {
    const job = await this.claim(id);
    if (!job) return false;
    const handler = this.queue.handlerFor(job.name);
    try {
      if (!handler) throw new Error(`No handler registered for job ${job.name}`);
      await handler(job.payload, job);
      const kept = this.queue.payloadWhenDone(job);
      await this.runner.run(({ manager }) =>
        manager.update(
          Job,
          { id },
          {
            status: 'done',
            lockedUntil: null,
            lastError: null,
            finishedAt: Date.now(),
            // The update's deep-partial type cannot follow an open record; the column is simple-json.
            ...(kept && { payload: kept as never }),
          },
        ),
      );
    } catch (error) {
      await this.recordFailure(job, error as Error);
    }
    return true;
  }

  private async claim(id: number): Promise<Job | null> {
    const now = Date.now();
    return this.runner.run(async ({ manager }) => {
      const claimed = await manager
        .createQueryBuilder()
        .update(Job)
        .set({ status: 'running', lockedUntil: now + LEASE_MS, attempts: () => 'attempts + 1' })
        .where('id = :id', { id })
        .andWhere('((status = :pending AND runAt <= :now) OR (status = :running AND lockedUntil < :now))', {
          pending: 'pending',
          running: 'running',
          now,
        })
        .execute();
      return claimed.affected === 1 ? manager.findOneBy(Job, { id }) : null;
    });
  }

  /** Retries with exponential backoff (base, 2×, 4×, …) until the job's attempts are used up or it gives up. */
  private async recordFailure(job: Job, error: Error): Promise<void> {
    const lastError = (error.message || String(error)).slice(0, 2000);
    const exhausted = job.attempts >= job.maxAttempts || error instanceof JobGaveUp;
    this.logger.warn(`job ${job.id} (${job.name}) failed on attempt ${job.attempts}/${job.maxAttempts}: ${lastError}`);
    const changes: Pick<Partial<Job>, 'status' | 'lockedUntil' | 'lastError' | 'finishedAt' | 'runAt'> = exhausted
      ? { status: 'failed', lockedUntil: null, lastError, finishedAt: Date.now() }
      : {
          status: 'pending',
          lockedUntil: null,
          lastError,
          runAt: Date.now() + this.config.jobBackoffMs * 2 ** (job.attempts - 1),
        };
    await this.runner.run(({ manager }) => manager.update(Job, { id: job.id }, changes));
  }
}
