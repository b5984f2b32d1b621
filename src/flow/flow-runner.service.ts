import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { TransactionRunner, Tx } from '../database/transaction-runner';
import { defineJob, JobGaveUp, JobQueue } from '../jobs/job-queue.service';
import { Job } from '../jobs/job.entity';
import { FlowActionError, FlowActionPerformer } from './flow-action-performer.service';
import { FlowRun } from './flow-run.entity';
import { Flow } from './flow.entity';

const RUN_JOB = defineJob<{ runId: number }>('flow.run');

/**
 * Runs flows through the job queue (docs/architecture.md): a run is queued in the same transaction as its row and
 * performed by a job, action after action. A failing action fails the run with its reason; when the failure
 * may pass (an outside service down) the job is retried by the queue's policy, and the retry starts at the
 * failed action, since the ones before it already succeeded.
 */
@Injectable()
export class FlowRunner implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly jobs: JobQueue,
    private readonly performer: FlowActionPerformer,
  ) {}

  onModuleInit(): void {
    this.jobs.register(RUN_JOB, (payload, job) => this.perform(payload.runId, job));
  }

  /** Writes a queued run of `flow` with these variables, and its job, inside the caller's transaction. */
  async queue(tx: Tx, flow: Flow, variables: Record<string, unknown>): Promise<number> {
    const run = await tx.manager.save(
      Object.assign(new FlowRun(), {
        flowId: flow.id,
        inputs: variables,
        actions: flow.actions,
        status: 'queued',
        reason: null,
        results: [],
      }),
    );
    await this.jobs.enqueue(tx, RUN_JOB, { runId: run.id }, { key: `flow-run:${run.id}` });
    return run.id;
  }

  private async perform(runId: number, job: Job): Promise<void> {
    const run = await this.dataSource.getRepository(FlowRun).findOneBy({ id: runId });
    if (!run || run.status === 'succeeded') return;
    const flow = await this.dataSource.getRepository(Flow).findOneBy({ id: run.flowId });
    // Actions stop at the first failure, so the ones that succeeded are the run's first ones.
    const results = run.results.filter((result) => result.status === 'succeeded');
    await this.update(runId, {
      status: 'running',
      attempts: job.attempts,
      startedAt: run.startedAt ?? Date.now(),
      finishedAt: null,
    });

    for (let index = results.length; index < run.actions.length; index++) {
      const action = run.actions[index];
      try {
        const detail = await this.performer.perform(action, {
          runId,
          index,
          flowName: flow?.name ?? `#${run.flowId}`,
          variables: run.inputs,
        });
        results.push({ type: action.type, status: 'succeeded', detail });
        await this.update(runId, { results });
      } catch (error) {
        const message = (error as Error).message;
        const permanent = error instanceof FlowActionError && !error.retryable;
        const retrying = !permanent && job.attempts < job.maxAttempts;
        const reason =
          `action ${index + 1} (${action.type}) failed: ${message}` +
          (retrying ? ` (attempt ${job.attempts} of ${job.maxAttempts}; will retry)` : '');
        await this.update(runId, {
          status: 'failed',
          reason,
          results: [...results, { type: action.type, status: 'failed', detail: message }],
          finishedAt: Date.now(),
        });
        throw permanent ? new JobGaveUp(reason) : new Error(reason);
      }
    }
    await this.update(runId, { status: 'succeeded', reason: null, finishedAt: Date.now() });
  }

  private async update(runId: number, changes: QueryDeepPartialEntity<FlowRun>): Promise<void> {
    await this.runner.run(({ manager }) => manager.update(FlowRun, { id: runId }, changes));
  }
}
