import { Column, Entity, Index } from 'typeorm';
import { BaseRow, EpochMsColumn } from '../database/base.entity';
import type { FlowAction } from './flow-actions';

export type FlowRunStatus = 'queued' | 'running' | 'succeeded' | 'failed';

/** What one action of a run did: a line for the runs log. */
export interface FlowActionResult {
  type: FlowAction['type'];
  status: 'succeeded' | 'failed';
  detail: string;
}

/** One execution of a flow: the variables it was given, its progress and its outcome. */
@Entity('flow_runs')
@Index(['flowId', 'id'])
export class FlowRun extends BaseRow {
  @Column({ type: 'integer' })
  flowId: number;

  /** The run's variables, e.g. `{ webhook: <request body> }`; a webhook body may be up to 1 MiB. */
  @Column({ type: 'json' })
  inputs: Record<string, unknown>;

  /** The flow's actions as they were when the run was queued: an edit meanwhile does not change a run. */
  @Column({ type: 'json' })
  actions: FlowAction[];

  @Column({ type: 'varchar', length: 16 })
  status: FlowRunStatus;

  /** Why the run failed (the failing action and its error), else null. */
  @Column({ type: 'text', nullable: true })
  reason: string | null;

  /** One entry per action reached, in order; a retried run skips the actions that already succeeded. */
  @Column({ type: 'json' })
  results: FlowActionResult[];

  @Column({ type: 'integer', default: 0 })
  attempts: number;

  @EpochMsColumn({ nullable: true })
  startedAt: number | null;

  @EpochMsColumn({ nullable: true })
  finishedAt: number | null;
}
