import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { isSqlite } from './data-source-options';

/** One unit of work: the transaction's manager and a place to queue what must happen only after commit. */
export interface Tx {
  readonly manager: EntityManager;
  afterCommit(callback: () => unknown): void;
}

interface OpenTx extends Tx {
  callbacks: Array<() => unknown>;
}

const MYSQL_RETRYABLE = new Set([1213 /* ER_LOCK_DEADLOCK */, 1205 /* ER_LOCK_WAIT_TIMEOUT */]);
const MAX_ATTEMPTS = 4;

/**
 * Every write in the service goes through here (docs/architecture.md).
 *
 * TypeORM's better-sqlite3 driver has a single connection, so two overlapping transactions would share it:
 * one's rollback would take the other's writes with it, and the second BEGIN fails outright. On SQLite the
 * runner therefore admits one unit of work at a time. On MySQL/MariaDB each unit gets a pooled connection
 * and a real transaction, retried on deadlock. A `run` inside a `run` joins the outer unit of work.
 */
@Injectable()
export class TransactionRunner {
  private readonly logger = new Logger(TransactionRunner.name);
  private readonly current = new AsyncLocalStorage<OpenTx>();
  private readonly serial: boolean;
  private queueTail: Promise<unknown> = Promise.resolve();

  constructor(private readonly dataSource: DataSource) {
    this.serial = isSqlite(dataSource.options);
  }

  async run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    const outer = this.current.getStore();
    if (outer) return work(outer);

    const [result, callbacks] = this.serial
      ? await this.oneAtATime(() => this.attempt(work))
      : await this.withRetry(work);
    for (const callback of callbacks) {
      try {
        await callback();
      } catch (error) {
        this.logger.error({ err: error }, 'after-commit callback failed');
      }
    }
    return result;
  }

  private async attempt<T>(work: (tx: Tx) => Promise<T>): Promise<[T, Array<() => unknown>]> {
    const callbacks: Array<() => unknown> = [];
    const result = await this.dataSource.transaction((manager) => {
      const tx: OpenTx = { manager, callbacks, afterCommit: (callback) => callbacks.push(callback) };
      return this.current.run(tx, () => work(tx));
    });
    return [result, callbacks];
  }

  private async withRetry<T>(work: (tx: Tx) => Promise<T>): Promise<[T, Array<() => unknown>]> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.attempt(work);
      } catch (error) {
        if (attempt >= MAX_ATTEMPTS || !isRetryable(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 5 * 2 ** attempt + Math.random() * 20));
      }
    }
  }

  /** An async mutex: each unit starts when the previous one has settled, whatever its outcome. */
  private oneAtATime<T>(unit: () => Promise<T>): Promise<T> {
    const next = this.queueTail.then(unit, unit);
    this.queueTail = next.catch(() => undefined);
    return next;
  }
}

function isRetryable(error: unknown): boolean {
  const errno = (error as { driverError?: { errno?: number }; errno?: number }).driverError?.errno;
  return errno !== undefined && MYSQL_RETRYABLE.has(errno);
}
