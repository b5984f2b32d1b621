import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ListSort } from '../common/cp-list.query';
import { AppConfig } from '../config/app-config';
import { InjectConfig } from '../config/config.module';
import { TransactionRunner, Tx } from '../database/transaction-runner';
import { Job, JobStatus } from './job.entity';

export type JobHandler<P> = (payload: P, job: Job) => Promise<void>;

/**
 * A kind of job and the payload it carries. Handlers register and producers enqueue with the same definition,
 * so the compiler holds both to one payload type.
 */
export interface JobType<P extends object> {
  readonly name: string;
  /** Carries the payload type only; never set. */
  readonly payload?: P;
}

const CP_PAGE_SIZE = 50;

/** What the CP job list sorts by; newest first unless asked. */
export const JOB_SORTS = ['id', 'name', 'status', 'attempts', 'runAt'] as const;
export type JobSort = ListSort<(typeof JOB_SORTS)[number]>;
export const NEWEST_JOBS_FIRST: JobSort = { key: 'id', direction: 'DESC' };

export function defineJob<P extends object = Record<string, never>>(name: string): JobType<P> {
  return { name };
}

/** Thrown by a handler when trying again cannot help: the job fails at once, for staff to look at. */
export class JobGaveUp extends Error {}

export interface JobRegistration<P> {
  /**
   * For a payload that holds secrets (a message's links and codes): what of it a job keeps once it succeeded,
   * the rest being dropped with the success. A pending or failed job keeps its whole payload, which its next
   * attempt or a retry needs. Without this, a done job keeps its payload as it was.
   */
  keepWhenDone?: (payload: P) => Record<string, unknown>;
}

export interface EnqueueOptions {
  /** Idempotency key: enqueueing the same key twice creates one job. */
  key?: string;
  delayMs?: number;
  maxAttempts?: number;
}

/**
 * Durable jobs through an outbox: `enqueue` writes the job row inside the caller's transaction, so the job
 * exists if and only if the change that caused it committed. Workers pick rows up after commit.
 */
@Injectable()
export class JobQueue {
  private readonly registrations = new Map<string, { handler: JobHandler<never> } & JobRegistration<never>>();
  private readonly wakeListeners: Array<() => void> = [];

  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /** Modules register their handlers at start-up; a handler must tolerate running twice for one job. */
  register<P extends object>(type: JobType<P>, handler: JobHandler<P>, options: JobRegistration<P> = {}): void {
    this.registrations.set(type.name, { handler, ...options } as {
      handler: JobHandler<never>;
    } & JobRegistration<never>);
  }

  /** The handler of a job row's name: the payload comes from the database, as the handler's type was stored. */
  handlerFor(name: string): JobHandler<unknown> | undefined {
    return this.registrations.get(name)?.handler as JobHandler<unknown> | undefined;
  }

  /** The payload a job that just succeeded keeps, when its registration reduces it; undefined keeps it whole. */
  payloadWhenDone(job: Job): Record<string, unknown> | undefined {
    return this.registrations.get(job.name)?.keepWhenDone?.(job.payload as never);
  }

  async enqueue<P extends object>(tx: Tx, type: JobType<P>, payload: P, options: EnqueueOptions = {}): Promise<void> {
    await tx.manager
      .createQueryBuilder()
      .insert()
      .into(Job)
      .values({
        name: type.name,
        // The query builder's deep-partial type cannot follow an open record; the column is simple-json.
        payload: payload as never,
        jobKey: options.key ?? null,
        status: 'pending',
        attempts: 0,
        maxAttempts: options.maxAttempts ?? this.config.jobMaxAttempts,
        runAt: Date.now() + (options.delayMs ?? 0),
      })
      .orIgnore()
      .updateEntity(false)
      .execute();
    tx.afterCommit(() => this.wakeWorkers());
  }

  /** A page of the CP job list, optionally of one status. */
  async page(filter: {
    status?: JobStatus;
    page: number;
    sort?: JobSort;
  }): Promise<{ jobs: Job[]; total: number; pages: number }> {
    const sort = filter.sort ?? NEWEST_JOBS_FIRST;
    const [jobs, total] = await this.dataSource.getRepository(Job).findAndCount({
      where: filter.status ? { status: filter.status } : {},
      // The id breaks ties, so a page boundary never repeats or skips a job.
      order: { [sort.key]: sort.direction, id: sort.direction },
      skip: (filter.page - 1) * CP_PAGE_SIZE,
      take: CP_PAGE_SIZE,
    });
    return { jobs, total, pages: Math.max(1, Math.ceil(total / CP_PAGE_SIZE)) };
  }

  countByStatus(status: JobStatus): Promise<number> {
    return this.dataSource.getRepository(Job).countBy({ status });
  }

  /** Gives a failed job a fresh set of attempts; false when the job is not (or no longer) failed. */
  async retryFailed(id: number): Promise<boolean> {
    return this.runner.run(async (tx) => {
      const result = await tx.manager.update(
        Job,
        { id, status: 'failed' },
        { status: 'pending', attempts: 0, runAt: Date.now(), finishedAt: null },
      );
      if (result.affected) tx.afterCommit(() => this.wakeWorkers());
      return Boolean(result.affected);
    });
  }

  wakeWorkers(): void {
    for (const wake of this.wakeListeners) wake();
  }

  /** The worker listens here to start on new jobs at once instead of at its next poll. */
  onEnqueued(wake: () => void): void {
    this.wakeListeners.push(wake);
  }
}
