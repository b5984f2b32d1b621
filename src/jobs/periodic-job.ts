import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { LessThan } from 'typeorm';
import { TransactionRunner } from '../database/transaction-runner';
import { defineJob, JobQueue } from './job-queue.service';
import { Job } from './job.entity';

/** Finished runs are kept this long (for the CP jobs page), then deleted by a later run. */
const KEEP_FINISHED_MS = 24 * 60 * 60 * 1000;

export interface PeriodicJobOptions {
  /** Job name, e.g. `payments.deadline-sweep`. */
  name: string;
  everyMs: number;
  /** Whether this slot needs a run at all (a switched-off feature, nothing waiting); checked at each tick. */
  due: () => boolean | Promise<boolean>;
  run: () => Promise<unknown>;
}

/**
 * Work that runs once per slot of `everyMs`, however many instances run. Every instance ticks at the start of each
 * slot and enqueues the slot's job under a key of its own, so the job exists once and whichever worker claims it runs
 * it, across restarts too. A ticker rather than a job that re-enqueues itself: a job always waiting in the queue would
 * keep the queue from ever being empty.
 */
export class PeriodicJob {
  private readonly type;
  private readonly logger: Logger;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly jobs: JobQueue,
    private readonly runner: TransactionRunner,
    private readonly options: PeriodicJobOptions,
  ) {
    this.type = defineJob<{ slot: number }>(options.name);
    this.logger = new Logger(options.name);
  }

  /** The handler runs the work, then forgets runs finished a day ago. */
  register(): void {
    this.jobs.register(this.type, async () => {
      await this.options.run();
      await this.runner.run(({ manager }) =>
        manager.delete(Job, {
          name: this.type.name,
          status: 'done',
          finishedAt: LessThan(Date.now() - KEEP_FINISHED_MS),
        }),
      );
    });
  }

  /** Enqueues the current slot's run, once per slot whoever asks, while it is due. */
  async tick(): Promise<void> {
    if (!(await this.options.due())) return;
    const slot = Math.floor(Date.now() / this.options.everyMs);
    await this.runner.run((tx) => this.jobs.enqueue(tx, this.type, { slot }, { key: `${this.type.name}:${slot}` }));
  }

  /** Ticks at the start of every slot until `stop`. */
  start(): void {
    const { everyMs } = this.options;
    this.timer = setTimeout(
      () => {
        this.tick().catch((error: Error) => this.logger.error(`not queued: ${error.message}`));
        this.start();
      },
      everyMs - (Date.now() % everyMs),
    ).unref();
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}

/**
 * The app's periodic jobs: a service defines its own in its constructor, and they are registered with the job queue,
 * started and stopped with the app.
 */
@Injectable()
export class PeriodicJobs implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly defined: PeriodicJob[] = [];

  constructor(
    private readonly jobs: JobQueue,
    private readonly runner: TransactionRunner,
  ) {}

  define(options: PeriodicJobOptions): PeriodicJob {
    const job = new PeriodicJob(this.jobs, this.runner, options);
    this.defined.push(job);
    return job;
  }

  onModuleInit(): void {
    for (const job of this.defined) job.register();
  }

  onApplicationBootstrap(): void {
    for (const job of this.defined) job.start();
  }

  onApplicationShutdown(): void {
    for (const job of this.defined) job.stop();
  }
}
