import { Column, Entity, Index } from 'typeorm';
import { BaseRow, EpochMsColumn } from '../database/base.entity';

export type JobStatus = 'pending' | 'running' | 'done' | 'failed';

/**
 * The outbox and the queue's source of truth: a job row is written in the same transaction as the change
 * that causes it, so it exists exactly when that change committed.
 */
@Entity('jobs')
@Index(['status', 'runAt'])
export class Job extends BaseRow {
  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'simple-json' })
  payload: Record<string, unknown>;

  /** Idempotency key: a second enqueue with the same key is ignored. */
  @Column({ type: 'varchar', length: 191, unique: true, nullable: true })
  jobKey: string | null;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status: JobStatus;

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @Column({ type: 'integer' })
  maxAttempts: number;

  /** Not before this time (epoch ms): the first run, or the next retry after backoff. */
  @EpochMsColumn()
  runAt: number;

  /** While running, the lease: past it a crashed worker's job is picked up again. */
  @EpochMsColumn({ nullable: true })
  lockedUntil: number | null;

  @Column({ type: 'text', nullable: true })
  lastError: string | null;

  @EpochMsColumn({ nullable: true })
  finishedAt: number | null;
}
