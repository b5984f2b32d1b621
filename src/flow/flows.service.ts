import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ListSort } from '../common/cp-list.query';
import { AppError, FieldErrors } from '../common/errors/app-error';
import { TransactionRunner } from '../database/transaction-runner';
import { FlowAction, parseFlowActions } from './flow-actions';
import { FlowRun } from './flow-run.entity';
import { Flow } from './flow.entity';
import { newWebhookSecret, webhookSecretDigest, webhookSecretHint } from './webhook-secret';

/** A flow as staff write it: the actions are the JSON text of docs/http-contract.md. */
export interface FlowInput {
  name: string;
  actions: string;
}

/** A flow and its webhook secret in full: answered only when the secret is made, never again. */
export interface FlowWithSecret {
  flow: Flow;
  secret: string;
}

export const RUNS_PAGE_SIZE = 50;

/** What a flow's runs log sorts by; newest first unless asked. */
export const RUN_SORTS = ['id', 'dateCreated', 'status'] as const;
export type RunSort = ListSort<(typeof RUN_SORTS)[number]>;
export const NEWEST_RUNS_FIRST: RunSort = { key: 'id', direction: 'DESC' };
const MAX_NAME_LENGTH = 200;

/** Managing flows (CP and CLI): create, edit, switch on and off, rotate the webhook secret, read the runs. */
@Injectable()
export class FlowsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
  ) {}

  list(): Promise<Flow[]> {
    return this.dataSource.getRepository(Flow).find({ order: { name: 'ASC', id: 'ASC' } });
  }

  async get(id: number): Promise<Flow> {
    const flow = await this.dataSource.getRepository(Flow).findOneBy({ id });
    if (!flow) throw AppError.notFound('There is no such flow.');
    return flow;
  }

  /** A new webhook-triggered flow with a fresh secret. */
  async create(input: FlowInput, enabled = true): Promise<FlowWithSecret> {
    const { name, actions } = checked(input);
    const secret = newWebhookSecret();
    const flow = await this.save(
      Object.assign(new Flow(), { name, actions, enabled, triggerType: 'webhook', ...secretColumns(secret) }),
    );
    return { flow, secret };
  }

  /** New name and actions; runs already queued keep the actions they were queued with. */
  async update(id: number, input: FlowInput): Promise<Flow> {
    const changes = checked(input);
    return this.save(Object.assign(await this.get(id), changes));
  }

  async setEnabled(id: number, enabled: boolean): Promise<Flow> {
    return this.save(Object.assign(await this.get(id), { enabled }));
  }

  /** Replaces the webhook secret: the old one answers 403 from now on. */
  async rotateSecret(id: number): Promise<FlowWithSecret> {
    const secret = newWebhookSecret();
    const flow = await this.save(Object.assign(await this.get(id), secretColumns(secret)));
    return { flow, secret };
  }

  /** One page of a flow's runs, newest first. */
  async runs(
    flowId: number,
    page: number,
    sort: RunSort = NEWEST_RUNS_FIRST,
  ): Promise<{ runs: FlowRun[]; total: number; pages: number }> {
    const [runs, total] = await this.dataSource.getRepository(FlowRun).findAndCount({
      where: { flowId },
      // The id breaks ties, so a page boundary never repeats or skips a run.
      order: { [sort.key]: sort.direction, id: sort.direction },
      skip: (page - 1) * RUNS_PAGE_SIZE,
      take: RUNS_PAGE_SIZE,
    });
    return { runs, total, pages: Math.max(1, Math.ceil(total / RUNS_PAGE_SIZE)) };
  }

  private save(flow: Flow): Promise<Flow> {
    return this.runner.run(({ manager }) => manager.save(flow));
  }
}

function secretColumns(secret: string): Pick<Flow, 'secretDigest' | 'secretHint'> {
  return { secretDigest: webhookSecretDigest(secret), secretHint: webhookSecretHint(secret) };
}

/** The input checked as a whole, so staff see a bad name and bad actions at once. */
function checked(input: FlowInput): { name: string; actions: FlowAction[] } {
  const name = (input.name ?? '').trim();
  const fields: FieldErrors = {};
  if (name === '' || name.length > MAX_NAME_LENGTH) fields.name = [`must be 1 to ${MAX_NAME_LENGTH} characters`];
  let actions: FlowAction[] = [];
  try {
    actions = parseFlowActions(input.actions ?? '');
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    Object.assign(fields, error.fields);
  }
  const problems = Object.entries(fields).flatMap(([field, messages]) =>
    messages.map((text) => (text.startsWith('action ') ? text : `${field} ${text}`)),
  );
  if (problems.length > 0) throw AppError.invalid(fields, `The flow was not saved: ${problems.join('; ')}.`);
  return { name, actions };
}
