import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Queue, Worker } from 'bullmq';
import type IORedis from 'ioredis';
import { AppConfig } from '../config/app-config';
import { InjectConfig } from '../config/config.module';
import { JobExecutor } from './job-executor.service';
import { JobQueue } from './job-queue.service';

const QUEUE_NAME = 'jobs';

/**
 * Works the job table. Without Redis it polls the table (and wakes at once after an enqueue). With Redis,
 * BullMQ carries due jobs to whichever instance is free, while the table stays the outbox and the record:
 * every sweep hands BullMQ what is due, so nothing committed is lost if a hand-over to Redis failed.
 */
@Injectable()
export class JobWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(JobWorker.name);
  private timer?: NodeJS.Timeout;
  private sweeping = false;
  private sweepAgain = false;
  private stopped = true;
  private bull?: { connection: IORedis; queue: Queue; worker: Worker };

  constructor(
    private readonly executor: JobExecutor,
    private readonly queue: JobQueue,
    @InjectConfig() private readonly config: AppConfig,
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
      await this.bull.worker.close();
      await this.bull.queue.close();
      this.bull.connection.disconnect();
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
      this.logger.error(`job sweep failed: ${(error as Error).message}`);
    } finally {
      this.sweeping = false;
      if (!this.stopped) this.timer = setTimeout(() => void this.sweep(), this.config.jobPollMs).unref();
    }
  }

  /** BullMQ and ioredis load only here: an install without Redis never needs them. */
  private async startBull(redisUrl: string): Promise<void> {
    const [{ Queue, Worker }, { default: IORedis }] = await Promise.all([import('bullmq'), import('ioredis')]);
    const connection = new IORedis(redisUrl, { maxRetriesPerRequest: null });
    const prefix = `${this.config.redisPrefix}bull`;
    const queue = new Queue(QUEUE_NAME, {
      connection,
      prefix,
      defaultJobOptions: { removeOnComplete: { age: 3600 }, removeOnFail: { age: 24 * 3600 } },
    });
    const worker = new Worker<{ id: number }>(QUEUE_NAME, (job) => this.executor.execute(job.data.id), {
      connection,
      prefix,
      concurrency: 4,
    });
    // Without a listener an 'error' event throws: a connection dropping as the app shuts down would crash it.
    queue.on('error', (error) => this.logger.error(`bullmq queue: ${error.message}`));
    worker.on('error', (error) => this.logger.error(`bullmq worker: ${error.message}`));
    this.bull = { connection, queue, worker };
  }
}
