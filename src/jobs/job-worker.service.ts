import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Queue, Worker } from 'bullmq';
import type IORedis from 'ioredis';
import { DependencyOutages } from '../common/dependency-outages';
import { AppConfig } from '../config/app-config';
import { InjectConfig } from '../config/config.module';
import { JobExecutor } from './job-executor.service';
import { JobQueue } from './job-queue.service';

const QUEUE_NAME = 'jobs';

/**
 * Works the job table. Without Redis it polls the table (and wakes at once after an enqueue). With Redis,
 * BullMQ carries due jobs to whichever instance is free, while the table stays the outbox and the record:
 * every sweep hands BullMQ what is due, so nothing committed is lost if a hand-over to Redis failed. While Redis or
 * the database is away the sweeps fail (the outage is logged once) and the jobs wait in the table until it is back.
 */
@Injectable()
export class JobWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(JobWorker.name);
  private timer?: NodeJS.Timeout;
  private sweeping = false;
  private sweepAgain = false;
  private stopped = true;
  private bull?: { connections: IORedis[]; queue: Queue; worker: Worker };

  constructor(
    private readonly executor: JobExecutor,
    private readonly queue: JobQueue,
    @InjectConfig() private readonly config: AppConfig,
    private readonly outages: DependencyOutages,
  ) {
    this.queue.onEnqueued(() => this.wake());
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.jobWorker === 'inline') await this.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    if (this.config.redisUrl) await this.startBull(this.config.redisUrl);
    this.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    while (this.sweeping) await new Promise((resolve) => setTimeout(resolve, 10));
    if (this.bull) {
      // A BullMQ connection closed while it is still starting emits an 'error' after its close has removed every
      // listener, which ends the process: let the start settle first (a second at most, Redis may be away).
      const { queue, worker } = this.bull;
      await Promise.race([
        Promise.allSettled([queue.waitUntilReady(), worker.waitUntilReady()]),
        new Promise((resolve) => setTimeout(resolve, 1000).unref()),
      ]);
      await this.bull.worker.close();
      await this.bull.queue.close();
      for (const connection of this.bull.connections) connection.disconnect();
      this.bull = undefined;
    }
  }

  /** Sweeps now (or right after the sweep in progress), then keeps polling. */
  wake(): void {
    if (this.stopped) return;
    if (this.sweeping) {
      this.sweepAgain = true;
      return;
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.sweep(), 0);
  }

  private async sweep(): Promise<void> {
    this.sweeping = true;
    try {
      do {
        this.sweepAgain = false;
        const due = await this.executor.dueJobs();
        if (this.bull) {
          // A retry moves runAt and a lost worker leaves a lease behind, so either makes a new BullMQ job,
          // while handing over the same due job twice does not.
          await this.bull.queue.addBulk(
            due.map(({ id, runAt, lockedUntil }) => ({
              name: 'job',
              data: { id },
              opts: { jobId: `${id}-${runAt}-${lockedUntil ?? 0}` },
            })),
          );
        } else {
          for (const job of due) if (!this.stopped) await this.executor.execute(job.id);
          if (due.length > 0) this.sweepAgain = true;
        }
      } while (this.sweepAgain && !this.stopped);
    } catch (error) {
      if (!this.outages.absorb(error)) this.logger.error(`job sweep failed: ${(error as Error).message}`);
    } finally {
      this.sweeping = false;
      if (!this.stopped) this.timer = setTimeout(() => void this.sweep(), this.config.jobPollMs).unref();
    }
  }

  /** BullMQ and ioredis load only here: an install without Redis never needs them. */
  private async startBull(redisUrl: string): Promise<void> {
    const [{ Queue, Worker }, { default: IORedis }] = await Promise.all([import('bullmq'), import('ioredis')]);
    // The sweep's hand-over fails at once while Redis is away (the jobs stay due in the table) instead of waiting in
    // ioredis's offline queue; the worker's connection waits for Redis to return, as BullMQ requires.
    const queueConnection = new IORedis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    const workerConnection = new IORedis(redisUrl, { maxRetriesPerRequest: null });
    const prefix = `${this.config.redisPrefix}bull`;
    const queue = new Queue(QUEUE_NAME, {
      connection: queueConnection,
      prefix,
      // A BullMQ job fails only when the table could not be reached (a job's own failure is recorded there), and a
      // failed one left in Redis would keep its id: the sweep could not hand the still-due job over again.
      defaultJobOptions: { removeOnComplete: { age: 3600 }, removeOnFail: true },
    });
    const worker = new Worker<{ id: number }>(QUEUE_NAME, (job) => this.executor.execute(job.data.id), {
      connection: workerConnection,
      prefix,
      concurrency: 4,
    });
    // Without a listener an 'error' event throws and ends the process (Redis going away, or dropping at shutdown).
    // BullMQ passes on its connections' errors here, the worker's blocking connection included.
    const onError = (what: string) => (error: Error) =>
      this.outages.absorb(error) || this.logger.error(`bullmq ${what}: ${error.message}`);
    queue.on('error', onError('queue'));
    worker.on('error', onError('worker'));
    this.bull = { connections: [queueConnection, workerConnection], queue, worker };
  }
}
